/**
 * Compaction: merges shards that are small or mostly dead into full ones, so
 * the store stays at a few large records without ever rewriting all of it.
 * Decided from the manifest alone; runs inside the caller's write transaction.
 * The merged shards' BM25 postings come from the caller's `merge` (the
 * retrieval side's mergeSegments): storage moves records, it does not index.
 */
import type { LexicalSegment, SegmentPart } from '../index-data';
import { SHARD_MIN_BYTES, shardRows, type DocRecord, type ShardRecord } from './schema';
import type { WriteTx } from './write-tx';

/** Merges the kept slots of several stored segments into one, given each part's shard slot count (mergeSegments). */
export type MergeLexical = (parts: readonly SegmentPart[], slotCounts: readonly number[]) => LexicalSegment;

/** Compaction runs once this many shards are small or mostly dead. */
const COMPACT_TRIGGER = 8;

/** Returns the number of shards rewritten. */
export async function compactShards(tx: WriteTx, merge: MergeLexical): Promise<number> {
  const manifest = await tx.objectStore('meta').get('manifest');
  if (!manifest) return 0;
  // Decide from the manifest alone: reading every shard on each commit would make ingest quadratic.
  manifest.shardSlots ??= {};
  const victimIds = Object.keys(manifest.shardLive).map(Number)
    .filter((id) => isCompactable(manifest.shardSlots[id] ?? 0, manifest.shardLive[id] ?? 0, manifest.dims));
  if (victimIds.length < COMPACT_TRIGGER) return 0;
  const victims = (await Promise.all(victimIds.map((id) => tx.objectStore('shards').get(id)))).filter((v): v is ShardRecord => v !== undefined);
  // The documents with chunks in the victims, found through the byShard index (they are rewritten with their chunks' new shards).
  const byShard = tx.objectStore('docs').index('byShard');
  const docs = new Map((await Promise.all(victims.map((v) => byShard.getAll(v.id)))).flat().map((d) => [d.id, d]));
  // A slot is live while a document lists its key in that shard.
  const owners = new Map<number, { doc: DocRecord; index: number }>();
  for (const doc of docs.values()) doc.chunkKeys.forEach((key, index) => owners.set(key, { doc, index }));
  const live: { key: number; owner: { doc: DocRecord; index: number }; vector: Float32Array; shard: ShardRecord; slot: number }[] = [];
  for (const shard of victims) {
    shard.keys.forEach((key, slot) => {
      const owner = owners.get(key);
      if (owner && owner.doc.chunkShards[owner.index] === shard.id) live.push({ key, owner, vector: shard.vectors.subarray(slot * shard.dims, (slot + 1) * shard.dims), shard, slot });
    });
    void tx.objectStore('shards').delete(shard.id);
    delete manifest.shardLive[shard.id];
    delete manifest.shardSlots[shard.id];
  }
  const perShard = shardRows(manifest.dims);
  for (let from = 0; from < live.length; from += perShard) {
    const part = live.slice(from, from + perShard);
    const id = manifest.nextShardId++;
    const vectors = new Float32Array(part.length * manifest.dims);
    part.forEach(({ owner, vector }, slot) => {
      vectors.set(vector, slot * manifest.dims);
      owner.doc.chunkShards[owner.index] = id;
    });
    // The kept slots grouped by the shard they come from, in order.
    const parts: (SegmentPart & { slots: number[]; texts: string[] })[] = [];
    const slotCounts: number[] = [];
    let previous: ShardRecord | null = null;
    for (const p of part) {
      if (p.shard !== previous) {
        parts.push({ segment: p.shard.lexical, slots: [], texts: [] });
        slotCounts.push(p.shard.keys.length);
        previous = p.shard;
      }
      const group = parts[parts.length - 1] as (typeof parts)[number];
      group.slots.push(p.slot);
      group.texts.push(p.owner.doc.chunks[p.owner.index]?.context ?? '');
    }
    void tx.objectStore('shards').put({ id, dims: manifest.dims, vectors, keys: Float64Array.from(part, (p) => p.key), lexical: merge(parts, slotCounts) });
    manifest.shardLive[id] = part.length;
    manifest.shardSlots[id] = part.length;
  }
  // The moved chunks' documents now name their new shards.
  for (const doc of docs.values()) void tx.objectStore('docs').put(doc);
  await tx.objectStore('meta').put(manifest, 'manifest');
  return victims.length;
}

function isCompactable(slots: number, live: number, dims: number): boolean {
  return slots * dims * 4 < SHARD_MIN_BYTES || live < slots / 2;
}
