/**
 * Checks what IndexedDB handed back before anything is built from it. Records
 * can be damaged by browser bugs, by an interrupted profile copy, or by
 * anyone who can run script on the origin; a damaged record must never brick
 * the index name. Damaged chunks are quarantined with every other chunk of
 * their document (a document is indexed whole or not at all), and the
 * document ids are reported so the engine can delete them and the user can
 * add them again. A missing or unreadable manifest is rebuilt from the
 * records, so chunk keys and shard ids are never reused.
 */
import type { ChunkRecord, DocRecord, Manifest, ShardRecord } from './schema';
import { SCHEMA_VERSION } from './schema';

export interface CheckedRecords {
  manifest: Manifest | undefined;
  docs: DocRecord[];
  chunks: ChunkRecord[];
  shards: Map<number, ShardRecord>;
  /** Documents dropped because one of their records is damaged (or missing). */
  damaged: string[];
  /** Why, for the report. */
  problems: string[];
}

const isText = (v: unknown): v is string => typeof v === 'string';
const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

export function isManifest(value: unknown): value is Manifest {
  const m = value as Partial<Manifest> | null;
  return typeof m === 'object' && m !== null && isText(m.modelId) && isCount(m.dims) && isCount(m.nextChunkKey) && isCount(m.nextShardId)
    && isCount(m.chunkCount) && isCount(m.docCount) && isCount(m.generation) && typeof m.shardLive === 'object' && m.shardLive !== null;
}

function isDoc(value: unknown): value is DocRecord {
  const d = value as Partial<DocRecord> | null;
  return typeof d === 'object' && d !== null && isText(d.id) && isText(d.hash) && Array.isArray(d.chunkKeys) && d.chunkKeys.every(isCount)
    && (d.title === undefined || isText(d.title)) && (d.url === undefined || isText(d.url));
}

function isChunk(value: unknown): value is ChunkRecord {
  const c = value as Partial<ChunkRecord> | null;
  return typeof c === 'object' && c !== null && isCount(c.key) && isText(c.docId) && isText(c.text) && isText(c.context)
    && Array.isArray(c.headingPath) && c.headingPath.every(isText) && isCount(c.start) && isCount(c.end) && isCount(c.shard) && isCount(c.slot);
}

function isShard(value: unknown): value is ShardRecord {
  const s = value as Partial<ShardRecord> | null;
  return typeof s === 'object' && s !== null && isCount(s.id) && isCount(s.dims) && s.dims > 0
    && s.vectors instanceof Float32Array && s.keys instanceof Float64Array && s.vectors.length === s.keys.length * s.dims;
}

export function checkRecords(rawManifest: unknown, rawDocs: unknown[], rawChunks: unknown[], rawShards: unknown[]): CheckedRecords {
  const problems: string[] = [];
  const shards = new Map<number, ShardRecord>();
  for (const s of rawShards) {
    if (isShard(s)) shards.set(s.id, s);
    else problems.push('a vector shard is truncated or unreadable');
  }
  let manifest = isManifest(rawManifest) ? rawManifest : undefined;
  const dims = manifest && manifest.dims > 0 ? manifest.dims : [...shards.values()][0]?.dims ?? 0;
  const damaged = new Set<string>();
  const chunks: ChunkRecord[] = [];
  for (const c of rawChunks) {
    if (!isChunk(c)) {
      const docId = (c as { docId?: unknown } | null)?.docId;
      if (isText(docId)) damaged.add(docId);
      problems.push('a chunk record is unreadable');
      continue;
    }
    const shard = shards.get(c.shard);
    // The vector must be where the chunk says, the right size, and finite.
    if (!shard || shard.dims !== dims || shard.keys[c.slot] !== c.key || !finiteRow(shard.vectors, c.slot, dims)) {
      damaged.add(c.docId);
      problems.push(`chunk ${c.key} of "${c.docId}" has no usable vector`);
      continue;
    }
    chunks.push(c);
  }
  const docs: DocRecord[] = [];
  const present = new Set(chunks.map((c) => c.key));
  for (const d of rawDocs) {
    if (!isDoc(d)) { problems.push('a document record is unreadable'); continue; }
    // A document is whole or absent: every chunk it lists must be there.
    if (d.chunkKeys.some((k) => !present.has(k))) { damaged.add(d.id); problems.push(`document "${d.id}" lost chunks`); }
    docs.push(d);
  }
  const docIds = new Set(docs.map((d) => d.id));
  for (const c of chunks) if (!docIds.has(c.docId)) damaged.add(c.docId);
  const keep = (id: string) => !damaged.has(id);
  if (!manifest && (docs.length || chunks.length || shards.size)) {
    problems.push('the manifest is missing or unreadable; rebuilt from the records');
    manifest = rebuildManifest(rawManifest, rawChunks, shards, dims);
  }
  return { manifest, docs: docs.filter((d) => keep(d.id)), chunks: chunks.filter((c) => keep(c.docId)), shards, damaged: [...damaged], problems };
}

function finiteRow(vectors: Float32Array, slot: number, dims: number): boolean {
  for (let i = slot * dims; i < (slot + 1) * dims; i++) if (!Number.isFinite(vectors[i])) return false;
  return true;
}

/** Counters past every key and shard id still stored, so nothing is ever reused; counts are fixed by the repair that follows. */
function rebuildManifest(raw: unknown, rawChunks: unknown[], shards: Map<number, ShardRecord>, dims: number): Manifest {
  const old = (typeof raw === 'object' && raw !== null ? raw : {}) as Partial<Manifest>;
  let maxKey = 0;
  for (const c of rawChunks) {
    const key = (c as { key?: unknown } | null)?.key;
    if (typeof key === 'number' && Number.isFinite(key)) maxKey = Math.max(maxKey, key);
  }
  for (const s of shards.values()) for (const k of s.keys) maxKey = Math.max(maxKey, k);
  const shardLive: Record<number, number> = {};
  const shardSlots: Record<number, number> = {};
  for (const s of shards.values()) { shardLive[s.id] = s.keys.length; shardSlots[s.id] = s.keys.length; }
  return {
    schemaVersion: SCHEMA_VERSION, modelId: isText(old.modelId) ? old.modelId : '', dims,
    nextChunkKey: maxKey + 1, nextShardId: Math.max(0, ...shards.keys()) + 1, shardLive, shardSlots,
    chunkCount: rawChunks.length, docCount: 0, generation: isCount(old.generation) ? old.generation + 1 : 1, updatedAt: Date.now(),
  };
}
