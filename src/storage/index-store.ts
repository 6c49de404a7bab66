/**
 * Persistence of one index in IndexedDB. Every change is one `strict`
 * readwrite transaction over manifest, docs and shards, so a crash or
 * an abort leaves either the whole change or none of it. Callers compute
 * embeddings before calling `commit`: nothing slow happens inside a
 * transaction (which IndexedDB would auto-commit early).
 */
import { openDB, type IDBPDatabase } from 'idb';
import { ThreadlineError, isThreadlineError } from '../errors';
import type { LexicalSegment } from '../index-data';
import { abandon, storageError } from './storage-errors';
import { checkDocs, checkRecords } from './stored-index-check';
import { compactShards, type MergeLexical } from './compaction';
import { checkIdentity, emptyManifest, type ModelIdentity } from './manifest';
import { repairRecords } from './repair';
import type { WriteTx } from './write-tx';
import { readDocs } from './doc-pages';
import { deleteDocs, putDocs } from './write-docs';
import { MIGRATIONS, SCHEMA_VERSION, STORES, databaseName, type ChunkRecord, type DocRecord, type Manifest, type ShardRecord, type StoredChunk, type ThreadlineDB } from './schema';

export { SHARD_MAX_BYTES, SHARD_MIN_BYTES, shardRows } from './schema';
export type { MergeLexical } from './compaction';

export type { ModelIdentity } from './manifest';

export interface PendingDoc {
  record: Omit<DocRecord, 'chunkKeys' | 'chunks' | 'chunkShards'>;
  chunks: StoredChunk[];
  /** Packed `chunks.length × dims`. */
  vectors: Float32Array;
}

/** The prebuilt file a replaceAll stores: its hash, where it came from, and a check of what it replaces. */
export interface PrebuiltSource {
  hash: string;
  /** The file's `sourceKey`, when it was loaded from a URL. */
  url?: string | undefined;
  /** Throws to leave the stored index as it is; given the manifest as read in the replacing transaction (unchecked). */
  guard?: ((old: unknown) => void) | undefined;
}

/** Which documents exist, as of a stored generation (see IndexStore.commit). */
export interface KnownDocs { generation: number; has(id: string): boolean }

/** Rows of chunks [from, from + count); `unit[i] === 1` where row i is known to be unit length (see VectorIndex.add). */
export interface VectorRun { from: number; count: number; rows: Float32Array; unit?: Uint8Array }

/** Stored BM25 segments by shard id (the shard's chunk keys by slot, and its postings, as stored: the reader checks them). */
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
  /** Stored BM25 segments by shard id, unchecked; chunks of other shards (or of unusable segments) must be tokenized. */
  segments: StoredSegments;
  /** Documents left out because a record of theirs is damaged (see stored-index-check.ts); `repair` deletes them. */
  damaged: string[];
  /** What was wrong, when anything was; non-empty means `repair` should run. */
  problems: string[];
}

const TX = { durability: 'strict' } as const;

/** Why a connection was closed under us: the database deleted, upgraded by another tab, or closed by the browser (site data cleared). */
export type LostReason = 'deleted' | 'upgraded' | 'terminated';

export class IndexStore {
  /** The open connection; null once it was closed under us (another tab's upgrade or deletion, site data cleared). */
  private db: IDBPDatabase<ThreadlineDB> | null;
  private opening: Promise<IDBPDatabase<ThreadlineDB>> | null = null;
  private closed = false;

  private constructor(db: IDBPDatabase<ThreadlineDB>, private readonly name: string, private readonly onLost: ((why: LostReason) => void) | undefined) {
    this.db = db;
  }

  /**
   * Opens the index `name`. `onLost` is told when the connection is closed
   * under us (another tab upgraded or deleted the database, or the user
   * cleared the site's data): what memory holds may be gone from disk, and
   * the next call reopens the database.
   */
  static async open(name: string, onLost?: (why: LostReason) => void): Promise<IndexStore> {
    let store: IndexStore | null = null;
    const db = await IndexStore.connect(name, (why) => store?.lost(why));
    store = new IndexStore(db, name, onLost);
    return store;
  }

  private static async connect(name: string, lost: (why: LostReason) => void): Promise<IDBPDatabase<ThreadlineDB>> {
    try {
      const db = await openDB<ThreadlineDB>(databaseName(name), SCHEMA_VERSION, {
        upgrade(database, oldVersion, _newVersion, tx) {
          // One after the other, each inside the upgrade transaction; a failed one aborts it, so the database stays at its old version.
          const [untypedDb, untypedTx] = [database, tx] as unknown as Parameters<(typeof MIGRATIONS)[number]>;
          let chain: Promise<void> = Promise.resolve();
          for (let v = oldVersion; v < SCHEMA_VERSION; v++) chain = chain.then(() => MIGRATIONS[v]?.(untypedDb, untypedTx));
          chain.catch(() => { try { tx.abort(); } catch { /* already finished */ } });
        },
        // Another tab wants to upgrade or delete: close at once so it never hangs waiting on us.
        blocking(_current, next) { db.close(); lost(next === null ? 'deleted' : 'upgraded'); },
        // The browser closed the connection (site data cleared, storage failure).
        terminated() { lost('terminated'); },
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

  private lost(why: LostReason): void {
    this.db = null;
    if (!this.closed) this.onLost?.(why);
  }

  /** The connection, reopened if it was lost. */
  private async connection(): Promise<IDBPDatabase<ThreadlineDB>> {
    if (this.db) return this.db;
    if (this.closed) throw new ThreadlineError('DISPOSED', 'This index store was closed.');
    this.opening ??= IndexStore.connect(this.name, (why) => this.lost(why)).then((db) => {
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
      const tx = (await this.connection()).transaction(['pages'], 'readonly');
      return new Map((await readDocs(tx, ids)).map((d) => [d.id, d.hash] as const));
    }, 'Could not read documents');
  }

  /**
   * Reads everything needed to rebuild the in-memory index, in one snapshot; damaged records are left out and reported.
   * `onManifest` receives the manifest record as read (unchecked) as soon as it arrives, while the documents and
   * vectors are still being read: time the caller can use to prepare memory for them.
   */
  async load(onManifest?: (raw: unknown) => void): Promise<StoredIndex> {
    return this.run(async () => {
      const tx = (await this.connection()).transaction([...STORES], 'readonly');
      const manifestRead = tx.objectStore('meta').get('manifest');
      const [rawManifest, pageDocs, rawShards] = await Promise.all([
        onManifest ? manifestRead.then((raw) => { onManifest(raw); return raw; }) : manifestRead,
        // The documents are checked as soon as their pages arrive, while the shards (most of the bytes) are still read.
        tx.objectStore('pages').getAll().then((pages) => checkDocs(pages)), tx.objectStore('shards').getAll(),
      ]);
      const { manifest, docs, chunks, shards, unitSlots, damaged, problems } = checkRecords(rawManifest, pageDocs, rawShards);
      const dims = manifest?.dims ?? 0;
      // Chunks come in shard and slot order, so runs are long; no copy is made here.
      const vectors: VectorRun[] = [];
      for (let i = 0; i < chunks.length;) {
        const first = chunks[i] as ChunkRecord;
        const shard = shards.get(first.shard) as ShardRecord;
        let end = i + 1;
        while (end < chunks.length && (chunks[end] as ChunkRecord).shard === first.shard && (chunks[end] as ChunkRecord).slot === first.slot + (end - i)) end++;
        const unit = unitSlots.get(shard.id)?.subarray(first.slot, first.slot + end - i);
        vectors.push({ from: i, count: end - i, rows: shard.vectors.subarray(first.slot * dims, (first.slot + end - i) * dims), ...(unit ? { unit } : {}) });
        i = end;
      }
      const segments: StoredSegments = new Map();
      for (const shard of shards.values()) if (shard.lexical) segments.set(shard.id, { keys: shard.keys, lexical: shard.lexical });
      return { manifest, docs, chunks, vectors, segments, damaged, problems };
    }, 'Could not load the index');
  }

  /**
   * Repairs what `load` found damaged (repair.ts): deletes the damaged
   * documents and every chunk of theirs and fixes the manifest, in one transaction.
   */
  async repair(damaged: readonly string[], modelId: string): Promise<void> {
    await this.write('Could not repair the index', (tx) => repairRecords(tx, damaged, modelId));
  }

  /**
   * Replaces the whole index with `pending` in one transaction (a prebuilt index file):
   * either the new index is stored entirely, or the old one stays as it was.
   * `lexical`: the chunks' BM25 segments in order, one per shard to write (see commit).
   */
  async replaceAll(pending: readonly PendingDoc[], lexical: readonly LexicalSegment[], identity: ModelIdentity, source: PrebuiltSource): Promise<CommitResult> {
    return this.write('Could not store the prebuilt index', async (tx) => {
      const old = await tx.objectStore('meta').get('manifest');
      // Checked in the transaction that replaces, so that no other tab's load can come between the check and the write.
      source.guard?.(old);
      await Promise.all([tx.objectStore('pages').clear(), tx.objectStore('shards').clear()]);
      // Counters carry on past the old index: a key or shard id is never reused, even across replacements.
      const manifest = {
        ...emptyManifest(identity), nextChunkKey: old?.nextChunkKey ?? 1, nextShardId: old?.nextShardId ?? 1, generation: old?.generation ?? 0,
        sourceHash: source.hash, ...(source.url !== undefined ? { source: source.url } : {}),
      };
      const result = await putDocs(tx, manifest, pending, identity, lexical);
      return { ...result, removedKeys: [] };
    });
  }

  /**
   * Records where the stored prebuilt index came from, when it holds the file with this hash and no
   * source yet (an index loaded before sources were recorded). Its content is unchanged, so the
   * generation is too.
   */
  async adoptSource(hash: string, url: string): Promise<void> {
    await this.write('Could not update the manifest', async (tx) => {
      const meta = tx.objectStore('meta');
      const manifest = await meta.get('manifest');
      if (!manifest || manifest.sourceHash !== hash || typeof manifest.source === 'string') return;
      await meta.put({ ...manifest, source: url }, 'manifest');
    });
  }

  /**
   * Writes documents (replacing any with the same id) and their vectors atomically.
   * `lexical` holds the BM25 segments of their chunks, in order, one per shard
   * to write (at most `shardRows(dims)` chunks each): computed by the caller,
   * outside the transaction. `replaceIdentity` adopts a new model for the whole
   * index; only a rebuild that re-embeds every stored document in this same
   * commit may set it. `known` is the caller's view of which documents exist
   * as of a generation: when the stored manifest is still at it, documents it
   * says are absent are not read (a new document costs no read).
   */
  async commit(pending: readonly PendingDoc[], lexical: readonly LexicalSegment[], identity: ModelIdentity, options: { replaceIdentity?: boolean; known?: KnownDocs } = {}): Promise<CommitResult> {
    try {
      return await this.commitOnce(pending, lexical, identity, options);
    } catch (error) {
      // A document stored behind the manifest's back (written outside threadline, without a new generation) is
      // one `known` says is absent: its id collides in the unique byDoc index and nothing was written. Once
      // more, reading every id, which finds and replaces it.
      if (!options.known || !isThreadlineError(error, 'STORAGE_FAILED') || error.details?.name !== 'ConstraintError') throw error;
      return this.commitOnce(pending, lexical, identity, { ...options, known: undefined });
    }
  }

  private async commitOnce(pending: readonly PendingDoc[], lexical: readonly LexicalSegment[], identity: ModelIdentity, options: { replaceIdentity?: boolean | undefined; known?: KnownDocs | undefined }): Promise<CommitResult> {
    return this.write('Could not store documents', async (tx) => {
      const meta = tx.objectStore('meta');
      const stored = await meta.get('manifest');
      const manifest = options.replaceIdentity && stored
        ? { ...stored, modelId: identity.modelId, dims: identity.dims }
        : checkIdentity(stored, identity);
      manifest.shardSlots ??= {};
      const ids = pending.map((d) => d.record.id);
      const current = options.known && stored && stored.generation === options.known.generation ? options.known : undefined;
      const removedKeys = await deleteDocs(tx, current ? ids.filter((id) => current.has(id)) : ids, manifest);
      const written = await putDocs(tx, manifest, pending, identity, lexical);
      return { ...written, removedKeys };
    });
  }

  async remove(ids: readonly string[]): Promise<{ removedKeys: number[]; generation: number }> {
    return this.write('Could not remove documents', async (tx) => {
      const manifest = await tx.objectStore('meta').get('manifest');
      if (!manifest) return { removedKeys: [], generation: 0 };
      const removedKeys = await deleteDocs(tx, ids, manifest);
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
      await Promise.all([tx.objectStore('pages').clear(), tx.objectStore('shards').clear()]);
      // Keep the generation and the counters moving forward: other tabs notice the clear, and no key is reused.
      const next = { ...emptyManifest({ modelId: '', dims: 0 }), nextChunkKey: old?.nextChunkKey ?? 1, nextShardId: old?.nextShardId ?? 1, generation: (old?.generation ?? 0) + 1 };
      await tx.objectStore('meta').put(next, 'manifest');
    });
  }

  /**
   * Merges shards that are small or mostly dead into full ones (compaction.ts),
   * their postings merged by `merge`. Returns the number of shards rewritten.
   * `maxAliases` lowers the alias count past which documents are rewritten (tests).
   */
  async compact(merge: MergeLexical, options: { maxAliases?: number } = {}): Promise<number> {
    return this.write('Could not compact the index', (tx) => compactShards(tx, merge, options.maxAliases));
  }

  /**
   * Shard count, vector bytes, and the prebuilt file the index came from (Manifest.source, when it is a string:
   * the record may have been written by anyone), from the manifest alone (reading the shards would load every vector).
   */
  async summary(): Promise<{ shards: number; bytes: number; source: string | undefined }> {
    const manifest = await this.manifest();
    const slots = Object.values(manifest?.shardSlots ?? {});
    const source = (manifest as { source?: unknown } | undefined)?.source;
    return { shards: slots.length, bytes: slots.reduce((n, s) => n + s * (manifest?.dims ?? 0) * 4, 0), source: typeof source === 'string' ? source : undefined };
  }

  /**
   * One strict readwrite transaction over every store: `work` issues its
   * requests, then the transaction must complete. Any exception aborts it, so
   * a failed write path never commits half a change (IndexedDB would
   * otherwise commit whatever was issued before the throw).
   */
  private async write<T>(message: string, work: (tx: WriteTx) => Promise<T>): Promise<T> {
    return this.run(async () => {
      const tx = (await this.connection()).transaction([...STORES], 'readwrite', TX);
      // `done` rejects as soon as a request fails, before the work's own await sees it: handled here, awaited below.
      tx.done.catch(() => undefined);
      try {
        const result = await work(tx);
        await tx.done;
        return result;
      } catch (error) {
        // A failed request aborts the transaction, and the requests after it reject with a bare AbortError:
        // the transaction's own error says what failed (a ConstraintError, a QuotaExceededError).
        const cause = error instanceof ThreadlineError ? error : tx.error ?? error;
        abandon(tx);
        throw cause;
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

