/**
 * The two halves of a document write, inside the caller's transaction:
 * deleting documents (their chunks with them; their pages rewritten), and
 * putting documents (in new pages) and new shards (the manifest last). Storage computes nothing here: the
 * caller brings the vectors and the BM25 segments, one per shard to write.
 */
import { ThreadlineError } from '../errors';
import type { LexicalSegment } from '../index-data';
import { resolveShard, type ModelIdentity } from './manifest';
import type { ChunkRecord, DocRecord, Manifest } from './schema';
import { pagesHolding, putNewDocs, readDocs, rewritePages } from './doc-pages';
import type { CommitResult, PendingDoc, StoredSegments, VectorRun } from './index-store';
import { issue, type WriteTx } from './write-tx';

/**
 * Writes the documents in pages (their chunks inside), one shard per segment,
 * and the manifest last: never a record per chunk or per document. None of
 * the documents may be stored any more (deleteDocs first).
 */
export async function putDocs(tx: WriteTx, manifest: Manifest, pending: readonly PendingDoc[], identity: ModelIdentity, lexical: readonly LexicalSegment[]): Promise<Omit<CommitResult, 'removedKeys'>> {
  const total = pending.reduce((n, d) => n + d.chunks.length, 0);
  // One segment per shard, in chunk order: their slot counts cut the shards.
  const rows = lexical.map((segment) => segment.lengths.length);
  if (rows.reduce((n, r) => n + r, 0) !== total || rows.some((r) => r === 0)) throw new ThreadlineError('INTERNAL', `The segments cover ${rows.reduce((n, r) => n + r, 0)} chunks, the documents ${total}.`);
  const packed = new Float32Array(total * identity.dims);
  const keys = new Float64Array(total);
  const chunks: ChunkRecord[] = [];
  const vectors: VectorRun[] = [];
  const segments: StoredSegments = new Map();
  // Row r lives in shard shardOf[r] at slot slotOf[r].
  const shardOf = new Uint32Array(total);
  const slotOf = new Uint32Array(total);
  for (let s = 0, r = 0; s < rows.length; s++) for (let slot = 0; slot < (rows[s] as number); slot++, r++) { shardOf[r] = manifest.nextShardId + s; slotOf[r] = slot; }
  let row = 0;
  const records: DocRecord[] = [];
  for (const doc of pending) {
    const first = row;
    const placed: ChunkRecord[] = doc.chunks.map((c) => {
      const key = manifest.nextChunkKey++;
      keys[row] = key;
      const record = { ...c, key, shard: shardOf[row] as number, slot: slotOf[row] as number };
      row++;
      return record;
    });
    packed.set(doc.vectors, first * identity.dims);
    records.push({ ...doc.record, chunkKeys: placed.map((r) => r.key), chunks: doc.chunks, chunkShards: placed.map((r) => r.shard) });
    vectors.push({ from: chunks.length, count: placed.length, rows: doc.vectors });
    chunks.push(...placed);
    manifest.docCount++;
    manifest.chunkCount += placed.length;
  }
  putNewDocs(tx, records);
  for (let s = 0, from = 0; s < lexical.length; s++) {
    const to = from + (rows[s] as number);
    const id = manifest.nextShardId++;
    const shard = { keys: keys.slice(from, to), lexical: lexical[s] as LexicalSegment };
    issue(tx.objectStore('shards').put({ id, dims: identity.dims, vectors: packed.slice(from * identity.dims, to * identity.dims), ...shard }));
    segments.set(id, shard);
    manifest.shardLive[id] = to - from;
    manifest.shardSlots[id] = to - from;
    from = to;
  }
  manifest.generation++;
  manifest.updatedAt = Date.now();
  await tx.objectStore('meta').put(manifest, 'manifest');
  return { chunks, vectors, segments, generation: manifest.generation };
}

/**
 * Deletes documents, their chunks' texts with them; their vectors' slots turn
 * dead (no document lists their keys) and are dropped by compaction, which
 * the manifest's live counts decide without reading any shard.
 */
export async function deleteDocs(tx: WriteTx, ids: readonly string[], manifest: Manifest): Promise<number[]> {
  const wanted = new Set(ids);
  const pages = await pagesHolding(tx, ids);
  const docs = await readDocs(tx, ids, pages);
  for (const doc of docs) {
    for (const written of Array.isArray(doc.chunkShards) ? doc.chunkShards : []) {
      const shard = resolveShard(manifest, written);
      // A shard the manifest does not list gets no entry: a phantom count would be compacted forever.
      const live = manifest.shardLive[shard];
      if (live !== undefined) manifest.shardLive[shard] = Math.max(0, live - 1);
    }
  }
  rewritePages(tx, pages.values(), (doc) => (wanted.has(doc.id) ? null : doc));
  const keys = docs.flatMap((d) => (Array.isArray(d.chunkKeys) ? d.chunkKeys : []));
  manifest.docCount = Math.max(0, manifest.docCount - docs.length);
  manifest.chunkCount = Math.max(0, manifest.chunkCount - keys.length);
  return keys;
}
