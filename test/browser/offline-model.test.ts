import { openDB } from 'idb';
import { afterAll, describe, expect, it } from 'vitest';
import { createThreadline } from '../../src/index';

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);

describe('offline model in the retrieval module worker (real transformers.js + onnxruntime-web WASM)', () => {
  const tl = createThreadline({ name: 'offline-model-test' });
  afterAll(async () => (await tl).dispose());

  it('loads through the unchanged pipeline and is semantic', async () => {
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
