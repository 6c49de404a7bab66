/**
 * The Llm adapter over a web-llm engine (normally MLCEngine in the LLM worker, see webllm-engine.ts).
 * What a thin wrapper lacks, this adds:
 *  - a per-engine queue: web-llm has one global interruptGenerate(), so
 *    requests run one at a time and an abort interrupts only its own request
 *    (a queued request that is aborted simply leaves the queue);
 *  - AbortSignal on every call, mapped to interruptGenerate();
 *  - a dead engine worker rejects the running request at once (WORKER_CRASHED)
 *    and the next call starts a new engine;
 *  - string rejections, device loss and out-of-memory mapped to ThreadlineError;
 *    after device loss the next call reloads the engine, no page reload needed;
 *  - condensation routed to a second, smaller model in the same engine, so it
 *    never resets the answer model's conversation (and its KV cache).
 */
import type { ChatCompletionChunk, ChatCompletionRequestStreaming } from '@mlc-ai/web-llm';
import { ThreadlineError, isThreadlineError, throwIfAborted } from '../errors';
import type { ProgressListener } from '../progress';
import { mapInitProgress, type InitReport } from './init-progress';
import type { ChatMessage, GenerateOptions, GenerationUsage, Llm } from './llm';
import { mapLlmError } from './llm-errors';

/** The part of web-llm's MLCEngineInterface the adapter uses (web-llm's MLCEngine satisfies it). */
export interface EngineLike {
  chat: { completions: { create(request: ChatCompletionRequestStreaming): Promise<AsyncIterable<ChatCompletionChunk>> } };
  interruptGenerate(): void | Promise<void>;
  unload(): Promise<void>;
}

export interface EngineHandle {
  engine: EngineLike;
  /** Rejects (WORKER_CRASHED) when the engine's worker dies; never resolves. */
  dead: Promise<never>;
  dispose(): void;
  /** Where a model's files live (its tokenizer.json among them), from the engine's app config. */
  modelUrl?(modelId: string): Promise<string | undefined>;
}

/** Creates an engine with `models` loaded; the seam where tests inject a fake engine. */
export type EngineFactory = (models: string[], onInitProgress: (report: InitReport) => void) => Promise<EngineHandle>;

export interface WebLlmOptions {
  answerModel: string;
  condenserModel: string | null;
  onProgress?: ProgressListener;
  /** Context window of the answer model, in tokens. @default 4096 */
  contextWindow?: number;
  /** Loads the answer model's tokenizer (given the model's URL, from the engine) once the engine is up; until then counts are estimated. */
  tokenizer?: (modelUrl: string) => Promise<(text: string) => number>;
}

export class WebLlm implements Llm {
  readonly id: string;
  readonly contextWindow: number;
  private handle: Promise<EngineHandle> | null = null;
  private tail: Promise<void> = Promise.resolve();
  private usage: GenerationUsage | undefined;
  private disposed = false;
  private exactCount: ((text: string) => number) | null = null;

  constructor(private readonly factory: EngineFactory, private readonly options: WebLlmOptions) {
    this.id = options.answerModel;
    this.contextWindow = options.contextWindow ?? 4096;
  }

  /** Loads the engine now (it otherwise loads on the first call). */
  async load(): Promise<void> {
    await this.engine();
  }

  /** Drops the engine (after device loss, say); the next call loads a fresh one. */
  async reload(): Promise<void> {
    const old = this.handle;
    this.handle = null;
    if (old) (await old.catch(() => null))?.dispose();
    await this.engine();
  }

  dispose(): void {
    this.disposed = true;
    void this.handle?.then((h) => h.dispose(), () => undefined);
    this.handle = null;
  }

  /** The model's own token count once its tokenizer is loaded; about 4 characters a token before. */
  countTokens(text: string): number {
    return this.exactCount ? this.exactCount(text) : Math.ceil(text.length / 4);
  }

  /** Whether `countTokens` uses the model's tokenizer yet. */
  get tokenizerLoaded(): boolean {
    return this.exactCount !== null;
  }

  lastUsage(): GenerationUsage | undefined {
    return this.usage;
  }

  async *stream(messages: readonly ChatMessage[], options: GenerateOptions = {}): AsyncIterable<string> {
    const model = options.purpose && options.purpose !== 'answer' && this.options.condenserModel ? this.options.condenserModel : this.options.answerModel;
    const release = await this.acquire(options.signal);
    try {
      for (let attempt = 0; ; attempt++) {
        const handle = await this.engine();
        throwIfAborted(options.signal);
        let produced = false;
        let finish: string | null = null;
        for await (const piece of this.generate(handle, model, messages, options, (reason) => { finish = reason; })) {
          produced = true;
          yield piece;
        }
        // web-llm has returned an empty, "aborted" reply right after an earlier interrupt: retry once.
        if (!produced && finish === 'abort' && !options.signal?.aborted && attempt === 0) continue;
        return;
      }
    } finally {
      release();
    }
  }

  private async *generate(handle: EngineHandle, model: string, messages: readonly ChatMessage[], options: GenerateOptions, onFinish: (reason: string | null) => void): AsyncGenerator<string> {
    const { engine, dead } = handle;
    let done = false;
    const onAbort = () => { if (!done) void Promise.resolve(engine.interruptGenerate()).catch(() => undefined); };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    let iterator: AsyncIterator<ChatCompletionChunk> | undefined;
    try {
      const chunks = await Promise.race([engine.chat.completions.create({
        messages: messages.map((m) => ({ role: m.role, content: m.content })),
        model, stream: true, stream_options: { include_usage: true },
        temperature: options.temperature ?? (options.purpose === 'answer' || !options.purpose ? 0.3 : 0),
        ...(options.maxTokens ? { max_tokens: options.maxTokens } : {}),
      }), dead]);
      iterator = chunks[Symbol.asyncIterator]();
      for (;;) {
        const next = await Promise.race([iterator.next(), dead]);
        if (next.done) break;
        const chunk = next.value;
        if (chunk.usage) this.usage = { promptTokens: chunk.usage.prompt_tokens, completionTokens: chunk.usage.completion_tokens, prefillTokens: chunk.usage.prompt_tokens };
        const choice = chunk.choices[0];
        if (choice?.finish_reason) onFinish(choice.finish_reason);
        const piece = choice?.delta?.content;
        if (piece) yield piece;
      }
      done = true;
      throwIfAborted(options.signal);
    } catch (error) {
      throw this.failure(error, options.signal);
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      if (!done && iterator) {
        // The consumer stopped early or an error struck: stop the engine and let its stream end before the next request.
        void Promise.resolve(engine.interruptGenerate()).catch(() => undefined);
        await Promise.race([drain(iterator), dead, timeout(2_000)]).catch(() => undefined);
      }
    }
  }

  private failure(error: unknown, signal: AbortSignal | undefined): ThreadlineError {
    if (signal?.aborted) return new ThreadlineError('ABORTED', 'The generation was aborted.', { cause: signal.reason });
    const mapped = mapLlmError(error, `Language model ${this.options.answerModel}`);
    if (isThreadlineError(mapped, 'GPU_DEVICE_LOST') || isThreadlineError(mapped, 'WORKER_CRASHED') || isThreadlineError(mapped, 'OUT_OF_MEMORY')) {
      const old = this.handle;
      this.handle = null; // the next call builds a fresh engine
      void old?.then((h) => h.dispose(), () => undefined);
      this.options.onProgress?.({ phase: 'llm-status', status: 'lost', reason: mapped.message });
    }
    return mapped;
  }

  private engine(): Promise<EngineHandle> {
    if (this.disposed) return Promise.reject(new ThreadlineError('DISPOSED', 'The language model was disposed.'));
    if (!this.handle) {
      const models = [this.options.answerModel, ...(this.options.condenserModel ? [this.options.condenserModel] : [])];
      const onInit = (r: InitReport) => this.options.onProgress?.(mapInitProgress(this.options.answerModel, r));
      const loading = this.factory(models, onInit).catch((error: unknown) => {
        if (this.handle === loading) this.handle = null;
        const mapped = mapLlmError(error, `Could not load ${models.join(' + ')}`);
        this.options.onProgress?.({ phase: 'llm-status', status: 'failed', reason: mapped.message });
        throw mapped;
      });
      loading.then((h) => {
        this.options.onProgress?.({ phase: 'llm-status', status: 'ready', reason: `${models.join(' + ')} loaded` });
        const { tokenizer } = this.options;
        if (!this.exactCount && tokenizer && h.modelUrl) {
          void h.modelUrl(this.options.answerModel)
            .then((url) => (url ? tokenizer(url) : null))
            .then((count) => { if (count) this.exactCount = count; }, () => undefined);
        }
        h.dead.catch(() => { if (this.handle === loading) this.handle = null; });
      }, () => undefined);
      this.handle = loading;
    }
    return this.handle;
  }

  /** Waits for this engine's earlier requests; an abort while waiting leaves the queue at once. */
  private acquire(signal: AbortSignal | undefined): Promise<() => void> {
    let release!: () => void;
    const previous = this.tail;
    const mine = new Promise<void>((r) => { release = r; });
    this.tail = previous.then(() => mine);
    return new Promise((resolve, reject) => {
      const onAbort = () => { release(); reject(new ThreadlineError('ABORTED', 'The generation was aborted before it started.', { cause: signal?.reason })); };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      void previous.then(() => {
        signal?.removeEventListener('abort', onAbort);
        if (signal?.aborted) return;
        resolve(release);
      });
    });
  }
}

async function drain(iterator: AsyncIterator<unknown>): Promise<void> {
  for (let i = 0; i < 10_000; i++) if ((await iterator.next()).done) return;
}

function timeout(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
