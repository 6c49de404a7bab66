/**
 * Checks what IndexedDB handed back before anything is built from it. Records
 * can be damaged by browser bugs, by an interrupted profile copy, or by
 * anyone who can run script on the origin; a damaged record must never brick
 * the index name. A document with a damaged chunk (unreadable, or its vector
 * missing, misplaced, not finite, or listed twice) is quarantined whole (a document is
 * indexed whole or not at all), and the document ids are reported so the
 * engine can delete them and the user can add them again. A missing or unreadable manifest is rebuilt from the
 * records, so chunk keys and shard ids are never reused.
 */
import type { ChunkRecord, DocRecord, Manifest, PageRecord, ShardRecord, StoredChunk } from './schema';
import { SCHEMA_VERSION } from './schema';
import { isCount, isText } from '../util/guards';
import { resolveShard } from './manifest';
import { isUnitSum, sumOfSquares } from '../retrieval/vector-math';

export interface CheckedRecords {
  manifest: Manifest | undefined;
  docs: DocRecord[];
  /** The live chunks of the documents kept, in shard and slot order (so their vectors come in long runs). */
  chunks: ChunkRecord[];
  shards: Map<number, ShardRecord>;
  /**
   * By shard id, 1 for each slot whose vector the check measured as unit length: every used row's sum of
   * squares is computed here (to know it is finite), so the index need not read the rows again to know
   * they are normalized (VectorIndex.add).
   */
  unitSlots: Map<number, Uint8Array>;
  /** Documents dropped because one of their chunks is damaged (or its vector missing). */
  damaged: string[];
  /** Why, for the report. */
  problems: string[];
}

export function isManifest(value: unknown): value is Manifest {
  const m = value as Partial<Manifest> | null;
  return typeof m === 'object' && m !== null && isText(m.modelId) && isCount(m.dims) && isCount(m.nextChunkKey) && isCount(m.nextShardId)
    && isCount(m.chunkCount) && isCount(m.docCount) && isCount(m.generation) && typeof m.shardLive === 'object' && m.shardLive !== null
    && (m.shardAlias === undefined || isAliasMap(m.shardAlias));
}

function isAliasMap(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    && Object.entries(value).every(([from, to]) => isCount(Number(from)) && isCount(to));
}

function isDoc(value: unknown): value is DocRecord {
  const d = value as Partial<DocRecord> | null;
  return typeof d === 'object' && d !== null && isText(d.id) && isText(d.hash) && Array.isArray(d.chunkKeys) && d.chunkKeys.every(isCount)
    && Array.isArray(d.chunks) && Array.isArray(d.chunkShards) && d.chunkShards.length === d.chunkKeys.length && d.chunkShards.every(isCount)
    && (d.title === undefined || isText(d.title)) && (d.url === undefined || isText(d.url));
}

function isChunk(value: unknown): value is StoredChunk {
  const c = value as Partial<StoredChunk> | null;
  return typeof c === 'object' && c !== null && isText(c.docId) && isText(c.text) && isText(c.context)
    && Array.isArray(c.headingPath) && c.headingPath.every(isText) && isCount(c.start) && isCount(c.end) && (c.page === undefined || (isCount(c.page) && c.page > 0));
}

function isShard(value: unknown): value is ShardRecord {
  const s = value as Partial<ShardRecord> | null;
  return typeof s === 'object' && s !== null && isCount(s.id) && isCount(s.dims) && s.dims > 0
    && s.vectors instanceof Float32Array && s.keys instanceof Float64Array && s.vectors.length === s.keys.length * s.dims;
}

/**
 * The documents of the stored pages, as stored (each still to be checked),
 * and the ids of those whose page is unusable: not a page, or its index
 * (docIds) not what its documents are (a lookup through byDoc would miss
 * them), or a document stored twice. Those are quarantined whole.
 */
export function pageDocs(rawPages: unknown[]): { docs: unknown[]; damaged: Set<string>; problems: string[] } {
  const docs: unknown[] = [];
  const damaged = new Set<string>();
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const raw of rawPages) {
    const page = raw as Partial<PageRecord> | null;
    const own = typeof page === 'object' && page !== null && Array.isArray(page.docs) ? page.docs as unknown[] : null;
    if (!own) { problems.push('a document page is unreadable'); continue; }
    const ids = own.map((d) => (d as { id?: unknown } | null)?.id);
    const indexed = Array.isArray(page?.docIds) && page.docIds.length === ids.length && page.docIds.every((id, i) => id === ids[i]);
    if (!indexed) {
      problems.push('a document page does not list its documents');
      // Where a record of it is past naming, the ids the page lists name it (reported, so it can be added again).
      if (ids.some((id) => typeof id !== 'string') && Array.isArray(page?.docIds)) for (const id of page.docIds) if (typeof id === 'string') damaged.add(id);
    }
    for (const [i, d] of own.entries()) {
      docs.push(d);
      const id = ids[i];
      if (typeof id !== 'string') continue;
      if (seen.has(id)) problems.push(`document "${id}" is stored twice`);
      if (!indexed || seen.has(id)) damaged.add(id);
      seen.add(id);
    }
  }
  return { docs, damaged, problems };
}

/** The documents of the pages as checkDocs leaves them (checkRecords finishes them, and changes `damaged` and `problems`). */
export interface CheckedDocs {
  /** Readable document records, in page order, each with its chunks (null when one is unreadable). */
  docs: { doc: DocRecord; chunks: ChunkRecord[] | null }[];
  rawDocs: unknown[];
  damaged: Set<string>;
  problems: string[];
}

/**
 * The first half of the check, which needs only the pages: each document's record and its chunks read and
 * checked, the chunks made into records whose places are still to be found (shard and slot -1). Separate so a
 * hydrate runs it while IndexedDB still reads the shards (the vectors are most of the bytes, and this thread
 * only waits for them).
 */
export function checkDocs(rawPages: unknown[]): CheckedDocs {
  const { docs: rawDocs, damaged, problems } = pageDocs(rawPages);
  const docs: CheckedDocs['docs'] = [];
  for (const d of rawDocs) {
    if (!isDoc(d)) {
      // Reported by its id where that much is readable, so the caller knows what to add again.
      const id = (d as { id?: unknown } | null)?.id;
      problems.push(typeof id === 'string' ? `document "${id}" is unreadable` : 'a document record is unreadable');
      if (typeof id === 'string') damaged.add(id);
      continue;
    }
    const chunks = damaged.has(d.id) ? null : docChunks(d);
    if (typeof chunks === 'string') { damaged.add(d.id); problems.push(chunks); docs.push({ doc: d, chunks: null }); continue; }
    docs.push({ doc: d, chunks });
  }
  return { docs, rawDocs, damaged, problems };
}

/** The whole check: the documents (`checkDocs`, done here unless done already), then where each chunk's vector is. */
export function checkRecords(rawManifest: unknown, pages: unknown[] | CheckedDocs, rawShards: unknown[]): CheckedRecords {
  const { docs: read, rawDocs, damaged, problems } = Array.isArray(pages) ? checkDocs(pages) : pages;
  const shards = new Map<number, ShardRecord>();
  for (const s of rawShards) {
    if (isShard(s)) shards.set(s.id, s);
    else problems.push('a vector shard is truncated or unreadable');
  }
  let manifest = isManifest(rawManifest) ? rawManifest : undefined;
  const dims = manifest && manifest.dims > 0 ? manifest.dims : [...shards.values()][0]?.dims ?? 0;
  // Where each key's vector is (the first slot that holds it).
  const place = new Map<number, { shard: ShardRecord; slot: number }>();
  for (const shard of shards.values()) shard.keys.forEach((key, slot) => { if (!place.has(key)) place.set(key, { shard, slot }); });
  // The chunk placed at each slot, by shard id: a slot holds at most one chunk (its key's first slot), so a key that
  // a second document lists finds its slot taken; and read in shard order, the chunks come out in vector order.
  const placed = new Map<number, (ChunkRecord | undefined)[]>();
  const unitSlots = new Map<number, Uint8Array>();
  // Finite, and whether unit length: every row used is summed once here, and the index trusts the result (unitSlots).
  const rowIsUsable = (shard: ShardRecord, slot: number): boolean => {
    const sum = sumOfSquares(shard.vectors, slot * dims, dims);
    if (!Number.isFinite(sum)) return false;
    if (isUnitSum(sum)) {
      let unit = unitSlots.get(shard.id);
      if (!unit) unitSlots.set(shard.id, (unit = new Uint8Array(shard.keys.length)));
      unit[slot] = 1;
    }
    return true;
  };
  // Where a document's chunkShards say its vectors are: through the manifest's aliases for merged shards.
  // Without a readable manifest the aliases are lost, and the shards' own keys alone place each vector
  // (repair then writes every document's places out in full).
  const shardOf = manifest ? (written: number) => resolveShard(manifest, written) : null;
  let liveCount = 0;
  for (const { doc: d, chunks } of read) {
    if (!chunks || damaged.has(d.id)) continue;
    const unplaced = placeChunks(d, chunks, place, placed, dims, shardOf, rowIsUsable);
    if (unplaced !== null) { damaged.add(d.id); problems.push(unplaced); continue; }
    liveCount += chunks.length;
  }
  const docs = read.map((r) => r.doc);
  if (!manifest && (docs.length || shards.size)) {
    problems.push('the manifest is missing or unreadable; rebuilt from the records');
    manifest = rebuildManifest(rawManifest, rawDocs, shards, dims, liveCount);
  }
  const chunks: ChunkRecord[] = [];
  for (const id of [...placed.keys()].sort((a, b) => a - b)) {
    for (const c of placed.get(id) as (ChunkRecord | undefined)[]) if (c) chunks.push(c);
  }
  return { manifest, docs: docs.filter((d) => !damaged.has(d.id)), chunks, shards, unitSlots, damaged: [...damaged], problems };
}

/** A document's chunks as records, their places still to find (placeChunks), or what is wrong with them. */
function docChunks(d: DocRecord): ChunkRecord[] | string {
  if ((d.chunks as unknown[]).length !== d.chunkKeys.length) return `document "${d.id}" lost chunks`;
  const out: ChunkRecord[] = [];
  for (let i = 0; i < d.chunks.length; i++) {
    const c: unknown = d.chunks[i];
    if (!isChunk(c) || c.docId !== d.id) return `a chunk of "${d.id}" is unreadable`;
    // Named fields, not a spread: a spread of 100k records measured 150–200 ms against 10 (Node), and a
    // field the schema does not have (written by anyone with the origin's script) is not carried into memory.
    // Shard and slot are set when placed: written now, so the records keep one shape.
    const chunk: ChunkRecord = { key: d.chunkKeys[i] as number, docId: c.docId, text: c.text, context: c.context, headingPath: c.headingPath, start: c.start, end: c.end, shard: -1, slot: -1 };
    if (c.page !== undefined) chunk.page = c.page;
    out.push(chunk);
  }
  return out;
}

/**
 * Places each chunk at its vector (setting its shard and slot, and taking the slot in `placed`); null when every
 * one is usable, else what is wrong, with nothing of the document placed (it is indexed whole or not at all).
 */
function placeChunks(
  d: DocRecord, chunks: ChunkRecord[], place: Map<number, { shard: ShardRecord; slot: number }>, placed: Map<number, (ChunkRecord | undefined)[]>,
  dims: number, shardOf: ((written: number) => number) | null, rowIsUsable: (shard: ShardRecord, slot: number) => boolean,
): string | null {
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i] as ChunkRecord;
    const at = place.get(chunk.key);
    let slots = at ? placed.get(at.shard.id) : undefined;
    // The vector must be where the document says, the right size, and finite; and no other chunk may hold its slot
    // (a key listed twice, by this document or another).
    if (!at || (shardOf && at.shard.id !== shardOf(d.chunkShards[i] as number)) || at.shard.dims !== dims || slots?.[at.slot] !== undefined || !rowIsUsable(at.shard, at.slot)) {
      for (let j = 0; j < i; j++) { const c = chunks[j] as ChunkRecord; (placed.get(c.shard) as (ChunkRecord | undefined)[])[c.slot] = undefined; }
      return `chunk ${chunk.key} of "${d.id}" has no usable vector`;
    }
    // Sized up front: slots may be taken in any order, and a far one first must not make the array sparse.
    if (!slots) placed.set(at.shard.id, (slots = new Array<ChunkRecord | undefined>(at.shard.keys.length)));
    slots[at.slot] = chunk;
    chunk.shard = at.shard.id;
    chunk.slot = at.slot;
  }
  return null;
}

/** Counters past every key and shard id still stored, so nothing is ever reused; counts are fixed by the repair that follows. */
function rebuildManifest(raw: unknown, rawDocs: unknown[], shards: Map<number, ShardRecord>, dims: number, chunkCount: number): Manifest {
  const old = (typeof raw === 'object' && raw !== null ? raw : {}) as Partial<Manifest>;
  let maxKey = 0;
  for (const d of rawDocs) {
    const keys = (d as { chunkKeys?: unknown } | null)?.chunkKeys;
    if (Array.isArray(keys)) for (const key of keys) if (typeof key === 'number' && Number.isFinite(key)) maxKey = Math.max(maxKey, key);
  }
  for (const s of shards.values()) for (const k of s.keys) maxKey = Math.max(maxKey, k);
  const shardLive: Record<number, number> = {};
  const shardSlots: Record<number, number> = {};
  for (const s of shards.values()) { shardLive[s.id] = s.keys.length; shardSlots[s.id] = s.keys.length; }
  return {
    schemaVersion: SCHEMA_VERSION, modelId: isText(old.modelId) ? old.modelId : '', dims,
    nextChunkKey: maxKey + 1, nextShardId: Math.max(0, ...shards.keys()) + 1, shardLive, shardSlots, shardAlias: {},
    chunkCount, docCount: 0, generation: isCount(old.generation) ? old.generation + 1 : 1, updatedAt: Date.now(),
  };
}
