/**
 * FakeMlcEngine: a fake of web-llm's MLCEngineInterface for tests only,
 * faithful where the adapter depends on it:
 *  - streamed ChatCompletionChunks, the last carrying `usage`;
 *  - one engine-wide interrupt flag, reset when a generation starts
 *    (as in web-llm's _generate), checked between tokens;
 *  - web-llm's KV-reuse rule per model: a request whose messages[:-1] equal
 *    the conversation stored after the previous reply (and whose previous
 *    reply was not aborted or cut by length) prefills only its last message;
 *    otherwise everything is prefilled. usage.prompt_tokens reports that
 *    prefill, as web-llm does for multi-round chats;
 *  - string rejections (as across web-llm's worker) and init progress reports.
 * Tokens are counted as words and punctuation plus 4 per message (template).
 */
import type { ChatCompletionChunk } from '@mlc-ai/web-llm';
import type { InitReport } from '../../src/llm/init-progress';
import type { EngineFactory, EngineHandle, EngineLike } from '../../src/llm/webllm';

interface Msg { role: string; content: string }
interface Request { messages: Msg[]; model?: string | null; max_tokens?: number | null; temperature?: number | null }

export interface FakeEngineScript {
  /** Reply text for a request; an Error or a string to reject with instead. */
  reply?: (request: Request, call: number) => string | { reject: unknown };
  /** Delay between streamed pieces, in ms. @default 0 */
  delayMs?: number;
}

export const fakeTokens = (text: string): number => (text.match(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu) ?? []).length;
const promptTokens = (messages: Msg[]) => messages.reduce((n, m) => n + 4 + fakeTokens(m.content), 0);

export class FakeMlcEngine implements EngineLike {
  readonly requests: (Request & { prefill: number; reused: boolean })[] = [];
  /** How each finished generation ended ('stop', 'length', 'abort'), in order. */
  readonly finishes: string[] = [];
  private readonly conversations = new Map<string, { messages: Msg[]; finish: string }>();
  private interrupt = false;
  private calls = 0;
  readonly chat = { completions: { create: (request: Request) => this.create(request) } } as unknown as EngineLike['chat'];

  constructor(readonly models: string[], private readonly script: FakeEngineScript = {}) {}

  interruptGenerate(): void {
    this.interrupt = true;
  }

  async unload(): Promise<void> {
    this.conversations.clear();
    await Promise.resolve();
  }

  private async create(request: Request): Promise<AsyncIterable<ChatCompletionChunk>> {
    await Promise.resolve();
    const call = this.calls++;
    const reply = this.script.reply?.(request, call) ?? 'A fake answer citing [1].';
    // web-llm rejects with plain strings across its worker; the fake must too.
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
    if (typeof reply === 'object') return Promise.reject(reply.reject);
    const model = request.model ?? this.models[0] ?? 'fake';
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
    if (!this.models.includes(model)) return Promise.reject(`Error: Model ${model} is not loaded.`);
    const state = this.conversations.get(model);
    const history = request.messages.slice(0, -1);
    const reused = !!state && state.finish !== 'abort' && state.finish !== 'length' && JSON.stringify(state.messages) === JSON.stringify(history.map((m) => ({ role: m.role, content: m.content })));
    const prefill = reused ? promptTokens(request.messages.slice(-1)) : promptTokens(request.messages);
    this.requests.push({ ...request, prefill, reused });
    this.interrupt = false; // web-llm resets the flag when a generation starts
    return this.generate(request, model, reply, prefill);
  }

  private async *generate(request: Request, model: string, reply: string, prefill: number): AsyncGenerator<ChatCompletionChunk> {
    const pieces = reply.split(/(?<=\s)/).filter(Boolean);
    const limit = request.max_tokens ?? Infinity;
    let text = '';
    let finish = 'stop';
    let produced = 0;
    for (const piece of pieces) {
      if (this.script.delayMs) await new Promise((r) => setTimeout(r, this.script.delayMs));
      if (this.interrupt) { finish = 'abort'; break; }
      if (produced >= limit) { finish = 'length'; break; }
      text += piece;
      produced++;
      yield chunk(model, { delta: { content: piece }, finish_reason: null });
    }
    this.conversations.set(model, { messages: [...request.messages.map((m) => ({ role: m.role, content: m.content })), { role: 'assistant', content: text }], finish });
    this.finishes.push(finish);
    yield chunk(model, { delta: {}, finish_reason: finish });
    yield { ...chunk(model, null), usage: { prompt_tokens: prefill, completion_tokens: produced, total_tokens: prefill + produced, extra: {} } } as unknown as ChatCompletionChunk;
  }
}

function chunk(model: string, choice: { delta: { content?: string }; finish_reason: string | null } | null): ChatCompletionChunk {
  return { id: 'fake', object: 'chat.completion.chunk', created: 0, model, choices: choice ? [{ index: 0, ...choice }] : [] } as unknown as ChatCompletionChunk;
}

/** Init reports in web-llm's wording, for the progress mapping. */
export const FAKE_INIT_REPORTS: InitReport[] = [
  { progress: 0.1, timeElapsed: 1, text: 'Fetching param cache[1/10]: 120MB fetched. 10% completed, 1 secs elapsed.' },
  { progress: 0.5, timeElapsed: 3, text: 'Loading model from cache[5/10]: 600MB loaded. 50% completed, 3 secs elapsed.' },
  { progress: 0.9, timeElapsed: 4, text: 'Loading GPU shader modules[40/44]: 90% completed, 4 secs elapsed.' },
  { progress: 1, timeElapsed: 5, text: 'Finish loading on WebGPU - fake adapter' },
];

/** A factory of fake engines; `kill(i)` makes engine i's worker "die". */
export function fakeEngineFactory(script: FakeEngineScript = {}) {
  const engines: FakeMlcEngine[] = [];
  const killers: ((e: unknown) => void)[] = [];
  const factory: EngineFactory = async (models, onInit) => {
    for (const r of FAKE_INIT_REPORTS) onInit(r);
    await Promise.resolve();
    const engine = new FakeMlcEngine(models, script);
    engines.push(engine);
    const dead = new Promise<never>((_, reject) => { killers.push(reject); });
    dead.catch(() => undefined);
    const handle: EngineHandle = { engine, dead, dispose: () => undefined, modelUrl: (id) => Promise.resolve(`https://models.example/${id}`) };
    return handle;
  };
  return { factory, engines, kill: (i: number, error: unknown) => killers[i]?.(error) };
}
