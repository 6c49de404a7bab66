/**
 * The IndexedDB schema of one threadline name (`threadline:<name>`), typed for
 * idb, with one migration per version. A commit writes its documents (with
 * their chunks' texts) in a few page records, and one shard per segment of
 * chunks (their vectors as a Float32Array and their BM25 postings, 1–16 MB
 * once compacted): never a record per chunk, nor one per document.
 */
import { issue } from './write-tx';
import type { DBSchema, IDBPDatabase, IDBPTransaction } from 'idb';
import type { IndexedChunk, LexicalSegment, MetadataValue } from '../index-data';

export const SCHEMA_VERSION = 4;

/** Shards are cut at this size, and merged while smaller than MIN. */
export const SHARD_MAX_BYTES = 16 * 1024 * 1024;
export const SHARD_MIN_BYTES = 1024 * 1024;

/** Chunks per full shard of `dims`-dimensional float32 vectors: how a commit's segments are cut. */
export function shardRows(dims: number): number {
  return Math.max(1, Math.floor(SHARD_MAX_BYTES / (4 * dims)));
}

export interface Manifest {
  schemaVersion: number;
  /** Embedding model identity; vectors of another model are never mixed in. */
  modelId: string;
  dims: number;
  nextChunkKey: number;
  nextShardId: number;
  /** Live (not removed) vectors per shard id; drives compaction. */
  shardLive: Record<number, number>;
  /** Slots (live or dead) per shard id, so compaction decides without reading any shard. */
  shardSlots: Record<number, number>;
  /**
   * Shards merged away by compaction: retired id → the live shard that now
   * holds its chunks (never a chain). Documents keep naming the shard their
   * chunks were first written to, so compaction rewrites no document record
   * (version 3; absent before it, and after a repair, which names every shard directly).
   */
  shardAlias?: Record<number, number>;
  chunkCount: number;
  docCount: number;
  /** SHA-256 of the prebuilt index file this index was loaded from, if any. */
  sourceHash?: string;
  /**
   * Where that file was loaded from: its URL without query or fragment (`sourceKey`), so that a name
   * can refuse another file's index (`load(url, { onOtherSource: 'error' })`). Absent for a file
   * loaded from bytes, and in indexes loaded before it was recorded; a string when present.
   */
  source?: string;
  /** Bumped by every commit; other tabs compare it to know they are stale. */
  generation: number;
  updatedAt: number;
}

export interface DocRecord {
  id: string;
  /** Content hash of text, format, title, url, metadata and chunking options. */
  hash: string;
  title?: string;
  url?: string;
  metadata?: Record<string, MetadataValue>;
  /** Its chunks' keys, in document order. A chunk is live exactly while its document lists it. */
  chunkKeys: number[];
  /** Its chunks (parallel to chunkKeys): removing the document removes their texts at once. */
  chunks: StoredChunk[];
  /**
   * The shard each chunk's vector was written to (parallel to chunkKeys), or
   * since merged into (manifest.shardAlias): a removal updates the shards'
   * live counts without reading them.
   */
  chunkShards: number[];
  chars: number;
  addedAt: number;
}

/** A chunk as stored: its key is the document's chunkKeys entry, its vector found through the shards' keys. */
export type StoredChunk = Omit<IndexedChunk, 'key'>;

/** A chunk as read back, with where its vector is stored (not a stored record). */
export interface ChunkRecord extends IndexedChunk {
  shard: number;
  slot: number;
}

export interface ShardRecord {
  id: number;
  dims: number;
  /** Vectors by slot; slots of removed chunks stay until compaction. */
  vectors: Float32Array;
  /** Chunk key by slot: where a chunk's vector is, and which slots are dead (no document lists their key). */
  keys: Float64Array;
  /** BM25 postings of the slots' chunks (absent in shards written before they existed: those chunks are re-tokenized on load). */
  lexical?: LexicalSegment;
}

/**
 * Documents, many to a record (version 4). IndexedDB costs about 40 µs per
 * record written, whatever its size: a record per document made storing
 * 1,740 one-sentence documents 85 ms against 22 ms to embed them; in pages of
 * up to PAGE_CHUNKS chunks the same documents take 9 ms. A document is in
 * exactly one page (byDoc is unique); removing or replacing it rewrites its page.
 */
export interface PageRecord {
  /** Assigned by the store (autoIncrement): never reused. */
  id?: number;
  /** Its documents' ids, parallel to docs: the byDoc index. */
  docIds: string[];
  docs: DocRecord[];
  /** Every shard its documents' chunkShards name: the byShard index, through which compaction finds them. */
  shards: number[];
}

/** A commit's documents are cut into pages of about this many chunks (a larger document is a page of its own). */
export const PAGE_CHUNKS = 256;

export interface ThreadlineDB extends DBSchema {
  meta: { key: 'manifest'; value: Manifest };
  pages: { key: number; value: PageRecord; indexes: { byDoc: string; byShard: number } };
  shards: { key: number; value: ShardRecord };
}

/** The stores every index write and read covers. */
export const STORES = ['meta', 'pages', 'shards'] as const;

/** Migrations run on the database as it was, so they are written against no schema type. */
export type UpgradeTx = IDBPTransaction<unknown, string[], 'versionchange'>;

/**
 * migrations[v - 1] upgrades a database from version v - 1 to v, inside the
 * upgrade transaction (they may await its requests, and nothing else). Append only.
 */
export const MIGRATIONS: ReadonlyArray<(db: IDBPDatabase<unknown>, tx: UpgradeTx) => void | Promise<void>> = [
  (db) => {
    db.createObjectStore('meta');
    db.createObjectStore('docs', { keyPath: 'id' });
    db.createObjectStore('chunks', { keyPath: 'key' }).createIndex('byDoc', 'docId');
    db.createObjectStore('shards', { keyPath: 'id' });
  },
  migrateToDocChunks,
  markAliasedShards,
  migrateToPages,
];

/**
 * Version 4: documents move into pages (PageRecord), PAGE_CHUNKS chunks a
 * page, in key order; the docs store goes. Records are moved as they are,
 * damaged ones included, so the check on load reports them by id exactly as
 * before; a record without a string id could never be named, and is dropped.
 */
async function migrateToPages(db: IDBPDatabase<unknown>, tx: UpgradeTx): Promise<void> {
  const pages = db.createObjectStore('pages', { keyPath: 'id', autoIncrement: true });
  pages.createIndex('byDoc', 'docIds', { multiEntry: true, unique: true });
  pages.createIndex('byShard', 'shards', { multiEntry: true });
  const [docs, manifest] = await Promise.all([tx.objectStore('docs').getAll(), tx.objectStore('meta').get('manifest')]) as [unknown[], unknown];
  const named = docs.filter((d): d is DocRecord => typeof (d as { id?: unknown } | null)?.id === 'string');
  for (const page of paginate(named)) issue(tx.objectStore('pages').put(page));
  if (typeof manifest === 'object' && manifest !== null) issue(tx.objectStore('meta').put({ ...manifest, schemaVersion: 4 }, 'manifest'));
  db.deleteObjectStore('docs');
}

/** Documents cut into pages of about PAGE_CHUNKS chunks (an empty document counts as one), whole documents each, in order. */
export function paginate(docs: readonly DocRecord[]): Omit<PageRecord, 'id'>[] {
  const out: Omit<PageRecord, 'id'>[] = [];
  let group: DocRecord[] = [];
  let chunks = 0;
  for (const doc of docs) {
    const size = Array.isArray(doc.chunkKeys) ? doc.chunkKeys.length : 0;
    // Documents without chunks (empty ones) count as one each, so no page grows past PAGE_CHUNKS documents either.
    if (group.length && (chunks + Math.max(1, size) > PAGE_CHUNKS)) { out.push(pageOf(group)); group = []; chunks = 0; }
    group.push(doc);
    chunks += Math.max(1, size);
  }
  if (group.length) out.push(pageOf(group));
  return out;
}

/** A page's index fields from its documents (read defensively: migrated records may be damaged). */
export function pageOf(docs: DocRecord[], id?: number): PageRecord {
  const shards = new Set<number>();
  for (const doc of docs) if (Array.isArray(doc.chunkShards)) for (const s of doc.chunkShards) if (Number.isInteger(s)) shards.add(s);
  return { ...(id === undefined ? {} : { id }), docIds: docs.map((d) => d.id), docs, shards: [...shards] };
}

/**
 * Version 3: compaction no longer rewrites the documents whose chunks it
 * moves; the manifest maps merged shards to their new one (shardAlias), and
 * a document's chunkShards may name a merged shard. No record changes: the
 * version keeps code that would read such names literally (and quarantine
 * those documents as damaged) from opening the database.
 */
async function markAliasedShards(_db: IDBPDatabase<unknown>, tx: UpgradeTx): Promise<void> {
  const manifest = await tx.objectStore('meta').get('manifest') as unknown;
  if (typeof manifest === 'object' && manifest !== null) await tx.objectStore('meta').put({ ...manifest, schemaVersion: 3 }, 'manifest');
}

/**
 * Version 2: a record per chunk (version 1) made every commit thousands of
 * writes. Each document's chunks move into its own record with the shards of
 * their vectors, and the chunks store goes. A chunk record
 * that is missing or out of place becomes a null entry, so the check on load
 * reports its document as damaged (by id) exactly as version 1 did.
 */
async function migrateToDocChunks(db: IDBPDatabase<unknown>, tx: UpgradeTx): Promise<void> {
  // Compaction finds the documents whose chunks sit in a shard through this index.
  tx.objectStore('docs').createIndex('byShard', 'chunkShards', { multiEntry: true });
  const [chunks, docs, manifest] = await Promise.all([tx.objectStore('chunks').getAll(), tx.objectStore('docs').getAll(), tx.objectStore('meta').get('manifest')]) as [unknown[], unknown[], unknown];
  const byKey = new Map<unknown, Record<string, unknown>>();
  for (const c of chunks) if (typeof c === 'object' && c !== null) byKey.set((c as { key?: unknown }).key, c as Record<string, unknown>);
  for (const doc of docs) {
    const d = doc as { id?: unknown; chunkKeys?: unknown } | null;
    if (typeof d !== 'object' || d === null || typeof d.id !== 'string' || !Array.isArray(d.chunkKeys)) continue;
    const own = d.chunkKeys.map((key) => { const c = byKey.get(key); return c && c.docId === d.id ? c : undefined; });
    issue(tx.objectStore('docs').put({ ...d, chunks: own.map((c) => (c ? withoutPlace(c) : null)), chunkShards: own.map((c) => (typeof c?.shard === 'number' ? c.shard : 0)) }));
  }
  if (typeof manifest === 'object' && manifest !== null) issue(tx.objectStore('meta').put({ ...manifest, schemaVersion: 2 }, 'manifest'));
  db.deleteObjectStore('chunks');
}

function withoutPlace(c: Record<string, unknown>): Record<string, unknown> {
  const rest = { ...c };
  delete rest.key;
  delete rest.shard;
  delete rest.slot;
  return rest;
}

export function databaseName(name: string): string {
  return `threadline:${name}`;
}
