import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Embedder } from '../../src/embedding/embedder';
import { embedderIdentity } from '../../src/embedding/load-embedder';
import { buildPrebuiltIndex } from '../../src/prebuilt/build';
import { assertLoadableSize, decodePrebuilt, MAX_INDEX_BYTES, readPrebuiltHeader } from '../../src/prebuilt/format';
import { RetrievalEngine } from '../../src/worker/retrieval-engine';
import { MODEL, SAMPLE_DOCS, samplePrebuilt } from '../fixtures/engine';

const docs = SAMPLE_DOCS;
let embedder: Embedder;
let file: Uint8Array;
let unique = 0;

beforeAll(async () => {
  ({ embedder, file } = await samplePrebuilt());
});

const open = (name: string, modelId = embedderIdentity({ model: MODEL })) => {
  const counter = { texts: 0 };
  const load = (): Promise<Embedder> => Promise.resolve({ ...embedder, modelId, countTokens: (t) => embedder.countTokens(t), embed: (t, o) => { counter.texts += t.length; return embedder.embed(t, o); } });
  return RetrievalEngine.open({ name, modelId, chunking: {}, int8: false, weights: { dense: 1, lexical: 1 }, onModelMismatch: 'error' }, load).then((engine) => ({ engine, counter }));
};

describe('prebuilt index file', () => {
  it('an index no browser would load (over 1 GiB) is refused when built, saying what to do', () => {
    expect(() => assertLoadableSize(MAX_INDEX_BYTES)).not.toThrow();
    let error: unknown;
    try { assertLoadableSize(MAX_INDEX_BYTES + 1); } catch (e) { error = e; }
    expect(error).toMatchObject({ code: 'INVALID_INPUT', details: { bytes: MAX_INDEX_BYTES + 1, max: MAX_INDEX_BYTES } });
    expect((error as Error).message).toMatch(/1\.00 GiB.*at most 1 GiB.*split them into several indexes/);
  });

  it('round-trips header, documents, chunks and vectors', async () => {
    const decoded = await decodePrebuilt(file);
    expect(decoded.header).toMatchObject({ format: 1, modelId: 'threadline-glove-30k#int8-v2', dims: 100, docs: docs.length });
    expect(decoded.chunks.length).toBe(decoded.header.chunks);
    expect(decoded.vectors.length).toBe(decoded.header.chunks * 100);
    expect(decoded.chunks[0]).toMatchObject({ docId: 'refunds', headingPath: ['Refund policy', 'Refund window'] });
  });

  it.each([
    ['a flipped byte in the payload', (b: Uint8Array) => { const c = b.slice(); c[c.length - 10] = (c[c.length - 10] ?? 0) ^ 0xff; return c; }],
    ['a truncated file', (b: Uint8Array) => b.slice(0, b.length - 100)],
    ['a wrong signature', (b: Uint8Array) => { const c = b.slice(); c[0] = 0; return c; }],
    ['an unknown format version', (b: Uint8Array) => { const text = new TextDecoder().decode(b); return new TextEncoder().encode(text.replace('"format":1', '"format":9')); }],
    ['not an index at all', () => new TextEncoder().encode('<html>404</html>')],
  ])('rejects %s with CORRUPT_INDEX', async (_label, damage) => {
    await expect(decodePrebuilt(damage(file))).rejects.toMatchObject({ code: 'CORRUPT_INDEX' });
  });

  it('loads without embedding, is a no-op the second time, and a newer file replaces the old', async () => {
    const name = `prebuilt-${unique++}`;
    const { engine, counter } = await open(name);
    expect(await engine.loadPrebuilt(file)).toMatchObject({ loaded: true, docs: docs.length });
    expect(counter.texts).toBe(0);
    const hits = await engine.search('how long does a refund take to reach my card?', { k: 1 });
    expect(hits[0]?.headingPath).toEqual(['Refund policy', 'Refund processing time']);
    expect(await engine.loadPrebuilt(file)).toMatchObject({ loaded: false });
    const newer = await buildPrebuiltIndex(docs.slice(0, 2), embedder);
    expect(await engine.loadPrebuilt(newer)).toMatchObject({ loaded: true, docs: 2 });
    expect((await engine.stats()).docs).toBe(2);
    // Re-adding a document the file already holds is a no-op (same content hash).
    expect(await engine.add(docs.slice(0, 1))).toMatchObject({ added: 0, unchanged: 1 });
    engine.close();
  });

  it('a corrupt or mismatched file leaves the stored index unchanged', async () => {
    const name = `prebuilt-${unique++}`;
    const { engine } = await open(name);
    await engine.loadPrebuilt(file);
    const before = await engine.search('refund window', { k: 3 });
    const corrupt = file.slice();
    corrupt[corrupt.length - 1] = (corrupt[corrupt.length - 1] ?? 0) ^ 1;
    await expect(engine.loadPrebuilt(corrupt)).rejects.toMatchObject({ code: 'CORRUPT_INDEX' });
    // Loaded from a URL, the error names the file, as every other load failure does.
    const named = await engine.loadPrebuilt(corrupt, { url: 'https://site.example/help/site.tlix' }).then(() => { throw new Error('expected a rejection'); }, (e: unknown) => e as { code: string; message: string; details: unknown });
    expect(named).toMatchObject({ code: 'CORRUPT_INDEX', details: { url: 'https://site.example/help/site.tlix' } });
    expect(named.message).toMatch(/^The prebuilt index https:\/\/site\.example\/help\/site\.tlix is not valid: .+\. Rebuild it with `npx threadline index`/);
    expect(await engine.search('refund window', { k: 3 })).toEqual(before);
    engine.close();
    // An index that uses another model refuses the file and keeps what it has.
    const other = await open(`prebuilt-${unique++}`, 'another-model#fp32');
    await other.engine.add([{ id: 'own', text: 'An existing note about sync conflicts.' }]);
    await expect(other.engine.loadPrebuilt(file)).rejects.toMatchObject({ code: 'MODEL_MISMATCH' });
    expect((await other.engine.stats()).docs).toBe(1);
    other.engine.close();
    expect(readPrebuiltHeader(file).header.modelId).toBe('threadline-glove-30k#int8-v2');
  });

  it('a file built with an earlier release\'s offline model (#fp32) is refused, saying to build it again; the index keeps what it has (renamed model: a fake at the Embedder seam)', async () => {
    const old = await buildPrebuiltIndex(SAMPLE_DOCS.slice(0, 2), { ...embedder, modelId: 'threadline-glove-30k#fp32', countTokens: (t) => embedder.countTokens(t), embed: (t, o) => embedder.embed(t, o) });
    const { engine } = await open(`prebuilt-${unique++}`);
    await engine.add([{ id: 'own', text: 'An existing note about sync conflicts.' }]);
    const error = await engine.loadPrebuilt(old, { url: '/site.tlix' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'MODEL_MISMATCH', details: { reason: 'superseded', stored: { modelId: 'threadline-glove-30k#fp32' }, requested: { modelId: 'threadline-glove-30k#int8-v2' } } });
    expect((error as Error).message).toMatch(/earlier release's offline model .*Build the file again with this release \(`npx threadline index`/);
    expect((await engine.stats()).docs).toBe(1);
    engine.close();
  });
});

describe('which file an index name holds (onOtherSource)', () => {
  const A = 'https://docs.example/a/site.tlix';
  const B = 'https://docs.example/b/site.tlix';

  it("with 'error', a name holding one file's index refuses another file's and keeps its own; the same file under a cache-busting query is the same source", async () => {
    const { engine } = await open(`prebuilt-${unique++}`);
    expect(await engine.loadPrebuilt(file, { url: A, onOtherSource: 'error' })).toMatchObject({ loaded: true });
    expect((await engine.stats()).source).toBe(A);
    const before = await engine.search('refund window', { k: 3 });
    const other = await buildPrebuiltIndex(docs.slice(0, 2), embedder);
    const refused = await engine.loadPrebuilt(other, { url: B, onOtherSource: 'error' }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'NAME_IN_USE', details: { stored: A, requested: B } });
    expect((refused as Error).message).toMatch(/already holds another index \(https:\/\/docs\.example\/a\/site\.tlix\).*its own name/);
    expect(await engine.stats()).toMatchObject({ docs: docs.length, source: A });
    expect(await engine.search('refund window', { k: 3 })).toEqual(before);
    // A newer version of the same file (a redeploy, fetched with a cache buster) replaces it.
    expect(await engine.loadPrebuilt(other, { url: `${A}?v=2#top`, onOtherSource: 'error' })).toMatchObject({ loaded: true, docs: 2 });
    expect((await engine.stats()).source).toBe(A);
    // The default replaces whatever the name holds, and records the new source.
    expect(await engine.loadPrebuilt(file, { url: B })).toMatchObject({ loaded: true });
    expect(await engine.stats()).toMatchObject({ docs: docs.length, source: B });
    engine.close();
  });

  it('an index loaded before sources were recorded is claimed by the first URL that loads it, even when nothing is decoded', async () => {
    const name = `prebuilt-${unique++}`;
    const { engine } = await open(name);
    await engine.loadPrebuilt(file);
    expect((await engine.stats()).source).toBeUndefined();
    const other = await buildPrebuiltIndex(docs.slice(0, 2), embedder);
    // The same bytes again: a no-op that records where they came from.
    expect(await engine.loadPrebuilt(file, { url: A, onOtherSource: 'error' })).toMatchObject({ loaded: false });
    expect((await engine.stats()).source).toBe(A);
    await expect(engine.loadPrebuilt(other, { url: B, onOtherSource: 'error' })).rejects.toMatchObject({ code: 'NAME_IN_USE' });
    engine.close();
    // Reopened (a reload), the source is read back from the manifest.
    const reopened = await open(name);
    expect((await reopened.engine.stats()).source).toBe(A);
    reopened.engine.close();
  });

  it("with 'error', documents added with add() are not replaced; an empty index takes any file", async () => {
    const { engine } = await open(`prebuilt-${unique++}`);
    await engine.add([{ id: 'own', text: 'A note of my own about sync conflicts.' }]);
    await expect(engine.loadPrebuilt(file, { url: A, onOtherSource: 'error' })).rejects.toMatchObject({ code: 'NAME_IN_USE', details: { stored: 'documents added with add()' } });
    expect((await engine.stats()).docs).toBe(1);
    await engine.clear();
    expect(await engine.loadPrebuilt(file, { url: A, onOtherSource: 'error' })).toMatchObject({ loaded: true });
    engine.close();
  });

  it("two instances of one name loading different files with 'error' at once: one index is stored, the other is refused", async () => {
    const name = `prebuilt-${unique++}`;
    const [first, second] = await Promise.all([open(name), open(name)]);
    const other = await buildPrebuiltIndex(docs.slice(0, 2), embedder);
    const results = await Promise.allSettled([
      first.engine.loadPrebuilt(file, { url: A, onOtherSource: 'error' }),
      second.engine.loadPrebuilt(other, { url: B, onOtherSource: 'error' }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(rejected?.reason).toMatchObject({ code: 'NAME_IN_USE' });
    const winner = results[0]?.status === 'fulfilled' ? A : B;
    const reopened = await open(name);
    expect((await reopened.engine.stats()).source).toBe(winner);
    for (const e of [first, second, reopened]) e.engine.close();
  });

  it('a recorded source of the wrong type (tampered) counts as none: read as absent, and replaced by the next URL that loads the file', async () => {
    const name = `prebuilt-${unique++}`;
    const { engine } = await open(name);
    await engine.loadPrebuilt(file, { url: A });
    engine.close();
    const db = await openDB(`threadline:${name}`);
    await db.put('meta', { ...(await db.get('meta', 'manifest') as object), source: { toString: 1 } }, 'manifest');
    db.close();
    const reopened = await open(name);
    expect((await reopened.engine.stats()).source).toBeUndefined();
    expect(await reopened.engine.loadPrebuilt(file, { url: B, onOtherSource: 'error' })).toMatchObject({ loaded: false });
    expect((await reopened.engine.stats()).source).toBe(B);
    reopened.engine.close();
  });

  it('load() refuses an unknown onOtherSource before fetching anything', async () => {
    const { engine } = await open(`prebuilt-${unique++}`);
    await expect(engine.load('https://docs.example/never-fetched.tlix', { onOtherSource: 'keep' as never })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    engine.close();
  });
});
