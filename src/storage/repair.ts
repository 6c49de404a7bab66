/**
 * Repair of damaged stored records (found by stored-index-check.ts): deletes
 * the damaged documents (their chunks with them; their pages rewritten), sweeps unreadable records,
 * and writes a manifest whose counts match what is left, keeping its counters
 * so no key is ever reused. A manifest that lost its model id takes
 * `modelId`, the configured model's. Runs inside the caller's write transaction.
 */
import { emptyManifest } from './manifest';
import { pageOf, type Manifest, type PageRecord } from './schema';
import { checkRecords } from './stored-index-check';
import { issue, type WriteTx } from './write-tx';

export async function repairRecords(tx: WriteTx, damaged: readonly string[], modelId: string): Promise<void> {
  const raw = await tx.objectStore('meta').get('manifest');
  const [pages, pageKeys, shards] = await Promise.all([tx.objectStore('pages').getAll(), tx.objectStore('pages').getAllKeys(), tx.objectStore('shards').getAll()]);
  const checked = checkRecords(raw, pages, shards);
  const goodDocs = new Set(checked.docs.map((d) => d.id));
  for (const id of [...damaged, ...checked.damaged]) goodDocs.delete(id);
  // An unreadable shard holds nothing usable; left in place it would be reported (and repaired) on every open.
  for (const s of shards as unknown[]) {
    const id = (s as { id?: unknown } | null)?.id;
    if (typeof id === 'number' && !checked.shards.has(id)) issue(tx.objectStore('shards').delete(id));
  }
  const base = checked.manifest ?? emptyManifest({ modelId, dims: 0 });
  const live = checked.chunks.filter((c) => goodDocs.has(c.docId));
  // Every kept document names the shard that holds each of its vectors now, so the repaired manifest needs no aliases
  // (a manifest rebuilt from the records has lost them). Each page keeps only its good documents, rewritten
  // where that changes anything; an unreadable page, or one left empty, goes (by its key).
  const placed = new Map(live.map((c) => [c.key, c.shard]));
  const kept = new Map(checked.docs.filter((d) => goodDocs.has(d.id)).map((doc) => {
    const chunkShards = doc.chunkKeys.map((key, i) => placed.get(key) ?? (doc.chunkShards[i] as number));
    return [doc.id, chunkShards.some((shard, i) => shard !== doc.chunkShards[i]) ? { ...doc, chunkShards } : doc];
  }));
  pages.forEach((page: unknown, i) => {
    const key = pageKeys[i] as number;
    const own = Array.isArray((page as { docs?: unknown } | null)?.docs) ? (page as { docs: unknown[] }).docs : [];
    const next = own.flatMap((d) => { const doc = kept.get((d as { id?: unknown } | null)?.id as string); return doc ? [doc] : []; });
    // Unchanged only when every record is kept as it was and the page's index fields are what they should be.
    const same = next.length === own.length && next.every((d, j) => d === own[j]) && sameFields(page as PageRecord, pageOf(next, key));
    if (same) return;
    if (next.length === 0) issue(tx.objectStore('pages').delete(key));
    else issue(tx.objectStore('pages').put(pageOf(next, key)));
  });
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

function sameFields(page: PageRecord, expected: PageRecord): boolean {
  const same = (a: unknown, b: readonly unknown[]) => Array.isArray(a) && a.length === b.length && a.every((x, i) => x === b[i]);
  return same(page.docIds, expected.docIds) && same(page.shards, expected.shards);
}
