/**
 * createThreadline: the library's entry point. The main thread only
 * orchestrates; parsing, embedding, indexing and storage run in the
 * retrieval worker, one round trip per call.
 */
import { defaultRetrievalWorker } from './client/default-worker';
import { takeSpareRetrievalWorker } from './client/spare-worker';
import { wrapRetriever } from './client/wrap-retriever';
import type { EmbedderOptions } from './embedding/load-embedder';
import { threadlineOptionsProblem } from './threadline-options';
import { ThreadlineError, throwIfAborted } from './errors';
import { partitionDocuments, validateDocuments } from './ingest/validate';
import type { ProgressListener } from './progress';
import type { ChunkOptions } from './retrieval/chunker';
import type { HybridWeights } from './retrieval/memory-index';
import type { AddOptions, AddResult, LoadOptions, LoadResult, Retriever } from './retriever';
import { ChatSession } from './chat/session';
import type { ChatOptions } from './chat/types';
import type { Llm } from './llm/llm';
import { resolveLlm, type LlmOption, type ResolvedLlm } from './llm/resolve-llm';
import { raced } from './util/abort';
import type { WebGpuCapability } from './llm/webgpu';
import { SessionStore, type SessionInfo } from './storage/session-store';

export interface ThreadlineOptions {
  /** IndexedDB namespace (`threadline:<name>`); two names never share data. @default 'default' */
  name?: string;
  /** Embedding model; see EmbedderOptions. @default the offline model */
  embedder?: EmbedderOptions;
  /** Chunk sizes in embedding-model tokens. @default { maxTokens: 256, overlapTokens: 32 } */
  chunking?: ChunkOptions;
  /** Scan settings; weights are finite and ≥ 0, corroboration in [0, 1]. @default { int8: false, weights: { dense: 1, lexical: 1, corroboration: 1 } } */
  search?: { int8?: boolean; weights?: Partial<HybridWeights> };
  /**
   * When the stored index was built with another embedding model: `'error'`
   * throws MODEL_MISMATCH; `'rebuild'` re-embeds the stored chunks with the new model.
   * @default 'error'
   */
  onModelMismatch?: 'error' | 'rebuild';
  /** Model download and load progress. */
  onProgress?: ProgressListener;
  /** Creates the retrieval worker (custom URL, CSP setups, tests). @default the bundled worker */
  worker?: () => Worker;
  /**
   * The language model for condensation and answers: an `Llm`, or a WebLLM
   * configuration (`{}` for the default pair) that is checked against WebGPU
   * first. Without one, or when WebGPU is missing, threadline condenses with
   * rules and answers extractively (labelled as such).
   * @default none
   */
  llm?: LlmOption;
  /**
   * Aborts opening: the worker stops, with whatever it was doing (a model
   * download, reading the index, a rebuild, which writes nothing until its
   * end), and createThreadline rejects with ABORTED. Only opening: an open
   * instance is stopped with `dispose()`.
   */
  signal?: AbortSignal;
}

/** The retrieval operations (see Retriever), plus chat sessions and the language model. */
export interface Threadline extends Omit<Retriever, 'load'> {
  readonly name: string;
  /** The language model in use, or undefined (rules + extractive answers). */
  readonly llm: Llm | undefined;
  /** The WebGPU adapter's capability, when a WebLLM configuration passed the check. */
  readonly gpu: WebGpuCapability | undefined;
  /** Retriever.load, with a URL relative to the page. */
  load(url: string | URL, options?: LoadOptions): Promise<LoadResult>;
  /** Opens a chat session; an existing `sessionId` resumes its stored history. */
  chat(options?: ChatOptions): Promise<ChatSession>;
  /** Stored sessions of this name, most recently used first. */
  sessions(): Promise<SessionInfo[]>;
  /** Deletes every stored session (conversation) of this name. */
  clearSessions(): Promise<void>;
  /** Stops the worker. Stored data stays; later calls fail with DISPOSED. */
  dispose(): Promise<void>;
}

/**
 * Relative model folders (`./models/x/`) mean "relative to this page"; the
 * worker would otherwise resolve them against its own script URL.
 */
function pageRelative(embedder: EmbedderOptions): EmbedderOptions {
  const base = globalThis.location?.href;
  const resolve = (ref: string | undefined) => (base && ref && /^\.\.?\//.test(ref.trim()) ? new URL(ref.trim(), base).href : ref);
  const model = resolve(embedder.model);
  const offlineModel = resolve(embedder.offlineModel);
  return { ...embedder, ...(model ? { model } : {}), ...(offlineModel ? { offlineModel } : {}) };
}

export const THREADLINE_DEFAULTS = Object.freeze({
  name: 'default',
  onModelMismatch: 'error',
  search: Object.freeze({ int8: false, weights: Object.freeze({ dense: 1, lexical: 1, corroboration: 1 }) }),
} as const);

/** Opens (or creates) the index `name` and resolves once it is loaded and searchable. */
export async function createThreadline(options: ThreadlineOptions = {}): Promise<Threadline> {
  // Over plain http on a non-localhost host the browser withholds Web Locks, Web Crypto and storage
  // persistence; fail here, typed, rather than later with an untyped TypeError.
  if ((globalThis as { isSecureContext?: boolean }).isSecureContext === false) {
    throw new ThreadlineError('INSECURE_CONTEXT', 'threadline needs a secure context: serve the page over https (or from localhost). Over plain http the browser withholds Web Locks and Web Crypto.');
  }
  throwIfAborted(options.signal);
  const problem = threadlineOptionsProblem(options);
  if (problem) throw problem;
  const name = options.name ?? THREADLINE_DEFAULTS.name;
  const weights = { ...THREADLINE_DEFAULTS.search.weights, ...options.search?.weights };
  const embedder = pageRelative(options.embedder ?? {});
  // A worker the page started early for these options (the standalone element does) is adopted once; after a crash, a fresh one starts.
  const makeWorker = options.worker ?? (() => takeSpareRetrievalWorker(embedder) ?? defaultRetrievalWorker());
  const retriever = wrapRetriever(makeWorker, {
    name,
    embedder,
    chunking: options.chunking ?? {},
    int8: options.search?.int8 ?? THREADLINE_DEFAULTS.search.int8,
    weights,
    onModelMismatch: options.onModelMismatch ?? THREADLINE_DEFAULTS.onModelMismatch,
  }, options.onProgress);
  const { signal } = options;
  let resolved: ResolvedLlm;
  try {
    await raced(retriever.start(), signal);
    const resolving = resolveLlm(options.llm, options.onProgress);
    // An engine created after an abort (its WebGPU check was in flight) is disposed of when it arrives.
    if (signal) resolving.then((late) => { if (signal.aborted) late.dispose?.(); }, () => undefined);
    resolved = await raced(resolving, signal);
  } catch (error) {
    // Terminating the worker stops its model download, reading or rebuild; nothing it had not committed is kept.
    retriever.dispose();
    throw error;
  }
  const { llm, capability, dispose: disposeLlm } = resolved;
  let persistAsked = false;
  let sessionStore: Promise<SessionStore> | null = null;
  const sessions = () => (sessionStore ??= SessionStore.open(name).catch((error: unknown) => { sessionStore = null; throw error; }));
  return {
    name,
    llm,
    gpu: capability,
    ...retriever,
    async add(docs, addOptions: AddOptions = {}) {
      // Validate here too: a value the browser cannot clone would otherwise fail as an untyped DataCloneError
      // (with skipInvalid, such documents are left out here and reported, and only usable ones cross).
      let result: AddResult;
      if (addOptions.skipInvalid) {
        const { docs: usable, failed, indexes } = partitionDocuments(docs);
        const sent = await retriever.add(usable, addOptions);
        result = { ...sent, failed: [...failed, ...sent.failed.map((f) => ({ ...f, index: indexes[f.index] ?? f.index }))].sort((a, b) => a.index - b.index) };
      } else {
        validateDocuments(docs);
        result = await retriever.add(docs, addOptions);
      }
      if (!persistAsked && result.added > 0) {
        persistAsked = true;
        // Ask once, after the user has put something worth keeping; the browser may say no.
        void globalThis.navigator?.storage?.persist?.().catch(() => false);
      }
      return result;
    },
    load: (url, loadOptions = {}) => {
      let absolute: string;
      try {
        absolute = new URL(url, globalThis.location?.href).href;
      } catch (error) {
        return Promise.reject(new ThreadlineError('INVALID_INPUT', `Not a URL: ${String(url)}`, { cause: error }));
      }
      return retriever.load(absolute, loadOptions);
    },
    chat: async (chatOptions = {}) => ChatSession.open(await sessions(), retriever, llm, chatOptions),
    sessions: async () => (await sessions()).list(),
    clearSessions: async () => (await sessions()).clearAll(),
    dispose: async () => {
      retriever.dispose();
      disposeLlm?.();
      if (sessionStore) (await sessionStore.catch(() => null))?.close();
    },
  };
}
