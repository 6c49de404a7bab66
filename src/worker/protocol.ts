/**
 * The wire between the page and the retrieval worker, written once for every
 * method: a call is (method, data arguments, options without functions or
 * signals, operation id, progress proxy); the answer is an envelope, because
 * comlink keeps only message/name/stack of a thrown error and the envelope
 * keeps ThreadlineError's code and details.
 */
import type { EmbedderOptions } from '../embedding/load-embedder';
import { ThreadlineError, toThreadlineError, type ThreadlineErrorCode } from '../errors';
import type { Progress } from '../progress';
import type { ChunkOptions } from '../retrieval/chunker';
import type { HybridWeights } from '../retrieval/memory-index';
import type { IndexStats } from '../retriever';

export interface WireError {
  code: ThreadlineErrorCode;
  message: string;
  details: Record<string, unknown>;
}

export type WireResult<T> = { ok: true; value: T } | { ok: false; error: WireError };

export interface WorkerInit {
  name: string;
  embedder: EmbedderOptions;
  chunking: ChunkOptions;
  int8: boolean;
  weights: HybridWeights;
  onModelMismatch: 'error' | 'rebuild';
  /** Web Lock the worker holds while alive; its release tells the client the worker died. */
  aliveLock: string;
}

/**
 * The page's progress listener as the worker calls it: through comlink each
 * call posts a message and returns a promise that settles once the page has
 * run the listener (util/progress-relay.ts waits for those before a result).
 */
export type RemoteListener = (progress: Progress) => unknown;

/** What the worker exposes over comlink. */
export interface RetrievalPort {
  /** Opens the engine (hydrating the stored index) and takes the alive lock. */
  init(config: WorkerInit, onProgress?: RemoteListener): Promise<WireResult<IndexStats>>;
  /** Calls one method of the engine; `args` are its data arguments, then its options minus signal and listener. */
  invoke(method: string, args: unknown[], opId: number, onProgress?: RemoteListener): Promise<WireResult<unknown>>;
  /** Receives part of a large `add()` ahead of the call with this operation id (staged-documents.ts). */
  stage(opId: number, parts: unknown): Promise<void>;
  /** Aborts the call with this operation id (and drops what was staged for it). */
  abort(opId: number): void;
  close(): Promise<void>;
}

export function toWire(error: unknown): WireError {
  const e = toThreadlineError(error, 'INTERNAL');
  let details: Record<string, unknown> = {};
  try {
    details = structuredClone(e.details);
  } catch {
    details = { note: 'details were not cloneable' };
  }
  return { code: e.code, message: e.message, details };
}

export function fromWire(error: WireError): ThreadlineError {
  return new ThreadlineError(error.code, error.message, { details: error.details });
}

/** Runs `work`, packing its value or its error into the envelope. */
export async function envelope<T>(work: () => Promise<T>): Promise<WireResult<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    return { ok: false, error: toWire(error) };
  }
}
