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
import { buildSegments, buildSegmentsSliced } from '../retrieval/lexical-segment';
import type { TimeSlice } from '../util/time-slice';
import { throwIfAborted } from '../errors';
import type { ProgressListener } from '../progress';

/**
 * Chunks embedded and committed together: the first group of an add() holds
 * about GROUP_CHUNKS; later groups are sized from how fast the earlier ones
 * went, to take about GROUP_TARGET_MS each (never fewer than GROUP_CHUNKS,
 * never more than MAX_GROUP_CHUNKS). A fast embedder (the offline model embeds
 * 80,000 chunks a second) then commits a few larger groups instead of many
 * small ones: each group is a shard that compaction must merge again, which
 * had cost more than embedding them. A slow one keeps groups of GROUP_CHUNKS.
 * The target is short because a group is one stretch of the worker's time:
 * a search, or an abort sent from the page, waits until it ends (at 250 ms an
 * add() of a few thousand chunks could no longer be aborted midway).
 */
export const GROUP_CHUNKS = 256;
export const GROUP_TARGET_MS = 50;
export const MAX_GROUP_CHUNKS = 8192;

/** The next group's size in chunks, given how long the last group of `chunks` took. */
export function nextGroupSize(chunks: number, ms: number): number {
  if (chunks <= 0) return GROUP_CHUNKS;
  const fitting = ms > 0 ? Math.floor((GROUP_TARGET_MS * chunks) / ms) : MAX_GROUP_CHUNKS;
  return Math.min(MAX_GROUP_CHUNKS, Math.max(GROUP_CHUNKS, fitting));
}


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

/** Groups whole documents into batches of about `size()` chunks (asked again for each batch). */
export function* batches<T extends { chunks: unknown[] }>(items: readonly T[], size: () => number = () => GROUP_CHUNKS): Generator<T[]> {
  let group: T[] = [];
  let chunks = 0;
  let limit = size();
  for (const item of items) {
    group.push(item);
    chunks += item.chunks.length;
    if (chunks >= limit) {
      yield group;
      group = [];
      chunks = 0;
      limit = size();
    }
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
 * Embeds and commits `prepared` group by group (whole documents per group, sized by nextGroupSize),
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
  let groupSize = GROUP_CHUNKS;
  for (const group of batches(prepared, () => groupSize)) {
    throwIfAborted(options.signal);
    const groupStarted = performance.now();
    const texts = group.flatMap((p) => p.chunks.map((c) => c.context));
    const vectors = await embedder.embed(texts, options.signal ? { signal: options.signal } : {});
    steps.embedded(texts.length);
    throwIfAborted(options.signal);
    await steps.commit(withVectors(group, vectors, embedder.dims));
    steps.committed(group.length, texts.length);
    groupSize = nextGroupSize(texts.length, performance.now() - groupStarted);
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

/** The same, the event loop turning between stretches of `slice` (an add() of a large document). */
export function lexicalForSliced(pending: readonly Pick<PendingDoc, 'chunks'>[], dims: number, slice: TimeSlice): Promise<LexicalSegment[]> {
  return buildSegmentsSliced(pending.flatMap((p) => p.chunks.map((c) => c.context)), shardRows(dims), slice);
}
