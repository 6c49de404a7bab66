/**
 * The IndexedDB schema of one threadline name (`threadline:<name>`), typed for
 * idb, with one migration per version. Vectors live in shards (Float32Array,
 * 1–16 MB once compacted), never one record per vector and never JSON arrays.
 */
import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import type { IndexedChunk, LexicalSegment, MetadataValue } from '../index-data';

export const SCHEMA_VERSION = 1;

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
  chunkCount: number;
  docCount: number;
  /** SHA-256 of the prebuilt index file this index was loaded from, if any. */
  sourceHash?: string;
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
  chunkKeys: number[];
  chars: number;
  addedAt: number;
}

/** A chunk as indexed in memory, plus where its vector is stored. */
export interface ChunkRecord extends IndexedChunk {
  shard: number;
  slot: number;
}

export interface ShardRecord {
  id: number;
  dims: number;
  /** Vectors by slot; slots of removed chunks stay until compaction. */
  vectors: Float32Array;
  /** Chunk key by slot (for consistency checks and compaction). */
  keys: Float64Array;
  /** BM25 postings of the slots' chunks (absent in shards written before they existed: those chunks are re-tokenized on load). */
  lexical?: LexicalSegment;
}

export interface ThreadlineDB extends DBSchema {
  meta: { key: 'manifest'; value: Manifest };
  docs: { key: string; value: DocRecord };
  chunks: { key: number; value: ChunkRecord; indexes: { byDoc: string } };
  shards: { key: number; value: ShardRecord };
}

export type UpgradeTx = IDBPTransaction<ThreadlineDB, StoreNames<ThreadlineDB>[], 'versionchange'>;

/** migrations[v - 1] upgrades a database from version v - 1 to v. Append only. */
export const MIGRATIONS: ReadonlyArray<(db: IDBPDatabase<ThreadlineDB>, tx: UpgradeTx) => void> = [
  (db) => {
    db.createObjectStore('meta');
    db.createObjectStore('docs', { keyPath: 'id' });
    db.createObjectStore('chunks', { keyPath: 'key' }).createIndex('byDoc', 'docId');
    db.createObjectStore('shards', { keyPath: 'id' });
  },
];

export function databaseName(name: string): string {
  return `threadline:${name}`;
}
