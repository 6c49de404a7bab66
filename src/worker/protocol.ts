/**
 * Types shared by the retrieval worker and its main-thread client. Results
 * travel in an envelope because comlink keeps only message/name/stack of a
 * thrown error; the envelope keeps ThreadlineError's code and details.
 */
import type { EmbedderOptions } from '../embedding/transformers-embedder';
import { ThreadlineError, toThreadlineError, type ThreadlineErrorCode } from '../errors';
import type { ProgressListener } from '../progress';
import type { ChunkOptions } from '../retrieval/chunker';
import type { DocumentInfo, HybridWeights, SearchHit } from '../retrieval/memory-index';
import type { AddResult, IndexStats, SearchOptions } from './retrieval-engine';

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

export interface RetrievalWorkerApi {
  init(config: WorkerInit, onProgress?: ProgressListener): Promise<WireResult<IndexStats>>;
  add(opId: number, docs: unknown, onProgress?: ProgressListener): Promise<WireResult<AddResult>>;
  abort(opId: number): void;
  /** Fetches a prebuilt index file and replaces the index with it (verified first). */
  loadPrebuilt(opId: number, url: string): Promise<WireResult<{ loaded: boolean; docs: number; chunks: number }>>;
  remove(ids: unknown): Promise<WireResult<number>>;
  clear(): Promise<WireResult<null>>;
  search(query: unknown, options: SearchOptions): Promise<WireResult<SearchHit[]>>;
  stats(): Promise<WireResult<IndexStats>>;
  documents(): Promise<WireResult<DocumentInfo[]>>;
  /** Sorted chunk keys held in memory (consistency checks). */
  chunkKeys(): Promise<WireResult<number[]>>;
  /** Embeds texts with the index's model; the buffer is transferred. */
  embed(texts: unknown): Promise<WireResult<Float32Array>>;
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
