/**
 * Checks what IndexedDB handed back before anything is built from it. Records
 * can be damaged by browser bugs, by an interrupted profile copy, or by
 * anyone who can run script on the origin; a damaged record must never brick
 * the index name. A document with a damaged chunk (unreadable, or its vector
 * missing, misplaced or not finite) is quarantined whole (a document is
 * indexed whole or not at all), and the document ids are reported so the
 * engine can delete them and the user can add them again. A missing or unreadable manifest is rebuilt from the
 * records, so chunk keys and shard ids are never reused.
 */
import type { ChunkRecord, DocRecord, Manifest, PageRecord, ShardRecord, StoredChunk } from './schema';
import { SCHEMA_VERSION } from './schema';
import { isCount, isText } from '../util/guards';
import { resolveShard } from './manifest';
import { sumOfSquares } from '../retrieval/vector-math';

export interface CheckedRecords {
  manifest: Manifest | undefined;
  docs: DocRecord[];
  /** The live chunks of the documents kept, in shard and slot order (so their vectors come in long runs). */
  chunks: ChunkRecord[];
  shards: Map<number, ShardRecord>;
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

export function checkRecords(rawManifest: unknown, rawPages: unknown[], rawShards: unknown[]): CheckedRecords {
  const { docs: rawDocs, damaged, problems } = pageDocs(rawPages);
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
  const docs: DocRecord[] = [];
  const live = new Map<number, ChunkRecord>();
  // Where a document's chunkShards say its vectors are: through the manifest's aliases for merged shards.
  // Without a readable manifest the aliases are lost, and the shards' own keys alone place each vector
  // (repair then writes every document's places out in full).
  const shardOf = manifest ? (written: number) => resolveShard(manifest, written) : null;
  for (const d of rawDocs) {
    if (!isDoc(d)) {
      // Reported by its id where that much is readable, so the caller knows what to add again.
      const id = (d as { id?: unknown } | null)?.id;
      problems.push(typeof id === 'string' ? `document "${id}" is unreadable` : 'a document record is unreadable');
      if (typeof id === 'string') damaged.add(id);
      continue;
    }
    docs.push(d);
    if (damaged.has(d.id)) continue;
    const own = docChunks(d, place, dims, live, shardOf);
    if (typeof own === 'string') { damaged.add(d.id); problems.push(own); continue; }
    for (const c of own) live.set(c.key, c);
  }
  if (!manifest && (docs.length || shards.size)) {
    problems.push('the manifest is missing or unreadable; rebuilt from the records');
    manifest = rebuildManifest(rawManifest, rawDocs, shards, dims, live.size);
  }
  const chunks: ChunkRecord[] = [];
  for (const shard of [...shards.values()].sort((a, b) => a.id - b.id)) {
    const keys = shard.keys;
    for (let slot = 0; slot < keys.length; slot++) {
      const c = live.get(keys[slot] as number);
      if (c && c.shard === shard.id && c.slot === slot && !damaged.has(c.docId)) chunks.push(c);
    }
  }
  return { manifest, docs: docs.filter((d) => !damaged.has(d.id)), chunks, shards, damaged: [...damaged], problems };
}

/** A document's chunks with their keys and places, or what is wrong with them. */
function docChunks(d: DocRecord, place: Map<number, { shard: ShardRecord; slot: number }>, dims: number, taken: Map<number, ChunkRecord>, shardOf: ((written: number) => number) | null): ChunkRecord[] | string {
  if ((d.chunks as unknown[]).length !== d.chunkKeys.length) return `document "${d.id}" lost chunks`;
  const out: ChunkRecord[] = [];
  for (let i = 0; i < d.chunks.length; i++) {
    const c: unknown = d.chunks[i];
    const key = d.chunkKeys[i] as number;
    if (!isChunk(c) || c.docId !== d.id) return `a chunk of "${d.id}" is unreadable`;
    const at = place.get(key);
    // The vector must be where the document says, the right size, and finite; and no other document may list the key.
    if (!at || (shardOf && at.shard.id !== shardOf(d.chunkShards[i] as number)) || at.shard.dims !== dims || !finiteRow(at.shard.vectors, at.slot, dims) || taken.has(key)) {
      return `chunk ${key} of "${d.id}" has no usable vector`;
    }
    // Named fields, not a spread: a spread of 100k records measured 150–200 ms against 10 (Node), and a
    // field the schema does not have (written by anyone with the origin's script) is not carried into memory.
    const chunk: ChunkRecord = { key, docId: c.docId, text: c.text, context: c.context, headingPath: c.headingPath, start: c.start, end: c.end, shard: at.shard.id, slot: at.slot };
    if (c.page !== undefined) chunk.page = c.page;
    out.push(chunk);
  }
  return out;
}

function finiteRow(vectors: Float32Array, slot: number, dims: number): boolean {
  return Number.isFinite(sumOfSquares(vectors, slot * dims, dims));
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
