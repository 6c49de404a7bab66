/**
 * The retrieval engine: the Retriever interface in-process. It holds the
 * state (the memory index, kept equal to what is stored; the generation; the
 * embedding model) and sequences the operations, whose work lives beside it:
 * ingest-batches.ts, hydrate.ts, prebuilt-pending.ts, parse-query.ts.
 * Hydrating never loads or calls the embedding model; it loads on the first
 * add or search.
 */
import type { Embedder } from '../embedding/embedder';
import { supersededBy } from '../embedding/offline-model';
import { ThreadlineError, throwIfAborted } from '../errors';
import type { BinaryReader } from '../ingest/binary-reader';
import { documentFields } from '../ingest/prepare';
import type { ProgressListener } from '../progress';
import type { ChunkOptions } from '../retrieval/chunker';
import { hedgeQuery, hedgedFusion } from '../retrieval/fusion';
import { MemoryIndex, type DocumentInfo, type HybridWeights, type SearchHit } from '../retrieval/memory-index';
import type { AddOptions, AddResult, CallOptions, IndexStats, LoadOptions, LoadResult, Query, Retriever, SearchOptions, TermStats, TermStatsOptions } from '../retriever';
import { openChangeFeed, type ChangeFeed } from '../storage/change-feed';
import { IndexStore, type LostReason, type PendingDoc, type StoredIndex } from '../storage/index-store';
import { withWriteLock } from '../storage/write-lock';
import { acceptsModel, assertSameModel } from '../storage/manifest';
import { raced } from '../util/abort';
import { Mutex } from '../util/mutex';
import { EngineModel } from './engine-model';
import { fetchPrebuilt } from './fetch-prebuilt';
import { memoryFrom, prepareMemory } from './hydrate';
import { readInWorker } from './documents-client';
import { embedAndCommit, lexicalFor, lexicalForSliced, planAdd } from './ingest-batches';
import { TimeSlice } from '../util/time-slice';
import { isCurrentSegment, mergeSegments } from '../retrieval/lexical-segment';
import { parseK, parseMode, parseModelPending, parseQuery, parseStrings } from './parse-query';
import { loadPrebuiltInto, type LoadFrom } from './load-prebuilt';
import { reembed } from './rebuild';
import { RefreshScheduler } from './refresh-scheduler';

/**
 * How long a search that may rank by words alone waits for a model still loading (SearchOptions.modelPending):
 * far longer than reading it from the HTTP cache takes (tens of ms), far shorter than a download on a slow
 * connection (seconds), so a reload's first question searches with the model and a slow first visit's does not wait.
 */
const MODEL_GRACE_MS = 250;

export interface EngineConfig {
  name: string;
  /** Manifest identity of the configured model, known before it loads. */
  modelId: string;
  /**
   * The configured model's dimensions where they are known before it loads (the built-in offline model's): a
   * prebuilt file's vectors are checked against them, so loading it does not wait for the model's download.
   */
  knownDims?: number;
  chunking: ChunkOptions;
  /** Keep an int8 copy of the vectors and scan it (f32 rescoring). */
  int8: boolean;
  weights: HybridWeights;
  /** What to do when the stored index was built with another model. */
  onModelMismatch: 'error' | 'rebuild';
  /** How PDF and Word files are read. @default a documents worker of their own (documents-client.ts) */
  readBinary?: BinaryReader;
}

export class RetrievalEngine implements Retriever {
  private memory: MemoryIndex | null = null;
  private generation = 0;
  private readonly queue = new Mutex();
  private feed: ChangeFeed | null = null;
  private embedded = { chunks: 0, queries: 0 };
  /** The model, and the identity the index uses: the configured one, or the offline model that stood in for it on a fresh index. */
  private readonly model: EngineModel;
  /** Set once a rebuild re-embedded the index, so a mismatch found after it is an error, never another rebuild. */
  private rebuilt = false;
  /** Refreshes after other tabs' commits, debounced (refresh-scheduler.ts). */
  private readonly refresh = new RefreshScheduler(
    () => this.generation,
    () => void this.queue.run(async () => {
      const stored = await this.store.manifest();
      if ((stored?.generation ?? 0) !== this.generation) await this.hydrate();
    }).catch(() => undefined),
  );
  /** Documents removed by the last repair of damaged storage. */
  private repaired: string[] = [];

  private constructor(
    private readonly config: EngineConfig,
    private readonly store: IndexStore,
    loadEmbedder: () => Promise<Embedder>,
    private readonly onProgress?: ProgressListener,
  ) {
    this.model = new EngineModel(config.modelId, loadEmbedder);
  }

  /** Opens the store and restores the index (reported as a `hydrate` progress event). */
  static async open(config: EngineConfig, loadEmbedder: () => Promise<Embedder>, onProgress?: ProgressListener): Promise<RetrievalEngine> {
    let engine: RetrievalEngine | null = null;
    // The database was closed under us (deleted, upgraded, site data cleared): memory may hold what disk no
    // longer has. Drop it and read the truth again (the store reopens the database on the next call).
    const store = await IndexStore.open(config.name, (why) => engine?.storageLost(why));
    engine = new RetrievalEngine(config, store, loadEmbedder, onProgress);
    // Every page that opens an index asks a question soon: load the model while the index hydrates
    // (and while the page fetches a prebuilt file) rather than after. A failure here is reported by
    // the first call that needs the model, which also retries.
    engine.model.start().catch(() => undefined);
    try {
      await engine.hydrate();
    } catch (error) {
      store.close();
      throw error;
    }
    engine.feed = openChangeFeed(config.name, (generation) => engine?.refresh.notice(generation));
    return engine;
  }

  close(): void {
    this.refresh.cancel();
    this.feed?.close();
    this.store.close();
  }

  async stats(): Promise<IndexStats> {
    const stored = await this.store.summary();
    return {
      name: this.config.name, modelId: this.model.id, dims: this.memory?.chunkCount ? this.memory.dims : 0,
      docs: this.memory?.docCount ?? 0, chunks: this.memory?.chunkCount ?? 0, generation: this.generation,
      shards: stored.shards, vectorBytes: stored.bytes,
      embeddedChunks: this.embedded.chunks, embeddedQueries: this.embedded.queries,
      ...(this.repaired.length ? { repairedDocs: [...this.repaired] } : {}),
      ...(stored.source !== undefined ? { source: stored.source } : {}),
    };
  }

  documents(): Promise<DocumentInfo[]> {
    return Promise.resolve(this.memory?.documents() ?? []);
  }

  /** Sorted chunk keys in memory, for consistency checks. */
  chunkKeys(): number[] {
    return this.memory?.chunkKeys() ?? [];
  }

  async add(input: unknown, options: AddOptions = {}): Promise<AddResult> {
    const { prepared, result, embedder } = await planAdd(input, { ...options, readBinary: this.config.readBinary ?? readInWorker }, {
      embedder: () => this.embedder(), storedHashes: (ids) => this.storedHashes(ids), chunking: this.config.chunking, modelId: this.model.id,
    });
    // One clock for the add's own long stretches (tokenizing a large group for BM25), so a search or an abort gets in.
    const slice = new TimeSlice(options.signal);
    try {
      await embedAndCommit(prepared, embedder, options, {
        commit: (pending) => this.commit(pending, embedder.dims, slice),
        embedded: (chunks) => { this.embedded.chunks += chunks; },
        committed: (docs, chunks) => { result.added += docs; result.chunks += chunks; },
      });
    } finally {
      // Once per add(), not after every group: merging small shards group by group rewrote them again and again.
      // Never masks the error of the add itself.
      if (result.added > 0) await this.queue.run(() => withWriteLock(this.config.name, () => this.compactQuietly())).catch(() => undefined);
    }
    return result;
  }

  /**
   * Replaces the index with a prebuilt index file (see src/prebuilt/format.ts),
   * verified first; the same file again is a no-op, and a corrupt or
   * mismatched file leaves the stored index as it was.
   */
  async load(url: string, options: LoadOptions = {}): Promise<LoadResult> {
    const onOtherSource = options.onOtherSource ?? 'replace';
    if (onOtherSource !== 'replace' && onOtherSource !== 'error') throw new ThreadlineError('INVALID_INPUT', "onOtherSource must be 'replace' or 'error'");
    return this.loadPrebuilt(await fetchPrebuilt(url, options.signal, options.followRedirects === true, options.onProgress), { url, onOtherSource });
  }

  /** `load` from bytes already in hand (the CLI and tests); `from`: the URL they came from, and what to do if the name holds another file's index. */
  async loadPrebuilt(bytes: Uint8Array, from: LoadFrom = {}): Promise<LoadResult> {
    return loadPrebuiltInto({
      name: this.config.name,
      // The configured model's identity: a file built with it is refused only by that model's own failure, not as
      // another model's file because the offline model stood in for an earlier add().
      modelId: this.model.configured,
      manifest: () => this.store.manifest(),
      dims: async () => this.config.knownDims ?? (await this.embedder(false, 'prebuilt')).dims,
      replace: (pending, header, source) => {
        // Tokenized before the locks are taken: nothing here depends on what they guard.
        const lexical = lexicalFor(pending, header.dims);
        return this.queue.run(() => withWriteLock(this.config.name, async () => {
          await this.store.replaceAll(pending, lexical, { modelId: header.modelId, dims: header.dims }, source);
          await this.hydrate(true);
          this.feed?.publish(this.generation);
        }));
      },
      adopt: (hash, url) => this.queue.run(() => withWriteLock(this.config.name, () => this.store.adoptSource(hash, url))),
    }, bytes, from);
  }

  async remove(ids: unknown, _options: CallOptions = {}): Promise<number> {
    const list = parseStrings(ids, 'remove() takes an array of document ids');
    return this.queue.run(() => withWriteLock(this.config.name, async () => {
      const { removedKeys, generation } = await this.store.remove(list);
      if (generation !== this.generation + 1) await this.hydrate(true);
      else {
        this.memory?.removeChunks(removedKeys);
        for (const id of list) this.memory?.removeDoc(id);
        this.generation = generation;
      }
      this.feed?.publish(this.generation);
      await this.compactQuietly();
      return removedKeys.length;
    }));
  }

  /** Removes every document; the emptied index forgets its model and accepts any. */
  async clear(_options: CallOptions = {}): Promise<void> {
    await this.queue.run(() => withWriteLock(this.config.name, async () => {
      await this.store.clear();
      this.memory = null;
      await this.hydrate(true);
      this.feed?.publish(this.generation);
    }));
  }

  async search(input: unknown, options: SearchOptions = {}): Promise<SearchHit[]> {
    const query = parseQuery(input);
    const k = parseK(options.k);
    parseMode(options.mode);
    parseModelPending(options.modelPending);
    if (!this.memory || this.memory.chunkCount === 0) return [];
    if (query.hedge === undefined) return this.rank(query, k, options);
    // Hedged: the hedge's ranking fused under the condensed one's, so a bad rewrite cannot bury a good hit.
    const [main, plain] = await Promise.all([this.rank(query, k * 2, options), this.rank(hedgeQuery(query.hedge, query), k * 2, options)]);
    const keyed = (hits: SearchHit[]) => hits.map((h) => ({ ...h, key: h.chunkKey }));
    return hedgedFusion(keyed(main), keyed(plain), k, query.hedgeWeight).map(({ key: _key, ...hit }) => hit);
  }

  async termStats(words: unknown, options: TermStatsOptions = {}): Promise<TermStats> {
    const list = parseStrings(words, 'termStats() takes an array of at most 1000 words', 1000);
    return Promise.resolve(this.memory?.termStats(list, { forms: options.forms === true }) ?? { terms: list.map((word) => ({ word, term: word, importance: 0 })), reference: 0, chunks: 0 });
  }

  async embed(texts: unknown, options: CallOptions = {}): Promise<Float32Array> {
    const list = parseStrings(texts, 'embed() takes an array of strings');
    return (await this.embedder()).embed(list, options.signal ? { signal: options.signal } : {});
  }

  private async rank(query: Query, k: number, options: SearchOptions): Promise<SearchHit[]> {
    let vector: Float32Array | null = null;
    // While the model downloads, a hybrid search that may rank by words alone does (memory-index.ts: null vector),
    // once the model has had MODEL_GRACE_MS to arrive: one being read from the cache is waited for, not raced.
    const wordsOnly = (options.mode ?? 'hybrid') === 'hybrid' && options.modelPending === 'lexical' && this.model.pending()
      && !(await raced(this.model.settlesWithin(MODEL_GRACE_MS), options.signal));
    if (options.mode !== 'lexical' && !wordsOnly) {
      const embedder = await this.embedder();
      vector = await embedder.embed([query.text], options.signal ? { signal: options.signal } : {});
      this.embedded.queries++;
    }
    throwIfAborted(options.signal);
    // Read after the await: a refresh from another tab may have replaced the index meanwhile.
    const memory = this.memory;
    if (!memory) return [];
    return memory.search(query, vector, { k, mode: options.mode ?? 'hybrid', filter: options.filter, weights: this.config.weights, int8: this.config.int8 });
  }

  /**
   * The stored hashes of `ids`: from memory while it holds the stored
   * generation (one manifest read instead of a read per document), else from disk.
   */
  private async storedHashes(ids: string[]): Promise<Map<string, string>> {
    const stored = await this.store.manifest();
    // Compared after the await: memory and generation change together, so equal means memory is that snapshot.
    if (this.memory && stored && stored.generation === this.generation) return this.memory.hashes(ids);
    return this.store.docHashes(ids);
  }

  private async commit(pending: PendingDoc[], dims: number, slice: TimeSlice): Promise<void> {
    // Tokenized before the locks are taken (another tab waits on the write lock); an abort meanwhile writes nothing.
    const lexical = await lexicalForSliced(pending, dims, slice);
    await this.queue.run(() => withWriteLock(this.config.name, async () => {
      const memory = this.memory;
      // Memory, while current, says which of these documents exist: the commit reads only those (to delete their old chunks).
      const known = memory ? { generation: this.generation, has: (id: string) => memory.doc(id) !== undefined } : undefined;
      const result = await this.store.commit(pending, lexical, { modelId: this.model.id, dims }, known ? { known } : {});
      if (result.generation !== this.generation + 1 || !this.memory) {
        await this.hydrate(true); // another tab committed in between: reload the truth
      } else {
        this.memory.removeChunks(result.removedKeys);
        for (const { record } of pending) this.memory.setDoc({ id: record.id, hash: record.hash, ...documentFields(record) });
        // The postings just stored join memory as they are: the chunks are tokenized once, not twice.
        this.memory.addStored(result.chunks, result.vectors, result.segments);
        this.generation = result.generation;
      }
      this.feed?.publish(this.generation);
    }));
  }

  /**
   * The database was closed under us. Deleted or cleared: memory drops what
   * disk no longer has, and the database is reopened (empty) only when next
   * used, so a deletion is not undone behind the caller's back. Upgraded by
   * another tab: the data is still there, so it is read again now.
   */
  private storageLost(why: LostReason): void {
    this.memory = null;
    this.generation = -1;
    if (why === 'upgraded') void this.queue.run(() => this.hydrate()).catch(() => undefined);
  }

  /**
   * Compaction only reclaims space, after a commit that has already succeeded;
   * its failure (a full quota, say) must not fail that call. The next commit retries.
   */
  private async compactQuietly(): Promise<void> {
    await this.store.compact({ merge: mergeSegments, usable: isCurrentSegment }).catch(() => 0);
  }

  /**
   * Rebuilds memory from the store: damaged records are repaired first, and the model identity is checked.
   * `locked`: the caller already holds the write lock (a commit, a removal, a clear or a prebuilt file's
   * replace that found another tab's writes), so a repair or a rebuild writes under it rather than asking
   * for it again: the lock is not reentrant, and asking again waited forever.
   */
  private async hydrate(locked = false): Promise<void> {
    const started = performance.now();
    let prepared: MemoryIndex | null = null;
    let stored = await this.store.load((raw) => { prepared = prepareMemory(raw, this.config.int8); });
    if (stored.problems.length) {
      const damaged = stored.damaged;
      // A manifest rebuilt from the records has lost its model id: the configured model adopts it (dimensions are checked when it loads).
      await this.writing(locked, () => this.store.repair(damaged, this.model.id));
      this.repaired = [...new Set([...this.repaired, ...damaged])];
      this.onProgress?.({ phase: 'repair', removedDocs: damaged, problems: stored.problems.slice(0, 20) });
      stored = await this.store.load();
    }
    const manifest = stored.manifest;
    if (!acceptsModel(manifest, { modelId: this.model.id })) {
      // An earlier release's offline model's vectors are replaced by today's unasked (offline-model.ts).
      const upgrade = supersededBy(manifest?.modelId, this.model.id);
      if ((this.config.onModelMismatch === 'rebuild' || upgrade) && !this.rebuilt) return this.rebuild(stored.docs, stored.chunks, locked);
      assertSameModel(manifest, { modelId: this.model.id }, this.config.name);
    }
    this.memory = memoryFrom(stored, this.config.int8, prepared);
    this.generation = manifest?.generation ?? 0;
    this.onProgress?.({ phase: 'hydrate', chunks: stored.chunks.length, ms: performance.now() - started });
  }

  /** `work` under the write lock: taken here, or already held by the caller (`locked`), since it is not reentrant. */
  private writing<T>(locked: boolean, work: () => Promise<T>): Promise<T> {
    return locked ? work() : withWriteLock(this.config.name, work);
  }

  /** Re-embeds every stored chunk with the configured model (rebuild.ts), replacing the old vectors in one commit; `locked` as for hydrate. */
  private async rebuild(docs: StoredIndex['docs'], chunks: StoredIndex['chunks'], locked: boolean): Promise<void> {
    const embedder = await this.embedder(false, 'rebuild');
    const pending = await reembed(docs, chunks, embedder, this.onProgress);
    this.embedded.chunks += chunks.length;
    const lexical = lexicalFor(pending, embedder.dims);
    await this.writing(locked, () => this.store.commit(pending, lexical, { modelId: this.model.id, dims: embedder.dims }, { replaceIdentity: true }));
    this.memory = null;
    this.rebuilt = true; // the rebuilt index matches; never loop
    await this.hydrate(locked);
  }

  /** `need`: only the configured model will do (EngineModel.get). */
  private async embedder(checkDims = true, need?: 'prebuilt' | 'rebuild'): Promise<Embedder> {
    const embedder = await this.model.get(this.memory?.chunkCount ?? 0, need);
    // An index without vectors takes the model's size, whatever it held before.
    if (this.memory && this.memory.chunkCount === 0 && this.memory.dims !== embedder.dims) this.memory = this.memory.emptyCopy(embedder.dims, { int8: this.config.int8 });
    if (checkDims && this.memory && this.memory.dims !== embedder.dims) {
      throw new ThreadlineError('MODEL_MISMATCH', `The index has ${this.memory.dims}-dimensional vectors but the model produces ${embedder.dims}.`, {
        details: { stored: { dims: this.memory.dims }, requested: { modelId: embedder.modelId, dims: embedder.dims } },
      });
    }
    if (!this.memory) this.memory = new MemoryIndex(embedder.dims, { int8: this.config.int8 });
    return embedder;
  }
}
