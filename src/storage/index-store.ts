/**
 * Persistence of one index in IndexedDB. Every change is one `strict`
 * readwrite transaction over manifest, docs, chunks and shards, so a crash or
 * an abort leaves either the whole change or none of it. Callers compute
 * embeddings before calling `commit`: nothing slow happens inside a
 * transaction (which IndexedDB would auto-commit early).
 */
import { openDB, type IDBPDatabase, type IDBPTransaction } from 'idb';
import { ThreadlineError } from '../errors';
import { buildSegment, isCurrentSegment, type LexicalSegment } from '../retrieval/lexical-segment';
import { storageError } from './storage-errors';
import { checkRecords } from './stored-index-check';
import { MIGRATIONS, SCHEMA_VERSION, databaseName, type ChunkRecord, type DocRecord, type Manifest, type ShardRecord, type ThreadlineDB } from './schema';

/** Shards are cut at this size, and merged while smaller than MIN. */
export const SHARD_MAX_BYTES = 16 * 1024 * 1024;
export const SHARD_MIN_BYTES = 1024 * 1024;
/** Compaction runs once this many shards are small or mostly dead. */
const COMPACT_TRIGGER = 8;

export interface ModelIdentity { modelId: string; dims: number }

export interface PendingDoc {
  record: Omit<DocRecord, 'chunkKeys'>;
  chunks: Omit<ChunkRecord, 'key' | 'shard' | 'slot'>[];
  /** Packed `chunks.length × dims`. */
  vectors: Float32Array;
}

export interface VectorRun { from: number; count: number; rows: Float32Array }

/** Usable BM25 segments by shard id (the shard's chunk keys by slot, and its postings). */
export type StoredSegments = Map<number, { keys: Float64Array; lexical: LexicalSegment }>;

export interface CommitResult {
  /** The chunk records written, in order, and their vectors as runs over them. */
  chunks: ChunkRecord[];
  vectors: VectorRun[];
  /** The segments of the shards written (every slot live). */
  segments: StoredSegments;
  removedKeys: number[];
  generation: number;
}

export interface StoredIndex {
  manifest: Manifest | undefined;
  docs: DocRecord[];
  chunks: ChunkRecord[];
  /**
   * The vectors, in `chunks` order, as runs read straight from the shards:
   * run r holds the rows of chunks [r.from, r.from + r.count).
   */
  vectors: VectorRun[];
  /** Usable BM25 segments by shard id; chunks of other shards must be tokenized. */
  segments: StoredSegments;
  /** Documents left out because a record of theirs is damaged (see stored-index-check.ts); `repair` deletes them. */
  damaged: string[];
  /** What was wrong, when anything was; non-empty means `repair` should run. */
  problems: string[];
}

const TX = { durability: 'strict' } as const;

export class IndexStore {
  /** The open connection; null once it was closed under us (another tab's upgrade or deletion, site data cleared). */
  private db: IDBPDatabase<ThreadlineDB> | null;
  private opening: Promise<IDBPDatabase<ThreadlineDB>> | null = null;
  private closed = false;

  private constructor(db: IDBPDatabase<ThreadlineDB>, private readonly name: string, private readonly onLost: (() => void) | undefined) {
    this.db = db;
  }

  /**
   * Opens the index `name`. `onLost` is told when the connection is closed
   * under us (another tab upgraded or deleted the database, or the user
   * cleared the site's data): what memory holds may be gone from disk, and
   * the next call reopens the database.
   */
  static async open(name: string, onLost?: () => void): Promise<IndexStore> {
    let store: IndexStore | null = null;
    const db = await IndexStore.connect(name, () => store?.lost());
    store = new IndexStore(db, name, onLost);
    return store;
  }

  private static async connect(name: string, lost: () => void): Promise<IDBPDatabase<ThreadlineDB>> {
    try {
      const db = await openDB<ThreadlineDB>(databaseName(name), SCHEMA_VERSION, {
        upgrade(database, oldVersion, _newVersion, tx) {
          for (let v = oldVersion; v < SCHEMA_VERSION; v++) MIGRATIONS[v]?.(database, tx);
        },
        // Another tab wants to upgrade or delete: close at once so it never hangs waiting on us.
        blocking() { db.close(); lost(); },
        // The browser closed the connection (site data cleared, storage failure).
        terminated() { lost(); },
      });
      return db;
    } catch (error) {
      throw storageError(error, `Could not open the index "${name}"`);
    }
  }

  close(): void {
    this.closed = true;
    this.db?.close();
    this.db = null;
  }

  private lost(): void {
    this.db = null;
    if (!this.closed) this.onLost?.();
  }

  /** The connection, reopened if it was lost. */
  private async connection(): Promise<IDBPDatabase<ThreadlineDB>> {
    if (this.db) return this.db;
    if (this.closed) throw new ThreadlineError('DISPOSED', 'This index store was closed.');
    this.opening ??= IndexStore.connect(this.name, () => this.lost()).then((db) => {
      this.opening = null;
      if (this.closed) { db.close(); throw new ThreadlineError('DISPOSED', 'This index store was closed.'); }
      this.db = db;
      return db;
    }, (error: unknown) => { this.opening = null; throw error; });
    return this.opening;
  }

  async manifest(): Promise<Manifest | undefined> {
    return this.run(async () => (await this.connection()).get('meta', 'manifest'), 'Could not read the manifest');
  }

  async docHashes(ids: readonly string[]): Promise<Map<string, string>> {
    return this.run(async () => {
      const tx = (await this.connection()).transaction('docs', 'readonly');
      const records = await Promise.all(ids.map((id) => tx.store.get(id)));
      return new Map(records.flatMap((r) => (r ? [[r.id, r.hash] as const] : [])));
    }, 'Could not read documents');
  }

  /** Reads everything needed to rebuild the in-memory index, in one snapshot; damaged records are left out and reported. */
  async load(): Promise<StoredIndex> {
    return this.run(async () => {
      const tx = (await this.connection()).transaction(['meta', 'docs', 'chunks', 'shards'], 'readonly');
      const [rawManifest, rawDocs, rawChunks, rawShards] = await Promise.all([
        tx.objectStore('meta').get('manifest'), tx.objectStore('docs').getAll(),
        tx.objectStore('chunks').getAll(), tx.objectStore('shards').getAll(),
      ]);
      const { manifest, docs, chunks, shards, damaged, problems } = checkRecords(rawManifest, rawDocs, rawChunks, rawShards);
      const dims = manifest?.dims ?? 0;
      // Chunks come in key order and keys fill shards slot after slot, so runs are long; no copy is made here.
      const vectors: VectorRun[] = [];
      for (let i = 0; i < chunks.length;) {
        const first = chunks[i] as ChunkRecord;
        const shard = shards.get(first.shard) as ShardRecord;
        let end = i + 1;
        while (end < chunks.length && (chunks[end] as ChunkRecord).shard === first.shard && (chunks[end] as ChunkRecord).slot === first.slot + (end - i)) end++;
        vectors.push({ from: i, count: end - i, rows: shard.vectors.subarray(first.slot * dims, (first.slot + end - i) * dims) });
        i = end;
      }
      const segments: StoredSegments = new Map();
      for (const shard of shards.values()) if (isCurrentSegment(shard.lexical, shard.keys.length)) segments.set(shard.id, { keys: shard.keys, lexical: shard.lexical });
      return { manifest, docs, chunks, vectors, segments, damaged, problems };
    }, 'Could not load the index');
  }

  /**
   * Repairs what `load` found damaged, in one transaction: deletes the damaged
   * documents and every chunk of theirs, and writes a manifest whose counts
   * match the records (keeping its counters, so no key is ever reused). A
   * manifest that lost its model id takes `modelId`, the configured model's.
   */
  async repair(damaged: readonly string[], modelId: string): Promise<void> {
    await this.write('Could not repair the index', async (tx) => {
      const raw = await tx.objectStore('meta').get('manifest');
      const [docs, chunks, shards] = await Promise.all([tx.objectStore('docs').getAll(), tx.objectStore('chunks').getAll(), tx.objectStore('shards').getAll()]);
      const checked = checkRecords(raw, docs, chunks, shards);
      const drop = new Set([...damaged, ...checked.damaged]);
      const byDoc = tx.objectStore('chunks').index('byDoc');
      for (const id of drop) {
        void tx.objectStore('docs').delete(id);
        for (const key of await byDoc.getAllKeys(id)) void tx.objectStore('chunks').delete(key);
      }
      // Unreadable records cannot be found by document: sweep them by key.
      const goodChunks = new Set(checked.chunks.map((c) => c.key));
      const goodDocs = new Set(checked.docs.map((d) => d.id));
      for (const c of chunks as unknown[]) {
        const key = (c as { key?: unknown } | null)?.key;
        if (typeof key === 'number' && !goodChunks.has(key)) void tx.objectStore('chunks').delete(key);
      }
      for (const d of docs as unknown[]) {
        const id = (d as { id?: unknown } | null)?.id;
        if (typeof id === 'string' && !goodDocs.has(id)) void tx.objectStore('docs').delete(id);
      }
      const base = checked.manifest ?? emptyManifest({ modelId, dims: 0 });
      const live = checked.chunks;
      const shardLive: Record<number, number> = {};
      for (const c of live) shardLive[c.shard] = (shardLive[c.shard] ?? 0) + 1;
      const manifest: Manifest = {
        ...base,
        ...(base.modelId === '' ? { modelId } : {}),
        shardLive, shardSlots: Object.fromEntries(checked.shards.size ? [...checked.shards.values()].map((s) => [s.id, s.keys.length]) : []),
        chunkCount: live.length, docCount: checked.docs.length, generation: base.generation + 1, updatedAt: Date.now(),
      };
      if (manifest.chunkCount === 0) Object.assign(manifest, { modelId: '', dims: 0 });
      await tx.objectStore('meta').put(manifest, 'manifest');
    });
  }

  /**
   * Replaces the whole index with `pending` in one transaction (a prebuilt index file):
   * either the new index is stored entirely, or the old one stays as it was.
   */
  async replaceAll(pending: readonly PendingDoc[], identity: ModelIdentity, sourceHash: string): Promise<CommitResult> {
    return this.write('Could not store the prebuilt index', async (tx) => {
      const old = await tx.objectStore('meta').get('manifest');
      await Promise.all([tx.objectStore('docs').clear(), tx.objectStore('chunks').clear(), tx.objectStore('shards').clear()]);
      // Counters carry on past the old index: a key or shard id is never reused, even across replacements.
      const manifest = { ...emptyManifest(identity), nextChunkKey: old?.nextChunkKey ?? 1, nextShardId: old?.nextShardId ?? 1, generation: old?.generation ?? 0, sourceHash };
      const result = await this.put(tx, manifest, pending, identity);
      return { ...result, removedKeys: [] };
    });
  }

  /**
   * Writes documents (replacing any with the same id) and their vectors atomically.
   * `replaceIdentity` adopts a new model for the whole index; only a rebuild
   * that re-embeds every stored document in this same commit may set it.
   */
  async commit(pending: readonly PendingDoc[], identity: ModelIdentity, options: { replaceIdentity?: boolean } = {}): Promise<CommitResult> {
    return this.write('Could not store documents', async (tx) => {
      const meta = tx.objectStore('meta');
      const stored = await meta.get('manifest');
      const manifest = options.replaceIdentity && stored
        ? { ...stored, modelId: identity.modelId, dims: identity.dims }
        : checkIdentity(stored, identity);
      manifest.shardSlots ??= {};
      const removedKeys = await this.deleteDocs(tx, pending.map((d) => d.record.id), manifest);
      const written = await this.put(tx, manifest, pending, identity);
      return { ...written, removedKeys };
    });
  }

  /** Writes documents, chunk records and new shards into `tx`, and the manifest last. */
  private async put(tx: WriteTx, manifest: Manifest, pending: readonly PendingDoc[], identity: ModelIdentity): Promise<Omit<CommitResult, 'removedKeys'>> {
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

  async remove(ids: readonly string[]): Promise<{ removedKeys: number[]; generation: number }> {
    return this.write('Could not remove documents', async (tx) => {
      const manifest = await tx.objectStore('meta').get('manifest');
      if (!manifest) return { removedKeys: [], generation: 0 };
      const removedKeys = await this.deleteDocs(tx, ids, manifest);
      if (removedKeys.length || ids.length) {
        manifest.generation++;
        manifest.updatedAt = Date.now();
        await tx.objectStore('meta').put(manifest, 'manifest');
      }
      return { removedKeys, generation: manifest.generation };
    });
  }

  /** Deletes every document and vector; the model identity is forgotten too (an empty index accepts any model). */
  async clear(): Promise<void> {
    await this.write('Could not clear the index', async (tx) => {
      const old = await tx.objectStore('meta').get('manifest');
      await Promise.all([tx.objectStore('docs').clear(), tx.objectStore('chunks').clear(), tx.objectStore('shards').clear()]);
      // Keep the generation and the counters moving forward: other tabs notice the clear, and no key is reused.
      const next = { ...emptyManifest({ modelId: '', dims: 0 }), nextChunkKey: old?.nextChunkKey ?? 1, nextShardId: old?.nextShardId ?? 1, generation: (old?.generation ?? 0) + 1 };
      await tx.objectStore('meta').put(next, 'manifest');
    });
  }

  /**
   * Merges shards that are small or mostly dead into full ones, so the store
   * stays at a few large records without ever rewriting all of it.
   * Returns the number of shards rewritten.
   */
  async compact(): Promise<number> {
    return this.write('Could not compact the index', async (tx) => {
      const manifest = await tx.objectStore('meta').get('manifest');
      if (!manifest) return 0;
      // Decide from the manifest alone: reading every shard on each commit would make ingest quadratic.
      manifest.shardSlots ??= {};
      const victimIds = Object.keys(manifest.shardLive).map(Number)
        .filter((id) => isCompactable(manifest.shardSlots[id] ?? 0, manifest.shardLive[id] ?? 0, manifest.dims));
      if (victimIds.length < COMPACT_TRIGGER) return 0;
      const victims = (await Promise.all(victimIds.map((id) => tx.objectStore('shards').get(id)))).filter((v): v is ShardRecord => v !== undefined);
      const live: { record: ChunkRecord; vector: Float32Array }[] = [];
      for (const shard of victims) {
        // All of a shard's chunk reads in flight at once (see deleteDocs).
        const records = await Promise.all(Array.from(shard.keys, (key) => tx.objectStore('chunks').get(key)));
        records.forEach((record, slot) => {
          if (record && record.shard === shard.id && record.slot === slot) {
            live.push({ record, vector: shard.vectors.subarray(slot * shard.dims, (slot + 1) * shard.dims) });
          }
        });
        void tx.objectStore('shards').delete(shard.id);
        delete manifest.shardLive[shard.id];
        delete manifest.shardSlots[shard.id];
      }
      const perShard = Math.max(1, Math.floor(SHARD_MAX_BYTES / (4 * manifest.dims)));
      for (let from = 0; from < live.length; from += perShard) {
        const part = live.slice(from, from + perShard);
        const id = manifest.nextShardId++;
        const vectors = new Float32Array(part.length * manifest.dims);
        part.forEach(({ record, vector }, slot) => {
          vectors.set(vector, slot * manifest.dims);
          void tx.objectStore('chunks').put({ ...record, shard: id, slot });
        });
        void tx.objectStore('shards').put({
          id, dims: manifest.dims, vectors, keys: Float64Array.from(part, (p) => p.record.key), lexical: buildSegment(part.map((p) => p.record.context)),
        });
        manifest.shardLive[id] = part.length;
        manifest.shardSlots[id] = part.length;
      }
      await tx.objectStore('meta').put(manifest, 'manifest');
      return victims.length;
    });
  }

  /** Shard count and vector bytes, from the manifest alone (reading the shards would load every vector). */
  async shardSummary(): Promise<{ shards: number; bytes: number }> {
    const manifest = await this.manifest();
    const slots = Object.values(manifest?.shardSlots ?? {});
    return { shards: slots.length, bytes: slots.reduce((n, s) => n + s * (manifest?.dims ?? 0) * 4, 0) };
  }

  /**
   * Deletes documents and their chunks. Requests are issued together, not
   * awaited one by one: IndexedDB pipelines them within the transaction.
   */
  private async deleteDocs(tx: WriteTx, ids: readonly string[], manifest: Manifest): Promise<number[]> {
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

  /**
   * One strict readwrite transaction over every store: `work` issues its
   * requests, then the transaction must complete. Any exception aborts it, so
   * a failed write path never commits half a change (IndexedDB would
   * otherwise commit whatever was issued before the throw).
   */
  private async write<T>(message: string, work: (tx: WriteTx) => Promise<T>): Promise<T> {
    return this.run(async () => {
      const tx = (await this.connection()).transaction(['meta', 'docs', 'chunks', 'shards'], 'readwrite', TX);
      try {
        const result = await work(tx);
        await tx.done;
        return result;
      } catch (error) {
        tx.done.catch(() => undefined);
        try { tx.abort(); } catch { /* already finished or aborted */ }
        throw error;
      }
    }, message);
  }

  private async run<T>(work: () => Promise<T>, message: string): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw storageError(error, message);
    }
  }
}

type WriteTx = IDBPTransaction<ThreadlineDB, ('meta' | 'docs' | 'chunks' | 'shards')[], 'readwrite'>;

function isCompactable(slots: number, live: number, dims: number): boolean {
  return slots * dims * 4 < SHARD_MIN_BYTES || live < slots / 2;
}

function emptyManifest(identity: ModelIdentity): Manifest {
  return {
    schemaVersion: SCHEMA_VERSION, modelId: identity.modelId, dims: identity.dims, nextChunkKey: 1, nextShardId: 1,
    shardLive: {}, shardSlots: {}, chunkCount: 0, docCount: 0, generation: 0, updatedAt: Date.now(),
  };
}

/** An empty store adopts the model; a non-empty one must match it exactly. */
export function checkIdentity(manifest: Manifest | undefined, identity: ModelIdentity): Manifest {
  if (!manifest) return emptyManifest(identity);
  if ((manifest.chunkCount === 0 && manifest.docCount === 0) || manifest.modelId === '') return { ...manifest, modelId: identity.modelId, dims: identity.dims };
  if (manifest.modelId !== identity.modelId || manifest.dims !== identity.dims) {
    throw new ThreadlineError('MODEL_MISMATCH',
      `This index was built with "${manifest.modelId}" (${manifest.dims} dims) but the embedder is "${identity.modelId}" (${identity.dims} dims). ` +
      'Open it with the same model, or pass onModelMismatch: "rebuild" to re-embed the stored chunks with the new one.',
      { details: { stored: { modelId: manifest.modelId, dims: manifest.dims }, requested: identity } });
  }
  return manifest;
}
