/**
 * Ingest planning: an add()'s plan (which documents changed, see
 * ingest/changed-documents.ts), and the batches they are embedded and committed in. A document is never split
 * across commits, so a crash leaves it whole or absent.
 */
import type { Embedder } from '../embedding/embedder';
import type { BinaryReader } from '../ingest/binary-reader';
import { changedDocuments, type PreparedDoc } from '../ingest/changed-documents';
import { partitionDocuments, validateDocuments, type AddFailure } from '../ingest/validate';
import type { AddOptions, AddResult } from '../retriever';
import type { ChunkOptions } from '../retrieval/chunker';
import { shardRows, type PendingDoc } from '../storage/index-store';
import type { LexicalSegment } from '../index-data';
import { buildSegments } from '../retrieval/lexical-segment';
import { throwIfAborted } from '../errors';
import type { ProgressListener } from '../progress';

/** Chunks embedded and committed together. */
export const GROUP_CHUNKS = 256;


/**
 * An add()'s plan, before anything is embedded or written: its documents
 * checked (with `skipInvalid`, unusable ones reported instead of refusing
 * the call), the changed ones parsed and chunked, and the result so far
 * (unchanged, empty, failed: positions are in the caller's array).
 */
export async function planAdd(
  input: unknown, options: AddOptions & { readBinary: BinaryReader },
  context: { embedder: () => Promise<Embedder>; storedHashes: (ids: string[]) => Promise<Map<string, string>>; chunking: ChunkOptions; modelId: string },
): Promise<{ prepared: PreparedDoc[]; result: AddResult; embedder: Embedder }> {
  const { docs, failed, indexes } = options.skipInvalid ? partitionDocuments(input) : { docs: validateDocuments(input), failed: [], indexes: [] };
  throwIfAborted(options.signal);
  const embedder = await context.embedder();
  const { prepared, unreadable } = await changedDocuments(docs, context.storedHashes, embedder, context.chunking, context.modelId, options);
  const unread: AddFailure[] = unreadable.map(({ index, error }) => ({
    index: indexes[index] ?? index, id: docs[index]?.id as string, code: 'UNREADABLE_DOCUMENT', message: error.message,
    reason: typeof error.details?.reason === 'string' ? error.details.reason : 'malformed',
  }));
  const result: AddResult = {
    added: 0, unchanged: docs.length - prepared.length - unread.length, chunks: 0,
    empty: prepared.filter((p) => p.chunks.length === 0).map((p) => p.record.id), failed: [...failed, ...unread].sort((a, b) => a.index - b.index),
  };
  return { prepared, result, embedder };
}

/** Groups whole documents into batches of about GROUP_CHUNKS chunks. */
export function* batches<T extends { chunks: unknown[] }>(items: readonly T[]): Generator<T[]> {
  let group: T[] = [];
  let size = 0;
  for (const item of items) {
    group.push(item);
    size += item.chunks.length;
    if (size >= GROUP_CHUNKS) { yield group; group = []; size = 0; }
  }
  if (group.length) yield group;
}

/** Hands each document of a batch its rows of the batch's packed vectors. */
export function withVectors(group: readonly PreparedDoc[], vectors: Float32Array, dims: number): PendingDoc[] {
  let offset = 0;
  return group.map((p) => {
    const slice = vectors.subarray(offset * dims, (offset + p.chunks.length) * dims);
    offset += p.chunks.length;
    return { ...p, vectors: slice };
  });
}

/**
 * Embeds and commits `prepared` group by group (whole documents per group),
 * reporting each step (`embedded`, `committed`) and an `ingest` progress
 * event after each commit; stops between steps when the signal fires.
 * Groups already committed stay committed.
 */
export async function embedAndCommit(
  prepared: readonly PreparedDoc[], embedder: Pick<Embedder, 'embed' | 'dims'>, options: { signal?: AbortSignal | undefined; onProgress?: ProgressListener | undefined },
  steps: { commit(pending: PendingDoc[]): Promise<void>; embedded(chunks: number): void; committed(docs: number, chunks: number): void },
): Promise<void> {
  const progress = { docsDone: 0, docsTotal: prepared.length, chunksDone: 0, chunksTotal: prepared.reduce((n, p) => n + p.chunks.length, 0) };
  const started = performance.now();
  for (const group of batches(prepared)) {
    throwIfAborted(options.signal);
    const texts = group.flatMap((p) => p.chunks.map((c) => c.context));
    const vectors = await embedder.embed(texts, options.signal ? { signal: options.signal } : {});
    steps.embedded(texts.length);
    throwIfAborted(options.signal);
    await steps.commit(withVectors(group, vectors, embedder.dims));
    steps.committed(group.length, texts.length);
    progress.docsDone += group.length;
    progress.chunksDone += texts.length;
    const seconds = (performance.now() - started) / 1000;
    options.onProgress?.({ phase: 'ingest', ...progress, chunksPerSecond: seconds > 0 ? progress.chunksDone / seconds : 0 });
  }
}

/**
 * The BM25 segments of a commit's chunks, one per shard storage will write
 * (`shardRows` chunks each): tokenized here, before the write transaction.
 */
export function lexicalFor(pending: readonly Pick<PendingDoc, 'chunks'>[], dims: number): LexicalSegment[] {
  return buildSegments(pending.flatMap((p) => p.chunks.map((c) => c.context)), shardRows(dims));
}
