/**
 * The two halves of a document write, inside the caller's transaction:
 * deleting documents with their chunks, and putting documents, chunk records
 * and new shards (the manifest last).
 */
import { buildSegment } from '../retrieval/lexical-segment';
import type { ModelIdentity } from './manifest';
import { SHARD_MAX_BYTES, type ChunkRecord, type Manifest } from './schema';
import type { CommitResult, PendingDoc, StoredSegments, VectorRun } from './index-store';
import type { WriteTx } from './write-tx';

/** Writes documents, chunk records and new shards into `tx`, and the manifest last. */
export async function putDocs(tx: WriteTx, manifest: Manifest, pending: readonly PendingDoc[], identity: ModelIdentity): Promise<Omit<CommitResult, 'removedKeys'>> {
  const total = pending.reduce((n, d) => n + d.chunks.length, 0);
  const packed = new Float32Array(total * identity.dims);
  const keys = new Float64Array(total);
  const contexts: string[] = [];
  const chunks: ChunkRecord[] = [];
  const vectors: VectorRun[] = [];
  const segments: StoredSegments = new Map();
  let row = 0;
  const perShard = Math.max(1, Math.floor(SHARD_MAX_BYTES / (4 * identity.dims)));
  const firstShard = manifest.nextShardId;
  for (const doc of pending) {
    const records: ChunkRecord[] = doc.chunks.map((c) => {
      const key = manifest.nextChunkKey++;
      keys[row] = key;
      const record = { ...c, key, shard: firstShard + Math.floor(row / perShard), slot: row % perShard };
      contexts.push(c.context);
      row++;
      return record;
    });
    packed.set(doc.vectors, (row - records.length) * identity.dims);
    for (const r of records) void tx.objectStore('chunks').put(r);
    void tx.objectStore('docs').put({ ...doc.record, chunkKeys: records.map((r) => r.key) });
    vectors.push({ from: chunks.length, count: records.length, rows: doc.vectors });
    chunks.push(...records);
    manifest.docCount++;
    manifest.chunkCount += records.length;
  }
  for (let s = 0; s * perShard < total; s++) {
    const from = s * perShard;
    const to = Math.min(total, from + perShard);
    const id = manifest.nextShardId++;
    const shard = { keys: keys.slice(from, to), lexical: buildSegment(contexts.slice(from, to)) };
    void tx.objectStore('shards').put({ id, dims: identity.dims, vectors: packed.slice(from * identity.dims, to * identity.dims), ...shard });
    segments.set(id, shard);
    manifest.shardLive[id] = to - from;
    manifest.shardSlots[id] = to - from;
  }
  manifest.generation++;
  manifest.updatedAt = Date.now();
  await tx.objectStore('meta').put(manifest, 'manifest');
  return { chunks, vectors, segments, generation: manifest.generation };
}

/**
 * Deletes documents and their chunks. Requests are issued together, not
 * awaited one by one: IndexedDB pipelines them within the transaction.
 */
export async function deleteDocs(tx: WriteTx, ids: readonly string[], manifest: Manifest): Promise<number[]> {
  const docs = (await Promise.all([...new Set(ids)].map((id) => tx.objectStore('docs').get(id)))).filter((d) => d !== undefined);
  const keys = docs.flatMap((d) => d.chunkKeys);
  const chunks = await Promise.all(keys.map((key) => tx.objectStore('chunks').get(key)));
  for (const chunk of chunks) if (chunk) manifest.shardLive[chunk.shard] = Math.max(0, (manifest.shardLive[chunk.shard] ?? 1) - 1);
  for (const key of keys) void tx.objectStore('chunks').delete(key);
  for (const doc of docs) void tx.objectStore('docs').delete(doc.id);
  manifest.docCount = Math.max(0, manifest.docCount - docs.length);
  manifest.chunkCount = Math.max(0, manifest.chunkCount - keys.length);
  return keys;
}
