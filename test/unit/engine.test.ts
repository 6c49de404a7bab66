import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { settledWithin } from '../../src/util/settled-within';
import type { Embedder } from '../../src/embedding/embedder';
import { embedderIdentity, loadEmbedder } from '../../src/embedding/load-embedder';
import { openDB, type IDBPDatabase } from 'idb';
import { IndexStore } from '../../src/storage/index-store';
import type { ThreadlineDB } from '../../src/storage/schema';
import { RetrievalEngine } from '../../src/worker/retrieval-engine';
import { buildPrebuiltIndex } from '../../src/prebuilt/build';
import { isCurrentSegment, mergeSegments } from '../../src/retrieval/lexical-segment';
import { engineConfig, MODEL, MODEL_ID, SAMPLE_DOCS } from '../fixtures/engine';

let unique = 0;

/** Counts embedding calls on the real offline model. */
function countingEmbedder() {
  const counter = { texts: 0 };
  const load = async (): Promise<Embedder> => {
    const real = await loadEmbedder({ model: MODEL });
    return {
      modelId: real.modelId, dims: real.dims, maxTokens: real.maxTokens, countTokens: (t) => real.countTokens(t),
      embed: (texts, o) => { counter.texts += texts.length; return real.embed(texts, o); },
    };
  };
  return { counter, load };
}

const config = engineConfig;
const docs = SAMPLE_DOCS;

describe('RetrievalEngine in Node (fake-indexeddb, real offline model)', () => {
  it('ingests, searches, and restores from storage with zero embedding calls', async () => {
    const name = `engine-${unique++}`;
    const first = countingEmbedder();
    const a = await RetrievalEngine.open(config(name), first.load);
    const result = await a.add(docs);
    expect(result).toMatchObject({ added: docs.length, unchanged: 0, empty: [] });
    const hits = await a.search('how long does a refund take to process?', { k: 3 });
    expect(hits[0]?.headingPath).toEqual(['Refund policy', 'Refund processing time']);
    a.close();

    const second = countingEmbedder();
    const b = await RetrievalEngine.open(config(name), second.load);
    expect(second.counter.texts).toBe(0);
    const lexical = await b.search('how long does a refund take to process?', { k: 3, mode: 'lexical' });
    expect(second.counter.texts).toBe(0);
    expect((await b.search('how long does a refund take to process?', { k: 3 })).map((h) => h.chunkKey)).toEqual(hits.map((h) => h.chunkKey));
    expect(lexical.length).toBeGreaterThan(0);
    expect((await b.stats()).embeddedChunks).toBe(0);
    b.close();
  });

  it('restores BM25 from the stored segments with the same scores, also after removals, compaction, and for shards written without segments', async () => {
    const name = `engine-${unique++}`;
    const e = countingEmbedder();
    const questions = ['refund window damaged items', 'sync offline devices', 'delete my account password', 'shipping tracking order'];
    const lexical = async (engine: RetrievalEngine) => Promise.all(questions.map((q) => engine.search(q, { k: 8, mode: 'lexical' })));
    const a = await RetrievalEngine.open(config(name), e.load);
    await a.add(docs); // one shard
    await a.remove(['plans']); // its slots stay in the shard, dead, until compaction
    const beforeDead = await lexical(a);
    a.close();
    const reopened = await RetrievalEngine.open(config(name), e.load);
    expect(await lexical(reopened)).toEqual(beforeDead);
    for (const d of docs.slice(0, 4)) await reopened.add([{ ...d, text: `${d.text}\n\nRefunds for damaged items are also possible by post.` }]); // more shards, then compaction
    const before = await lexical(reopened);
    reopened.close();
    const b = await RetrievalEngine.open(config(name), e.load);
    expect(await lexical(b)).toEqual(before);
    b.close();

    // Shards written before segments existed (or by other tokenizer rules): their chunks are tokenized on load instead.
    const store = await IndexStore.open(name);
    const db = (store as unknown as { db: IDBPDatabase<ThreadlineDB> }).db;
    const shards = await db.getAll('shards');
    expect(shards.every((shard) => shard.lexical !== undefined)).toBe(true);
    for (const [i, shard] of shards.entries()) {
      if (i % 2 === 0) delete shard.lexical;
      else if (shard.lexical) shard.lexical = { ...shard.lexical, version: -1 };
      await db.put('shards', shard);
    }
    store.close();
    const c = await RetrievalEngine.open(config(name), e.load);
    expect(await lexical(c)).toEqual(before);
    c.close();
    expect(e.counter.texts).toBeGreaterThan(0); // only the adds embedded; the reopens never did
  });

  it('re-adding an unchanged document is a no-op; a changed one replaces its chunks', async () => {
    const name = `engine-${unique++}`;
    const e = countingEmbedder();
    const engine = await RetrievalEngine.open(config(name), e.load);
    await engine.add(docs);
    const before = e.counter.texts;
    expect(await engine.add(docs)).toMatchObject({ added: 0, unchanged: docs.length });
    expect(e.counter.texts).toBe(before);
    const keysBefore = engine.chunkKeys();
    await engine.add([{ id: 'refunds', text: 'Refunds now take 90 days to process.', title: 'Refund policy' }]);
    const after = engine.chunkKeys();
    expect(after.length).toBe(keysBefore.length - 3 + 1);
    const top = await engine.search('refund processing days', { k: 1, filter: { docIds: ['refunds'] } });
    expect(top[0]?.text).toBe('Refunds now take 90 days to process.');
    engine.close();
  });

  it('a second instance whose memory is stale (another tab committed) still replaces the stored document: counts and live slots stay exact', async () => {
    const name = `engine-${unique++}`;
    const a = await RetrievalEngine.open(config(name), countingEmbedder().load);
    const b = await RetrievalEngine.open(config(name), countingEmbedder().load);
    await a.add(docs);
    // b opened before a's commit: its memory does not know 'refunds', so only the stored manifest can tell it to read and delete it.
    await b.add([{ id: 'refunds', text: 'Refunds now take 90 days to process.', title: 'Refund policy' }]);
    // The same text again, seen from a (stale or refreshed): unchanged, not a second copy.
    expect(await a.add([{ id: 'refunds', text: 'Refunds now take 90 days to process.', title: 'Refund policy' }])).toMatchObject({ added: 0, unchanged: 1 });
    a.close();
    b.close();
    const store = await IndexStore.open(name);
    const stored = await store.load();
    const manifest = await store.manifest();
    store.close();
    expect(stored.problems).toEqual([]);
    expect(stored.docs.filter((d) => d.id === 'refunds').map((d) => d.chunks.map((c) => c.text))).toEqual([['Refunds now take 90 days to process.']]);
    expect(manifest?.docCount).toBe(docs.length);
    expect(manifest?.chunkCount).toBe(stored.chunks.length);
    // A slot counted live must belong to a stored chunk: a document overwritten without its old chunks deleted would leave them counted.
    expect(Object.values(manifest?.shardLive ?? {}).reduce((n, v) => n + v, 0)).toBe(stored.chunks.length);
  });

  it('lists documents with chunk counts, removes and clears, and all survive a reopen', async () => {
    const name = `engine-${unique++}`;
    const e = countingEmbedder();
    const a = await RetrievalEngine.open(config(name), e.load);
    await a.add(docs);
    const listed = await a.documents();
    expect(listed.map((d) => d.id)).toEqual(docs.map((d) => d.id).sort());
    expect(listed.find((d) => d.id === 'refunds')).toEqual({ id: 'refunds', title: 'Refund policy', url: '/help/refunds', chunks: 3 });
    expect(listed.reduce((n, d) => n + d.chunks, 0)).toBe((await a.stats()).chunks);
    expect(await a.remove(['refunds', 'nope'])).toBe(3);
    a.close();
    const b = await RetrievalEngine.open(config(name), e.load);
    expect((await b.documents()).map((d) => d.id)).toEqual(docs.map((d) => d.id).filter((id) => id !== 'refunds').sort());
    expect((await b.search('refund window', { k: 20 })).some((h) => h.docId === 'refunds')).toBe(false);
    await b.clear();
    b.close();
    const c = await RetrievalEngine.open(config(name), e.load);
    expect((await c.stats()).chunks).toBe(0);
    expect(await c.search('refund', { k: 3 })).toEqual([]);
    c.close();
  });

  it('refuses to open with another model (typed error), and rebuilds when asked', async () => {
    const name = `engine-${unique++}`;
    const e = countingEmbedder();
    const a = await RetrievalEngine.open(config(name), e.load);
    await a.add(docs.slice(0, 2));
    const storedChunks = (await a.stats()).chunks;
    a.close();
    await expect(RetrievalEngine.open(config(name, { modelId: 'other-model#fp32' }), e.load)).rejects.toMatchObject({ code: 'MODEL_MISMATCH' });
    // "Rebuild" with a model that reports another identity: a fake at the Embedder seam.
    const renamed = async (): Promise<Embedder> => ({ ...(await e.load()), modelId: 'renamed#fp32' });
    const b = await RetrievalEngine.open(config(name, { modelId: 'renamed#fp32', onModelMismatch: 'rebuild' }), renamed);
    expect((await b.stats()).chunks).toBe(storedChunks);
    expect((await b.stats()).embeddedChunks).toBe(storedChunks);
    b.close();
    const c = await RetrievalEngine.open(config(name, { modelId: 'renamed#fp32' }), renamed);
    expect((await c.stats()).modelId).toBe('renamed#fp32');
    c.close();
  });

  it('an index of an earlier release\'s offline model (#fp32) is re-embedded with today\'s on open, without being asked; another model\'s is still refused (renamed model: a fake at the Embedder seam)', async () => {
    // Before: MODEL_MISMATCH unless the page passed onModelMismatch: "rebuild", for vectors nobody chose.
    const name = `engine-${unique++}`;
    const e = countingEmbedder();
    const old = async (): Promise<Embedder> => ({ ...(await e.load()), modelId: 'threadline-glove-30k#fp32' });
    const a = await RetrievalEngine.open(config(name, { modelId: 'threadline-glove-30k#fp32' }), old);
    await a.add(docs.slice(0, 2));
    const storedChunks = (await a.stats()).chunks;
    const hits = (await a.search('how long does a refund take to process?', { k: 3 })).map((h) => h.text); // a rebuild gives chunks new keys
    a.close();
    const events: string[] = [];
    const b = await RetrievalEngine.open(config(name), e.load, (p) => events.push(p.phase));
    expect(await b.stats()).toMatchObject({ modelId: MODEL_ID, chunks: storedChunks, embeddedChunks: storedChunks, docs: 2 });
    expect(events).toContain('rebuild');
    expect((await b.search('how long does a refund take to process?', { k: 3 })).map((h) => h.text)).toEqual(hits);
    b.close();
    // Opened again: nothing left to re-embed.
    const again = countingEmbedder();
    const c = await RetrievalEngine.open(config(name), again.load);
    expect((await c.stats()).embeddedChunks).toBe(0);
    expect(again.counter.texts).toBe(0);
    c.close();
    // Only the offline model replaces its own earlier vectors: a configured model of another name refuses them.
    const d = `engine-${unique++}`;
    const first = await RetrievalEngine.open(config(d, { modelId: 'threadline-glove-30k#fp32' }), old);
    await first.add(docs.slice(0, 1));
    first.close();
    const renamed = async (): Promise<Embedder> => ({ ...(await e.load()), modelId: 'renamed#fp32' });
    await expect(RetrievalEngine.open(config(d, { modelId: 'renamed#fp32' }), renamed)).rejects.toMatchObject({ code: 'MODEL_MISMATCH' });
  });

  it('a rebuild found needed while this tab holds the write lock (another tab wrote another model\'s vectors) writes under it and settles (renamed model: a fake at the Embedder seam)', async () => {
    // Before: remove() reloaded under the write lock and the rebuild asked for the same lock again: it never settled.
    const name = `engine-${unique++}`;
    const e = countingEmbedder();
    const a = await RetrievalEngine.open(config(name, { onModelMismatch: 'rebuild' }), e.load);
    await a.add(docs);
    const db = await openDB(`threadline:${name}`);
    const manifest = (await db.get('meta', 'manifest')) as { generation: number; modelId: string };
    await db.put('meta', { ...manifest, modelId: 'renamed#fp32', generation: manifest.generation + 1 }, 'manifest');
    db.close();
    const removing = a.remove(['plans']);
    expect(await settledWithin(removing, 5000)).toBe(true);
    await removing; // and it resolved
    expect(await a.stats()).toMatchObject({ modelId: MODEL_ID, docs: docs.length - 1 });
    a.close();
  });

  it('an index with documents but no vectors (blank texts) accepts another model, on open and on the next add (renamed model: a fake at the Embedder seam)', async () => {
    const name = `engine-${unique++}`;
    const e = countingEmbedder();
    const a = await RetrievalEngine.open(config(name), e.load);
    expect(await a.add([{ id: 'blank', text: ' \n\t ' }])).toMatchObject({ added: 1, chunks: 0, empty: ['blank'] });
    a.close();
    const renamed = async (): Promise<Embedder> => ({ ...(await e.load()), modelId: 'renamed#fp32' });
    const b = await RetrievalEngine.open(config(name, { modelId: 'renamed#fp32' }), renamed);
    expect(await b.add(docs.slice(0, 1))).toMatchObject({ added: 1 });
    expect(await b.stats()).toMatchObject({ modelId: 'renamed#fp32', docs: 2 });
    b.close();
  });

  it('aborts between batches and leaves no partial document', async () => {
    const name = `engine-${unique++}`;
    const e = countingEmbedder();
    const engine = await RetrievalEngine.open(config(name, { chunking: { maxTokens: 16, overlapTokens: 0 } }), e.load);
    const many = Array.from({ length: 60 }, (_, i) => ({ id: `d${i}`, text: Array.from({ length: 40 }, (_, j) => `Sentence ${j} about topic ${i}.`).join(' ') }));
    const controller = new AbortController();
    const run = engine.add(many, { signal: controller.signal, onProgress: (p) => { if (p.phase === 'ingest' && p.docsDone > 0) controller.abort(); } });
    await expect(run).rejects.toMatchObject({ code: 'ABORTED' });
    engine.close();
    const store = await IndexStore.open(name);
    const stored = await store.load();
    for (const doc of stored.docs) expect(stored.chunks.filter((c) => c.docId === doc.id).map((c) => c.key)).toEqual(doc.chunkKeys);
    expect(new Set(stored.chunks.map((c) => c.key)).size).toBe(stored.chunks.length);
    expect(stored.docs.length).toBeGreaterThan(0);
    expect(stored.docs.length).toBeLessThan(many.length);
    store.close();
  });

  it('rejects bad documents and queries with typed errors, before writing anything', async () => {
    const engine = await RetrievalEngine.open(config(`engine-${unique++}`), countingEmbedder().load);
    for (const bad of [null, [{ id: '', text: 'x' }], [{ id: 'a', text: 5 }], [{ id: 'a', text: new Uint8Array(3) }], [{ id: 'a', text: 'x', metadata: { nested: {} } }], [{ id: 'a', text: 'x', format: 'pdf' }]]) {
      await expect(engine.add(bad)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    }
    for (const q of ['', '   ', 42]) await expect(engine.search(q)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(engine.search('x', { k: 0 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect((await engine.stats()).docs).toBe(0);
    const r = await engine.add([{ id: 'blank', text: '   \n ' }, { id: 'ok', text: 'Refunds take five days.' }]);
    expect(r.empty).toEqual(['blank']);
    engine.close();
  });

  it('compaction moves vectors without rewriting a document: merged shards are aliased, removals after it count right, and a second compaction of aliased, half-dead shards keeps every live chunk', async () => {
    const name = `engine-${unique++}`;
    const engine = await RetrievalEngine.open(config(name), countingEmbedder().load);
    for (let i = 0; i < 8; i++) await engine.add([{ id: `doc${i}`, text: `Note ${i} about offline sync and refunds.` }]);
    const open = async () => {
      const store = await IndexStore.open(name);
      const [stored, manifest] = [await store.load(), await store.manifest()];
      store.close();
      return { stored, manifest: manifest as NonNullable<typeof manifest> };
    };
    const merged = await open();
    expect(Object.keys(merged.manifest.shardLive)).toHaveLength(1); // eight one-chunk shards became one
    // Every document still names the shard its chunk was first written to; the manifest maps it to the merged one.
    for (const doc of merged.stored.docs) expect(merged.manifest.shardAlias?.[doc.chunkShards[0] as number]).toBe(Number(Object.keys(merged.manifest.shardLive)[0]));
    expect(merged.stored.problems).toEqual([]);
    const before = await engine.search('offline sync refunds note 4', { k: 3 });

    // Removals resolve the alias: the merged shard's live count falls.
    await engine.remove(['doc0', 'doc1', 'doc2', 'doc3', 'doc4']);
    const removed = await open();
    expect(Object.values(removed.manifest.shardLive)).toEqual([3]);
    // More small commits: the half-dead merged shard is compacted again with them; its three live chunks survive.
    for (let i = 8; i < 15; i++) await engine.add([{ id: `doc${i}`, text: `Note ${i} about offline sync and refunds.` }]);
    const again = await open();
    expect(again.stored.problems).toEqual([]);
    expect(Object.keys(again.manifest.shardLive)).toHaveLength(1);
    expect(again.stored.chunks.map((c) => c.docId).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `doc${i + 5}`).sort());
    expect(Object.values(again.manifest.shardLive).reduce((n, v) => n + v, 0)).toBe(10);
    expect(again.manifest.shardSlots[Number(Object.keys(again.manifest.shardLive)[0])]).toBe(10); // the five dead slots are gone
    // No chain: every alias points at a shard that exists.
    for (const to of Object.values(again.manifest.shardAlias ?? {})) expect(again.manifest.shardLive[to]).toBeGreaterThan(0);
    engine.close();
    const reopened = await RetrievalEngine.open(config(name), countingEmbedder().load);
    expect(reopened.chunkKeys()).toEqual(engine.chunkKeys());
    expect((await reopened.search('offline sync refunds note 8', { k: 3 })).map((h) => h.docId)).toContain('doc8');
    expect(before.map((h) => h.docId)).toContain('doc4');
    reopened.close();
  });

  it('a compaction that merges a shard with postings from before segments (tokenized again) with current ones stores postings for every slot', async () => {
    const name = `engine-${unique++}`;
    const engine = await RetrievalEngine.open(config(name), countingEmbedder().load);
    for (let i = 0; i < 7; i++) await engine.add([{ id: `doc${i}`, text: `Note ${i} about offline sync and refunds number ${i}.` }]);
    engine.close();
    const store = await IndexStore.open(name);
    const db = (store as unknown as { db: IDBPDatabase<ThreadlineDB> }).db;
    const [legacy] = await db.getAll('shards');
    if (!legacy) throw new Error('no shard');
    delete legacy.lexical; // as written before segments existed
    await db.put('shards', legacy);
    store.close();
    const again = await RetrievalEngine.open(config(name), countingEmbedder().load);
    const before = await again.search('offline sync refunds number 3', { k: 8, mode: 'lexical' });
    await again.add([{ id: 'doc7', text: 'Note 7 about offline sync and refunds number 7.' }]); // the eighth small shard: compaction
    again.close();
    const check = await IndexStore.open(name);
    const shards = await (check as unknown as { db: IDBPDatabase<ThreadlineDB> }).db.getAll('shards');
    check.close();
    expect(shards).toHaveLength(1);
    const [merged] = shards;
    expect(isCurrentSegment(merged?.lexical, merged?.keys.length ?? -1)).toBe(true);
    const reopened = await RetrievalEngine.open(config(name), countingEmbedder().load);
    expect((await reopened.search('offline sync refunds number 3', { k: 8, mode: 'lexical' })).slice(0, before.length).map((h) => h.docId)).toEqual(before.map((h) => h.docId));
    reopened.close();
  });

  it('past the alias limit, a compaction writes the current shards into the documents and drops the aliases', async () => {
    const name = `engine-${unique++}`;
    const engine = await RetrievalEngine.open(config(name), countingEmbedder().load);
    for (let i = 0; i < 15; i++) await engine.add([{ id: `doc${i}`, text: `Note ${i} about offline sync and refunds.` }]);
    engine.close();
    const store = await IndexStore.open(name);
    const before = await store.manifest();
    // Two compactions (after the 8th and the 15th add): sixteen shards merged away, all now in one.
    expect(Object.keys(before?.shardAlias ?? {})).toHaveLength(16);
    expect(await store.compact({ merge: mergeSegments, usable: isCurrentSegment }, { maxAliases: 4 })).toBe(0); // nothing to merge, aliases settled
    const after = await store.manifest();
    const stored = await store.load();
    store.close();
    expect(after?.shardAlias).toEqual({});
    expect(stored.problems).toEqual([]);
    expect(stored.chunks).toHaveLength(15);
    const [only] = Object.keys(after?.shardLive ?? {}).map(Number);
    for (const doc of stored.docs) expect(doc.chunkShards).toEqual([only]);
  });

  it('compacts many small commits into few shards', async () => {
    const name = `engine-${unique++}`;
    const engine = await RetrievalEngine.open(config(name), countingEmbedder().load);
    for (let i = 0; i < 20; i++) await engine.add([{ id: `doc${i}`, text: `Note ${i} about offline sync and refunds.` }]);
    const stats = await engine.stats();
    expect(stats.shards).toBeLessThan(10);
    expect(stats.chunks).toBe(20);
    engine.close();
    const reopened = await RetrievalEngine.open(config(name), countingEmbedder().load);
    expect(reopened.chunkKeys()).toEqual(engine.chunkKeys());
    reopened.close();
  });
});

describe('embedder fallback (configured model unreachable)', () => {
  it('loads the offline model instead and reports it; an index of another model is never mixed', async () => {
    const { loadWithFallback } = await import('../../src/embedding/load-embedder');
    const events: unknown[] = [];
    const missing = { model: '/no/such/model-folder/' };
    const e = await loadWithFallback({ ...missing, offlineModel: MODEL }, { onProgress: (p) => events.push(p) });
    expect(e.modelId).toBe('threadline-glove-30k#int8-v2');
    expect(events[0]).toMatchObject({ phase: 'model-fallback', from: '/no/such/model-folder/', to: 'threadline-glove-30k' });
    await expect(loadWithFallback({ ...missing, fallback: false, offlineModel: MODEL }, {})).rejects.toMatchObject({ code: 'MODEL_LOAD_FAILED' });

    // A fresh index adopts the fallback model; the manifest then records it.
    const name = `fallback-${unique++}`;
    const engine = await RetrievalEngine.open(config(name, { modelId: embedderIdentity(missing) }), () => loadWithFallback({ ...missing, offlineModel: MODEL }, {}));
    await engine.add(docs.slice(0, 1));
    expect((await engine.stats()).modelId).toBe('threadline-glove-30k#int8-v2');
    engine.close();
  });
});

describe('embedder fallback where only the configured model will do', () => {
  // The configured model's file is missing (in a browser: a folder without onnx/model_quantized.onnx, which WASM's dtype 'auto' asks for).
  const missing = { model: '/no/such/model-folder/' };
  const fallingBack = async () => (await import('../../src/embedding/load-embedder')).loadWithFallback({ ...missing, offlineModel: MODEL }, {});
  /** A file as `threadline index --model /no/such/model-folder/` writes it where that model loads: its identity, the same 100 dimensions as the offline model. */
  async function builtWithConfigured(): Promise<Uint8Array> {
    const offline = await loadEmbedder({ model: MODEL });
    const configured: Embedder = { modelId: embedderIdentity(missing), dims: offline.dims, maxTokens: offline.maxTokens, countTokens: (t) => offline.countTokens(t), embed: (t, o) => offline.embed(t, o) };
    return buildPrebuiltIndex(docs.slice(0, 2), configured);
  }

  it('loading a prebuilt file built with the configured model: MODEL_LOAD_FAILED saying why that model failed, not a MODEL_MISMATCH naming the offline model; nothing stored', async () => {
    const name = `fallback-${unique++}`;
    const engine = await RetrievalEngine.open(config(name, { modelId: embedderIdentity(missing) }), fallingBack);
    const error = await engine.loadPrebuilt(await builtWithConfigured(), { url: '/site.tlix' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'MODEL_LOAD_FAILED', details: { configured: embedderIdentity(missing), fallback: 'threadline-glove-30k#int8-v2' } });
    expect((error as Error).message).toMatch(/"\/no\/such\/model-folder\/" could not be loaded \(.*model-folder\/config\.json.*\), and the prebuilt index was built with it, so the offline model cannot stand in/);
    expect((error as Error).cause).toMatchObject({ code: 'MODEL_LOAD_FAILED' });
    expect((await engine.stats()).docs).toBe(0);
    // The index still takes documents with the stand-in, as a fresh index does.
    await engine.add(docs.slice(0, 1));
    expect((await engine.stats()).modelId).toBe('threadline-glove-30k#int8-v2');
    engine.close();
  });

  it('after the offline model stood in for an add(), a file built with the configured model is still refused with why that model failed; once it loads, the file loads', async () => {
    const name = `fallback-${unique++}`;
    const offline = await loadEmbedder({ model: MODEL });
    const configured: Embedder = { modelId: embedderIdentity(missing), dims: offline.dims, maxTokens: offline.maxTokens, countTokens: (t) => offline.countTokens(t), embed: (t, o) => offline.embed(t, o) };
    let reachable = false;
    const engine = await RetrievalEngine.open(config(name, { modelId: embedderIdentity(missing) }), () => (reachable ? Promise.resolve(configured) : fallingBack()));
    await engine.add(docs.slice(2, 3)); // an empty index takes the stand-in
    expect((await engine.stats()).modelId).toBe('threadline-glove-30k#int8-v2');
    const file = await builtWithConfigured();
    // Before: MODEL_MISMATCH "built with /no/such/model-folder/#auto but this index uses threadline-glove-30k#int8-v2".
    await expect(engine.loadPrebuilt(file)).rejects.toMatchObject({ code: 'MODEL_LOAD_FAILED', message: expect.stringMatching(/could not be loaded \(.*\), and the prebuilt index was built with it/) as string });
    reachable = true; // back online: the next call loads the configured model
    expect(await engine.loadPrebuilt(file)).toMatchObject({ loaded: true, docs: 2 });
    expect(await engine.stats()).toMatchObject({ modelId: embedderIdentity(missing), docs: 2 });
    expect((await engine.search('how long does a refund take?', { k: 1 })).length).toBe(1);
    engine.close();
  });

  it('onModelMismatch "rebuild" to a model that fails to load: MODEL_LOAD_FAILED with the reason; the stored vectors are kept, not re-embedded with the offline model', async () => {
    const name = `fallback-${unique++}`;
    const first = await RetrievalEngine.open(config(name), countingEmbedder().load);
    await first.add(docs.slice(0, 2));
    const before = first.chunkKeys();
    first.close();
    const error = await RetrievalEngine.open(config(name, { modelId: embedderIdentity(missing), onModelMismatch: 'rebuild' }), fallingBack).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'MODEL_LOAD_FAILED', message: expect.stringMatching(/could not be loaded \(.*\), and the index is to be rebuilt with it/) as string });
    const reopened = await RetrievalEngine.open(config(name), countingEmbedder().load);
    expect((await reopened.stats()).modelId).toBe('threadline-glove-30k#int8-v2');
    expect(reopened.chunkKeys()).toEqual(before);
    reopened.close();
  });
});

describe('a batch with unusable documents (skipInvalid)', () => {
  it('indexes the usable ones and reports the others by position and id; without the option the batch is refused whole', async () => {
    const e = countingEmbedder();
    const engine = await RetrievalEngine.open(config(`engine-${unique++}`), e.load);
    const batch = [docs[0], { id: 'bad', text: 42 }, { text: 'no id' }, docs[1]];
    await expect(engine.add(batch)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect((await engine.stats()).docs).toBe(0);
    const result = await engine.add(batch, { skipInvalid: true });
    expect(result.added).toBe(2);
    expect(result.failed.map((f) => [f.index, f.id])).toEqual([[1, 'bad'], [2, undefined]]);
    expect(result.failed.every((f) => f.code === 'INVALID_INPUT' && f.message.length > 0)).toBe(true);
    engine.close();
  });
});

describe('while the embedding model downloads (a held loader at the Embedder seam, the real offline model behind it)', () => {
  /** The real model, handed over only when `release()` is called: a first visit on a slow connection. */
  function heldModel() {
    let release!: () => void;
    const gate = new Promise<void>((ok) => { release = ok; });
    const load = async (): Promise<Embedder> => { await gate; return loadEmbedder({ model: MODEL }); };
    return { load, release };
  }

  it("a prebuilt index of the built-in model loads without waiting for it (its size is known); modelPending: 'lexical' ranks by words once 250 ms have passed, marked; 'wait' waits", async () => {
    const file = await buildPrebuiltIndex(docs, await loadEmbedder({ model: MODEL }));
    const held = heldModel();
    const engine = await RetrievalEngine.open(config(`pending-${unique++}`, { knownDims: 100 }), held.load);
    expect(await engine.loadPrebuilt(file, { url: '/site.tlix' })).toMatchObject({ loaded: true, docs: docs.length });
    const question = 'how long does a refund take to process?';
    const words = await engine.search(question, { k: 3, modelPending: 'lexical' });
    const lexical = await engine.search(question, { k: 3, mode: 'lexical' });
    expect(words.map((h) => h.chunkKey)).toEqual(lexical.map((h) => h.chunkKey));
    expect(words.every((h) => h.lexicalOnly === true && h.dense === undefined)).toBe(true);
    expect((await engine.stats()).embeddedQueries).toBe(0);
    // 'wait' (the default) waits for the model, then ranks with it.
    let waited = false;
    const hybrid = engine.search(question, { k: 3 }).then((hits) => { waited = true; return hits; });
    await new Promise((r) => setTimeout(r, 50));
    expect(waited).toBe(false);
    held.release();
    const ranked = await hybrid;
    expect(ranked.every((h) => h.lexicalOnly === undefined && h.dense !== undefined)).toBe(true);
    // Loaded: 'lexical' searches with the model too.
    expect((await engine.search(question, { k: 3, modelPending: 'lexical' })).every((h) => h.lexicalOnly === undefined && h.dense !== undefined)).toBe(true);
    await expect(engine.search(question, { modelPending: 'soon' as never })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/modelPending must be wait or lexical/) as string });
    engine.close();
  });

  it("a model that arrives within the grace period (a reload reads it from the cache) is waited for: modelPending: 'lexical' then ranks with it", async () => {
    const file = await buildPrebuiltIndex(docs, await loadEmbedder({ model: MODEL }));
    const engine = await RetrievalEngine.open(config(`pending-${unique++}`, { knownDims: 100 }), async () => {
      await new Promise((r) => setTimeout(r, 60));
      return loadEmbedder({ model: MODEL });
    });
    await engine.loadPrebuilt(file);
    const hits = await engine.search('how long does a refund take to process?', { k: 3, modelPending: 'lexical' });
    expect(hits.every((h) => h.lexicalOnly === undefined && h.dense !== undefined)).toBe(true);
    engine.close();
  });

  it('an abort while a search waits for a model still loading stops it at once (ABORTED), not at the end of the wait', async () => {
    const file = await buildPrebuiltIndex(docs, await loadEmbedder({ model: MODEL }));
    const held = heldModel();
    const engine = await RetrievalEngine.open(config(`pending-${unique++}`, { knownDims: 100 }), held.load);
    await engine.loadPrebuilt(file);
    const started = performance.now();
    await expect(engine.search('refund window', { modelPending: 'lexical', signal: AbortSignal.timeout(20) })).rejects.toMatchObject({ code: 'ABORTED' });
    expect(performance.now() - started).toBeLessThan(200);
    held.release();
    engine.close();
  });

  it('without a known size, loading a prebuilt index waits for the model, as before', async () => {
    const file = await buildPrebuiltIndex(docs.slice(0, 2), await loadEmbedder({ model: MODEL }));
    const held = heldModel();
    const engine = await RetrievalEngine.open(config(`pending-${unique++}`), held.load);
    let loaded = false;
    const loading = engine.loadPrebuilt(file).then((r) => { loaded = true; return r; });
    await new Promise((r) => setTimeout(r, 50));
    expect(loaded).toBe(false);
    held.release();
    expect(await loading).toMatchObject({ loaded: true, docs: 2 });
    engine.close();
  });

  it('a model that failed to load is loaded again and waited for, so its error reaches the search', async () => {
    const file = await buildPrebuiltIndex(docs, await loadEmbedder({ model: MODEL }));
    let calls = 0;
    const engine = await RetrievalEngine.open(config(`pending-${unique++}`, { knownDims: 100 }), async () => {
      calls++;
      if (calls <= 2) throw new Error(`offline (attempt ${calls})`);
      return loadEmbedder({ model: MODEL });
    });
    await engine.loadPrebuilt(file);
    await new Promise((r) => setTimeout(r, 10)); // the load started at open has failed
    await expect(engine.search('refund window', { modelPending: 'lexical' })).rejects.toThrow(/offline \(attempt 2\)/);
    const hits = await engine.search('refund window', { modelPending: 'lexical' });
    expect(calls).toBe(3);
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => h.lexicalOnly === undefined && h.dense !== undefined)).toBe(true);
    engine.close();
  });
});
