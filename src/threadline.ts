/**
 * createThreadline: the library's entry point. The main thread only
 * orchestrates; parsing, embedding, indexing and storage run in the
 * retrieval worker, one round trip per call.
 */
import { proxy } from 'comlink';
import { RetrievalClient } from './client/retrieval-client';
import { defaultRetrievalWorker } from './client/default-worker';
import type { ThreadlineDocument } from './document';
import type { EmbedderOptions } from './embedding/transformers-embedder';
import { ThreadlineError } from './errors';
import { validateDocuments } from './ingest/validate';
import type { ProgressListener } from './progress';
import type { ChunkOptions } from './retrieval/chunker';
import type { DocumentInfo, HybridWeights, SearchHit } from './retrieval/memory-index';
import type { AddResult, IndexStats, SearchOptions } from './worker/retrieval-engine';
import { ChatSession } from './chat/session';
import type { ChatOptions } from './chat/types';
import type { Llm } from './llm/llm';
import { resolveLlm, type LlmOption } from './llm/resolve-llm';
import type { WebGpuCapability } from './llm/webgpu';
import { SessionStore, type SessionInfo } from './storage/session-store';

export interface ThreadlineOptions {
  /** IndexedDB namespace (`threadline:<name>`); two names never share data. @default 'default' */
  name?: string;
  /** Embedding model; see EmbedderOptions. @default the offline model */
  embedder?: EmbedderOptions;
  /** Chunk sizes in embedding-model tokens. @default { maxTokens: 256, overlapTokens: 32 } */
  chunking?: ChunkOptions;
  /** Scan settings. @default { int8: false, weights: { dense: 1, lexical: 1 } } */
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
}

export interface AddOptions {
  signal?: AbortSignal;
  onProgress?: ProgressListener;
}

export interface Threadline {
  readonly name: string;
  /** The language model in use, or undefined (rules + extractive answers). */
  readonly llm: Llm | undefined;
  /** The WebGPU adapter's capability, when a WebLLM configuration passed the check. */
  readonly gpu: WebGpuCapability | undefined;
  /** Chunks, embeds and stores documents; unchanged ones are skipped, changed ones replaced atomically. */
  add(docs: readonly ThreadlineDocument[], options?: AddOptions): Promise<AddResult>;
  /**
   * Loads a prebuilt index file (`npm run threadline -- index …`): fetched once,
   * verified (format, hash, model), then it replaces this index atomically; the
   * same file again is a no-op. A corrupt or mismatched file fails with
   * CORRUPT_INDEX or MODEL_MISMATCH and leaves the stored index unchanged.
   */
  load(url: string | URL, options?: { signal?: AbortSignal }): Promise<{ loaded: boolean; docs: number; chunks: number }>;
  /** Removes documents by id; returns the number of chunks removed. */
  remove(ids: readonly string[]): Promise<number>;
  /** Removes every document of this name. */
  clear(): Promise<void>;
  search(query: string, options?: SearchOptions): Promise<SearchHit[]>;
  stats(): Promise<IndexStats>;
  /** The stored documents (id, title, url, chunk count), sorted by id. */
  documents(): Promise<DocumentInfo[]>;
  /** Embeds texts with the index's model (packed rows, normalized). */
  embed(texts: readonly string[]): Promise<Float32Array>;
  /** Opens a chat session; an existing `sessionId` resumes its stored history. */
  chat(options?: ChatOptions): Promise<ChatSession>;
  /** Stored sessions of this name, most recently used first. */
  sessions(): Promise<SessionInfo[]>;
  /** Stops the worker. Stored data stays; later calls fail with DISPOSED. */
  dispose(): Promise<void>;
}

/** A structured-clone failure means the input held something that is not data. */
function asCloneError(error: unknown): unknown {
  if (typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'DataCloneError') {
    return new ThreadlineError('INVALID_INPUT', `The input cannot be sent to the worker: ${(error as Error).message}`, { cause: error });
  }
  return error;
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
  search: Object.freeze({ int8: false, weights: Object.freeze({ dense: 1, lexical: 1 }) }),
} as const);

/** Opens (or creates) the index `name` and resolves once it is loaded and searchable. */
export async function createThreadline(options: ThreadlineOptions = {}): Promise<Threadline> {
  const name = options.name ?? THREADLINE_DEFAULTS.name;
  if (typeof name !== 'string' || name.trim() === '' || name.length > 200) throw new ThreadlineError('INVALID_INPUT', 'name must be a non-empty string of at most 200 characters');
  const client = new RetrievalClient(options.worker ?? defaultRetrievalWorker, {
    name,
    embedder: pageRelative(options.embedder ?? {}),
    chunking: options.chunking ?? {},
    int8: options.search?.int8 ?? THREADLINE_DEFAULTS.search.int8,
    weights: { ...THREADLINE_DEFAULTS.search.weights, ...options.search?.weights },
    onModelMismatch: options.onModelMismatch ?? THREADLINE_DEFAULTS.onModelMismatch,
  }, options.onProgress);
  try {
    await client.start();
  } catch (error) {
    client.dispose();
    throw error;
  }
  const { llm, capability, dispose: disposeLlm } = await resolveLlm(options.llm, options.onProgress);
  let persistAsked = false;
  let sessionStore: Promise<SessionStore> | null = null;
  const sessions = () => (sessionStore ??= SessionStore.open(name).catch((error: unknown) => { sessionStore = null; throw error; }));
  const retriever = { search: (query: string, searchOptions: SearchOptions = {}) => client.call((remote) => remote.search(query, searchOptions)) };
  return {
    name,
    llm,
    gpu: capability,
    async add(docs, addOptions = {}) {
      const progress = addOptions.onProgress;
      // Validate here too: a value the browser cannot clone would otherwise fail as an untyped DataCloneError.
      validateDocuments(docs);
      const result = await client.callAbortable(addOptions.signal, (remote, opId) => remote.add(opId, docs, progress ? proxy(progress) : undefined))
        .catch((error: unknown) => { throw asCloneError(error); });
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
      return client.callAbortable(loadOptions.signal, (remote, opId) => remote.loadPrebuilt(opId, absolute));
    },
    remove: (ids) => client.call((remote) => remote.remove(ids)),
    clear: () => client.call((remote) => remote.clear()).then(() => undefined),
    search: (query, searchOptions) => retriever.search(query, searchOptions).catch((error: unknown) => { throw asCloneError(error); }),
    stats: () => client.call((remote) => remote.stats()),
    documents: () => client.call((remote) => remote.documents()),
    embed: (texts) => client.call((remote) => remote.embed(texts)),
    chat: async (chatOptions = {}) => ChatSession.open(await sessions(), retriever, llm, chatOptions),
    sessions: async () => (await sessions()).list(),
    dispose: async () => {
      client.dispose();
      disposeLlm?.();
      if (sessionStore) (await sessionStore.catch(() => null))?.close();
    },
  };
}
