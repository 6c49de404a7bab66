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

  it('an add() does not hold the worker for a whole group: a search and an abort are handled between two batches (the ONNX build of the offline table)', async () => {
    // Batches of at most 2 texts: a group of 256 chunks is 128 model calls (about 0.25 s here), each one stretch of the worker's time.
    const tl = await createThreadline({ name: 'onnx-turns-test', embedder: { model: '/threadline-glove-30k-onnx/', dtype: 'fp32', batchSize: 2, fallback: false } });
    const words = ['refund', 'window', 'damaged', 'parcel', 'invoice', 'warranty', 'courier', 'receipt', 'exchange', 'voucher'];
    const docs = (prefix: string) => Array.from({ length: 600 }, (_, i) => ({
      id: `${prefix}${i}`, text: Array.from({ length: 40 }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(' ') + ` item ${prefix}${i}.`,
    }));
    try {
      await tl.add([{ id: 'warm', text: 'warm up the model' }]);
      const before = (await tl.stats()).embeddedChunks;
      // Once the first group is committed (its progress event), the worker is embedding the second one.
      let firstGroup = -1;
      let searched!: Promise<number>;
      const adding = tl.add(docs('a'), {
        onProgress: (p) => {
          if (p.phase !== 'ingest' || firstGroup >= 0) return;
          firstGroup = p.chunksDone;
          searched = tl.search('damaged parcel refund', { k: 3 }).then(async () => (await tl.stats()).embeddedChunks - before);
        },
      });
      await adding;
      // Answered before the second group was done: only the first group's chunks were counted as embedded then.
      expect(firstGroup).toBeGreaterThan(0);
      expect(await searched).toBe(firstGroup);
      expect((await tl.stats()).chunks).toBe(601);

      // An abort during the second group stops it between two batches: that group is neither counted as embedded nor stored.
      const controller = new AbortController();
      const counted = (await tl.stats()).embeddedChunks;
      let stopped = -1;
      const aborted = tl.add(docs('b'), {
        signal: controller.signal,
        onProgress: (p) => { if (p.phase === 'ingest' && stopped < 0) { stopped = p.chunksDone; controller.abort(); } },
      });
      await expect(aborted).rejects.toMatchObject({ code: 'ABORTED' });
      // The worker's abort is asynchronous to the page's rejection: a stats() call queues behind whatever batch was running.
      const after = await tl.stats();
      expect(after.embeddedChunks - counted).toBe(stopped);
      expect(after.chunks).toBe(601 + stopped);
    } finally {
      await tl.dispose();
    }
  });

  it("a folder without the file WASM's dtype 'auto' reads (onnx/model_quantized.onnx; this one has only model.onnx): MODEL_LOAD_FAILED names that file and the precision, not the WASM runtime", async () => {
    const tl = await createThreadline({ name: 'onnx-auto-missing-test', embedder: { model: '/threadline-glove-30k-onnx/', fallback: false } });
    try {
      const error = await tl.embed(['x']).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'MODEL_LOAD_FAILED', details: { url: expect.stringMatching(/\/threadline-glove-30k-onnx\/onnx\/model_quantized\.onnx$/) as string } });
      expect((error as Error).message).toMatch(/model_quantized\.onnx is missing \(dtype 'auto' reads onnx\/model_quantized\.onnx on WASM, onnx\/model\.onnx on WebGPU and in Node\)\. Deploy it, or set embedder\.dtype/);
      expect((error as Error).message).not.toMatch(/WASM runtime at/);
    } finally {
      await tl.dispose();
    }
  });

  it('a missing model folder fails with MODEL_LOAD_FAILED naming the URL it tried', async () => {
    const tl = await createThreadline({ name: 'missing-model-test', embedder: { model: '/no-such-model/', fallback: false } });
    try {
      // The model loads on first use; the dev server answers the missing file with its HTML page, which is named as such.
      await expect(tl.embed(['x'])).rejects.toMatchObject({ code: 'MODEL_LOAD_FAILED', message: expect.stringMatching(/\/no-such-model\/config\.json (answered HTTP 404|answered with a web page)/) as string });
    } finally {
      await tl.dispose();
    }
  });
});
