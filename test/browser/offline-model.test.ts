import { openDB } from 'idb';
import { afterAll, describe, expect, it } from 'vitest';
import { createThreadline } from '../../src/index';

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);

describe('offline model in the retrieval module worker (static path, no ONNX Runtime)', () => {
  const tl = createThreadline({ name: 'offline-model-test' });
  afterAll(async () => (await tl).dispose());

  it('loads the shipped int8 model and is semantic', async () => {
    const v = await (await tl).embed(['car repair garage', 'mechanic fixing automobiles', 'symptoms of breast cancer']);
    const dims = v.length / 3;
    expect(dims).toBe(100);
    const row = (i: number) => v.subarray(i * dims, (i + 1) * dims);
    expect(cosine(row(0), row(1)) - cosine(row(0), row(2))).toBeGreaterThan(0.3);
    expect(Math.abs(cosine(row(0), row(0)) - 1)).toBeLessThan(1e-4);
  });

  it('stores vectors as a Float32Array in IndexedDB and reads them back bit for bit', async () => {
    const v = await (await tl).embed(['refund window', 'damaged items']);
    const db = await openDB('threadline-foundation-test', 1, { upgrade: (d) => { d.createObjectStore('shards'); } });
    await db.put('shards', v, 'shard-0');
    db.close();
    const reopened = await openDB('threadline-foundation-test', 1);
    const back: unknown = await reopened.get('shards', 'shard-0');
    reopened.close();
    expect(back).toBeInstanceOf(Float32Array);
    expect(Array.from(back as Float32Array)).toEqual(Array.from(v));
    indexedDB.deleteDatabase('threadline-foundation-test');
  });
});

describe('a transformer model in the retrieval worker (real transformers.js + onnxruntime-web WASM, imported lazily)', () => {
  it('the ONNX build of the offline table gives the static path\'s vectors (max abs difference ≤ 1e-5 against the fp16 table)', async () => {
    const texts = ['car repair garage', 'what about damaged items?', '', 'Café naïve RÉSUMÉ'];
    const onnx = await createThreadline({ name: 'onnx-model-test', embedder: { model: '/threadline-glove-30k-onnx/', dtype: 'fp32', fallback: false } });
    const fp16 = await createThreadline({ name: 'fp16-model-test', embedder: { model: '/threadline-glove-30k-fp16/', fallback: false } });
    try {
      const [a, b] = [await onnx.embed(texts), await fp16.embed(texts)];
      expect(a.length).toBe(b.length);
      let max = 0;
      for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs((a[i] ?? 0) - (b[i] ?? 0)));
      expect(max).toBeLessThanOrEqual(1e-5);
    } finally {
      await onnx.dispose();
      await fp16.dispose();
    }
  });

  it('a missing model folder fails with MODEL_LOAD_FAILED naming the URL it tried', async () => {
    const tl = await createThreadline({ name: 'missing-model-test', embedder: { model: '/no-such-model/', fallback: false } });
    try {
      // The model loads on first use; the dev server answers the missing file with its HTML page, which is named as such.
      await expect(tl.embed(['x'])).rejects.toMatchObject({ code: 'MODEL_LOAD_FAILED', message: expect.stringMatching(/\/no-such-model\/config\.json (answered HTTP 404|answered with an HTML page)/) as string });
    } finally {
      await tl.dispose();
    }
  });
});
