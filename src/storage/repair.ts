/**
 * Repair of damaged stored records (found by stored-index-check.ts): deletes
 * the damaged documents (their chunks with them), sweeps unreadable records,
 * and writes a manifest whose counts match what is left, keeping its counters
 * so no key is ever reused. A manifest that lost its model id takes
 * `modelId`, the configured model's. Runs inside the caller's write transaction.
 */
import { emptyManifest } from './manifest';
import type { Manifest } from './schema';
import { checkRecords } from './stored-index-check';
import type { WriteTx } from './write-tx';

export async function repairRecords(tx: WriteTx, damaged: readonly string[], modelId: string): Promise<void> {
  const raw = await tx.objectStore('meta').get('manifest');
  const [docs, shards] = await Promise.all([tx.objectStore('docs').getAll(), tx.objectStore('shards').getAll()]);
  const checked = checkRecords(raw, docs, shards);
  const goodDocs = new Set(checked.docs.map((d) => d.id));
  for (const id of [...damaged, ...checked.damaged]) goodDocs.delete(id);
  // Every document record not kept goes, the unreadable ones included (by their key).
  for (const d of docs as unknown[]) {
    const id = (d as { id?: unknown } | null)?.id;
    if (typeof id === 'string' && !goodDocs.has(id)) void tx.objectStore('docs').delete(id);
  }
  // An unreadable shard holds nothing usable; left in place it would be reported (and repaired) on every open.
  for (const s of shards as unknown[]) {
    const id = (s as { id?: unknown } | null)?.id;
    if (typeof id === 'number' && !checked.shards.has(id)) void tx.objectStore('shards').delete(id);
  }
  const base = checked.manifest ?? emptyManifest({ modelId, dims: 0 });
  const live = checked.chunks.filter((c) => goodDocs.has(c.docId));
  // Every kept document names the shard that holds each of its vectors now, so the repaired manifest needs no aliases
  // (a manifest rebuilt from the records has lost them).
  const placed = new Map(live.map((c) => [c.key, c.shard]));
  for (const doc of checked.docs) {
    if (!goodDocs.has(doc.id)) continue;
    const chunkShards = doc.chunkKeys.map((key, i) => placed.get(key) ?? (doc.chunkShards[i] as number));
    if (chunkShards.some((shard, i) => shard !== doc.chunkShards[i])) void tx.objectStore('docs').put({ ...doc, chunkShards });
  }
  const shardLive: Record<number, number> = {};
  for (const c of live) shardLive[c.shard] = (shardLive[c.shard] ?? 0) + 1;
  const manifest: Manifest = {
    ...base,
    ...(base.modelId === '' ? { modelId } : {}),
    shardLive, shardAlias: {}, shardSlots: Object.fromEntries(checked.shards.size ? [...checked.shards.values()].map((s) => [s.id, s.keys.length]) : []),
    chunkCount: live.length, docCount: goodDocs.size, generation: base.generation + 1, updatedAt: Date.now(),
  };
  if (manifest.chunkCount === 0) Object.assign(manifest, { modelId: '', dims: 0 });
  await tx.objectStore('meta').put(manifest, 'manifest');
}
