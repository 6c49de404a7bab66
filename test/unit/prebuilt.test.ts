import 'fake-indexeddb/auto';
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
    expect(decoded.header).toMatchObject({ format: 1, modelId: 'threadline-glove-30k#int8', dims: 100, docs: docs.length });
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
    expect(await engine.search('refund window', { k: 3 })).toEqual(before);
    engine.close();
    // An index that uses another model refuses the file and keeps what it has.
    const other = await open(`prebuilt-${unique++}`, 'another-model#fp32');
    await other.engine.add([{ id: 'own', text: 'An existing note about sync conflicts.' }]);
    await expect(other.engine.loadPrebuilt(file)).rejects.toMatchObject({ code: 'MODEL_MISMATCH' });
    expect((await other.engine.stats()).docs).toBe(1);
    other.engine.close();
    expect(readPrebuiltHeader(file).header.modelId).toBe('threadline-glove-30k#int8');
  });
});
