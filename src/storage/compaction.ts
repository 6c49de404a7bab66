/**
 * Compaction: merges shards that are small or mostly dead into full ones, so
 * the store stays at a few large records without ever rewriting all of it.
 * Decided from the manifest alone; runs inside the caller's write transaction.
 * The merged shards' BM25 postings come from the caller's `merge` (the
 * retrieval side's mergeSegments): storage moves records, it does not index.
 *
 * No document page is rewritten: each merged shard is mapped to its new one
 * in the manifest (`shardAlias`), which is how a document's chunkShards are
 * read from then on (until the aliases pass MAX_ALIASES, see below).
 * Documents (their pages) are read only to tell live slots from dead ones in a shard that
 * has dead slots, or for the texts of postings that must be built again
 * (stored before segments existed, or by other tokenizer rules).
 */
import type { LexicalSegment, SegmentPart } from '../index-data';
import { resolveShard } from './manifest';
import { SHARD_MIN_BYTES, shardRows, type DocRecord, type Manifest, type ShardRecord } from './schema';
import { issue, type WriteTx } from './write-tx';
import { docsNamingShards, rewritePages } from './doc-pages';

/**
 * The retrieval side's postings, for compaction: `merge` merges the kept slots
 * of several stored segments into one, given each part's shard slot count
 * (mergeSegments); `usable` says whether a stored segment can be merged as
 * it is (isCurrentSegment), or its chunks' texts must be tokenized again.
 */
export interface MergeLexical {
  merge(parts: readonly SegmentPart[], slotCounts: readonly number[]): LexicalSegment;
  usable(segment: LexicalSegment | undefined, slots: number): boolean;
}

/** Compaction runs once this many shards are small or mostly dead. */
const COMPACT_TRIGGER = 8;

/**
 * Past this many aliases (the manifest is read and written by every commit),
 * a compaction also writes the current shard into the documents that name
 * merged ones, and the aliases go: a rewrite of each document at most once
 * per this many merged shards, instead of on every merge.
 */
export const MAX_ALIASES = 1024;

/** A victim's live slots, and their texts where its postings must be rebuilt. */
interface Kept { shard: ShardRecord; slots: number[]; texts: string[] }

/** Returns the number of shards rewritten. */
export async function compactShards(tx: WriteTx, lexical: MergeLexical, maxAliases = MAX_ALIASES): Promise<number> {
  const manifest = await tx.objectStore('meta').get('manifest');
  if (!manifest) return 0;
  // Decide from the manifest alone: reading every shard on each commit would make ingest quadratic.
  manifest.shardSlots ??= {};
  manifest.shardAlias ??= {};
  const victimIds = Object.keys(manifest.shardLive).map(Number)
    .filter((id) => isCompactable(manifest.shardSlots[id] ?? 0, manifest.shardLive[id] ?? 0, manifest.dims));
  if (victimIds.length < COMPACT_TRIGGER) {
    if (Object.keys(manifest.shardAlias).length <= maxAliases) return 0;
    await settleAliases(tx, manifest);
    await tx.objectStore('meta').put(manifest, 'manifest');
    return 0;
  }
  const victims = (await Promise.all(victimIds.map((id) => tx.objectStore('shards').get(id)))).filter((v): v is ShardRecord => v !== undefined);
  // Where any victim's postings must be rebuilt from texts, every victim brings its texts (merge then tokenizes them all).
  const texts = !victims.every((shard) => lexical.usable(shard.lexical, shard.keys.length));
  const kept = await Promise.all(victims.map((shard) => keptSlots(tx, manifest, shard, texts)));
  for (const shard of victims) {
    issue(tx.objectStore('shards').delete(shard.id));
    delete manifest.shardLive[shard.id];
    delete manifest.shardSlots[shard.id];
  }
  // Each victim moves whole into one new shard, so one alias covers all of its chunks.
  const perShard = shardRows(manifest.dims);
  let group: Kept[] = [];
  let rows = 0;
  const groups: Kept[][] = [];
  for (const k of kept) {
    if (k.slots.length === 0) { retire(manifest, k.shard.id, undefined); continue; }
    if (rows + k.slots.length > perShard && group.length) { groups.push(group); group = []; rows = 0; }
    group.push(k);
    rows += k.slots.length;
  }
  if (group.length) groups.push(group);
  for (const parts of groups) {
    const id = manifest.nextShardId++;
    const count = parts.reduce((n, p) => n + p.slots.length, 0);
    const vectors = new Float32Array(count * manifest.dims);
    const keys = new Float64Array(count);
    let row = 0;
    for (const { shard, slots } of parts) {
      for (const slot of slots) {
        vectors.set(shard.vectors.subarray(slot * shard.dims, (slot + 1) * shard.dims), row * manifest.dims);
        keys[row++] = shard.keys[slot] as number;
      }
      retire(manifest, shard.id, id);
    }
    const postings = lexical.merge(parts.map((p) => ({ segment: p.shard.lexical, slots: p.slots, texts: p.texts })), parts.map((p) => p.shard.keys.length));
    issue(tx.objectStore('shards').put({ id, dims: manifest.dims, vectors, keys, lexical: postings }));
    manifest.shardLive[id] = count;
    manifest.shardSlots[id] = count;
  }
  if (Object.keys(manifest.shardAlias).length > maxAliases) await settleAliases(tx, manifest);
  await tx.objectStore('meta').put(manifest, 'manifest');
  return victims.length;
}

/** Writes each aliased shard's current shard into the documents that name it, and forgets the aliases. */
async function settleAliases(tx: WriteTx, manifest: Manifest): Promise<void> {
  const aliases = manifest.shardAlias ?? {};
  const { pages } = await docsNamingShards(tx, Object.keys(aliases).map(Number));
  rewritePages(tx, pages.values(), (doc) => (doc.chunkShards.some((id) => aliases[id] !== undefined) ? { ...doc, chunkShards: doc.chunkShards.map((id) => resolveShard(manifest, id)) } : doc));
  manifest.shardAlias = {};
}

/**
 * The live slots of a victim: every slot while none was removed and no texts
 * are needed (no read at all); otherwise the slots whose key a document still
 * lists in this shard, with their texts, found through the byShard index
 * under the shard's own id and every id merged into it.
 */
async function keptSlots(tx: WriteTx, manifest: Manifest, shard: ShardRecord, needTexts: boolean): Promise<Kept> {
  const allLive = manifest.shardLive[shard.id] === shard.keys.length && manifest.shardSlots[shard.id] === shard.keys.length;
  if (allLive && !needTexts) return { shard, slots: Array.from(shard.keys, (_, slot) => slot), texts: [] };
  const names = [shard.id, ...Object.entries(manifest.shardAlias ?? {}).filter(([, to]) => to === shard.id).map(([from]) => Number(from))];
  const { docs } = await docsNamingShards(tx, names);
  // A slot is live while a document lists its key in this shard.
  const owners = new Map<number, { doc: DocRecord; index: number }>();
  for (const doc of docs) {
    doc.chunkKeys.forEach((key, index) => { if (resolveShard(manifest, doc.chunkShards[index] as number) === shard.id) owners.set(key, { doc, index }); });
  }
  const slots: number[] = [];
  const texts: string[] = [];
  shard.keys.forEach((key, slot) => {
    const owner = owners.get(key);
    if (!owner) return;
    slots.push(slot);
    texts.push(owner.doc.chunks[owner.index]?.context ?? '');
  });
  return { shard, slots, texts };
}

/**
 * Shard `from` is gone: its chunks (and those of every shard merged into it
 * before) are now in `to`; with no `to` it held none, and no document names it.
 */
function retire(manifest: Manifest, from: number, to: number | undefined): void {
  const aliases = (manifest.shardAlias ??= {});
  for (const [id, target] of Object.entries(aliases)) {
    if (target !== from) continue;
    if (to === undefined) delete aliases[Number(id)];
    else aliases[Number(id)] = to;
  }
  if (to === undefined) delete aliases[from];
  else aliases[from] = to;
}

function isCompactable(slots: number, live: number, dims: number): boolean {
  return slots * dims * 4 < SHARD_MIN_BYTES || live < slots / 2;
}
