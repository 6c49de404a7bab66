import { describe, expect, it } from 'vitest';
import { isThreadlineError } from '../../src/errors';
import { VectorIndex } from '../../src/retrieval/vector-index';
import { normalizeInPlace } from '../../src/retrieval/vector-math';

/** Deterministic PRNG so failures reproduce. */
function rng(seed: number) {
  return () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
}

function randomVectors(n: number, dims: number, seed = 1): Float32Array {
  const r = rng(seed);
  return Float32Array.from({ length: n * dims }, r);
}

/** Reference: score every row with a plain loop, full sort by (score desc, key asc). */
function bruteForce(keys: number[], vectors: Float32Array, dims: number, query: Float32Array, k: number, allow?: (key: number) => boolean) {
  const q = normalizeInPlace(Float32Array.from(query));
  return keys.map((key, i) => {
    const v = normalizeInPlace(vectors.slice(i * dims, (i + 1) * dims));
    return { key, score: v.reduce((s, x, d) => s + x * (q[d] ?? 0), 0) };
  }).filter((h) => !allow || allow(h.key)).sort((a, b) => b.score - a.score || a.key - b.key).slice(0, k);
}

describe('VectorIndex (pure, against brute force)', () => {
  const dims = 24;
  const n = 500;
  const keys = Array.from({ length: n }, (_, i) => i * 3 + 7);
  const vectors = randomVectors(n, dims);

  it('returns the exact top-k in order', () => {
    const index = new VectorIndex(dims, { capacity: 8 });
    index.add(keys, vectors);
    for (let t = 0; t < 20; t++) {
      const q = randomVectors(1, dims, 100 + t);
      const got = index.search(q, 10);
      const want = bruteForce(keys, vectors, dims, q, 10);
      expect(got.map((h) => h.key)).toEqual(want.map((h) => h.key));
      got.forEach((h, i) => expect(h.score).toBeCloseTo(want[i]?.score ?? NaN, 5));
    }
  });

  it('breaks ties on the smaller key', () => {
    const index = new VectorIndex(2);
    index.add([9, 3, 5], Float32Array.from([1, 0, 1, 0, 1, 0]));
    expect(index.search(Float32Array.from([1, 0]), 2).map((h) => h.key)).toEqual([3, 5]);
  });

  it('handles k larger than the corpus, k = 0 and an empty index', () => {
    const index = new VectorIndex(dims);
    expect(index.search(new Float32Array(dims), 5)).toEqual([]);
    index.add(keys.slice(0, 3), vectors.subarray(0, 3 * dims));
    expect(index.search(vectors.subarray(0, dims), 50)).toHaveLength(3);
    expect(index.search(vectors.subarray(0, dims), 0)).toEqual([]);
  });

  it('rejects a dimension mismatch with a typed error', () => {
    const index = new VectorIndex(dims);
    expect(() => index.add([1], new Float32Array(dims + 1))).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    try { index.search(new Float32Array(dims - 1), 3); expect.unreachable(); } catch (e) { expect(isThreadlineError(e, 'INVALID_INPUT')).toBe(true); }
  });

  it('stays exact after removals (swap-remove) and replacement of a key', () => {
    const index = new VectorIndex(dims);
    index.add(keys, vectors);
    const gone = new Set(keys.filter((_, i) => i % 3 === 0));
    expect(index.remove([...gone, 123456])).toBe(gone.size);
    const left = keys.filter((k) => !gone.has(k));
    const leftVectors = new Float32Array(left.length * dims);
    left.forEach((k, j) => leftVectors.set(vectors.subarray(keys.indexOf(k) * dims, (keys.indexOf(k) + 1) * dims), j * dims));
    const q = randomVectors(1, dims, 7);
    expect(index.search(q, 15).map((h) => h.key)).toEqual(bruteForce(left, leftVectors, dims, q, 15).map((h) => h.key));
    expect(index.size).toBe(left.length);
    // replacing a key keeps one row
    index.add([left[0] as number], q);
    expect(index.size).toBe(left.length);
    expect(index.search(q, 1)[0]?.key).toBe(left[0]);
  });

  it('applies the allow filter exactly', () => {
    const index = new VectorIndex(dims);
    index.add(keys, vectors);
    const allow = (key: number) => key % 2 === 0;
    const q = randomVectors(1, dims, 9);
    expect(index.search(q, 10, { allow }).map((h) => h.key)).toEqual(bruteForce(keys, vectors, dims, q, 10, allow).map((h) => h.key));
  });

  it('int8 scan with f32 rescoring finds the exact top-10 on this data', () => {
    const index = new VectorIndex(dims, { int8: true });
    index.add(keys, vectors);
    let found = 0;
    for (let t = 0; t < 20; t++) {
      const q = randomVectors(1, dims, 300 + t);
      const exact = new Set(index.search(q, 10).map((h) => h.key));
      found += index.search(q, 10, { int8: true }).filter((h) => exact.has(h.key)).length;
    }
    expect(found / 200).toBeGreaterThanOrEqual(0.99);
  });

  it('a batch of new keys, stored keys and a key given twice: one row per key, the last vector of each wins', () => {
    for (const d of [dims, 7]) { // 7: rows padded for the SIMD kernels, copied one by one
      const index = new VectorIndex(d, { capacity: 4 });
      const all = randomVectors(40, d, 3);
      index.add(keys.slice(0, 20), all.subarray(0, 20 * d));
      // keys 10..19 again (stored), 20..29 new, and key 25 twice: its second vector is row 39's.
      const batch = [...keys.slice(10, 30), keys[25] as number];
      const vectors = new Float32Array(batch.length * d);
      vectors.set(all.subarray(20 * d, 40 * d));
      vectors.set(all.subarray(39 * d, 40 * d), 20 * d);
      index.add(batch, vectors);
      expect(index.size).toBe(30);
      const want = new Float32Array(30 * d);
      want.set(all.subarray(0, 10 * d));
      want.set(all.subarray(20 * d, 40 * d), 10 * d);
      want.set(all.subarray(39 * d, 40 * d), 25 * d);
      for (let t = 0; t < 5; t++) {
        const q = randomVectors(1, d, 50 + t);
        expect(index.search(q, 30).map((h) => h.key)).toEqual(bruteForce(keys.slice(0, 30), want, d, q, 30).map((h) => h.key));
      }
    }
  });

  it('touch() maps the free rows and changes no stored row', () => {
    for (const int8 of [false, true]) {
      const index = new VectorIndex(dims, { capacity: 2_000, int8 });
      index.add(keys.slice(0, 100), vectors.subarray(0, 100 * dims));
      const q = randomVectors(1, dims, 9);
      const before = index.search(q, 20, { int8 });
      index.touch();
      expect(index.search(q, 20, { int8 })).toEqual(before);
      expect(index.capacity).toBe(2_000);
      index.add(keys.slice(100), vectors.subarray(100 * dims));
      expect(index.search(q, 10).map((h) => h.key)).toEqual(bruteForce(keys, vectors, dims, q, 10).map((h) => h.key));
    }
  });

  it('keeps zero vectors at score 0 instead of NaN', () => {
    const index = new VectorIndex(2);
    index.add([1, 2], Float32Array.from([0, 0, 1, 0]));
    const hits = index.search(Float32Array.from([1, 0]), 2);
    expect(hits.map((h) => [h.key, h.score])).toEqual([[2, 1], [1, 0]]);
  });
});

describe('VectorIndex scans: WebAssembly SIMD and JS agree with brute force', () => {
  it('runs SIMD here (Node has WebAssembly SIMD), and JS when asked', () => {
    expect(new VectorIndex(8).simd).toBe(true);
    expect(new VectorIndex(8, { simd: false }).simd).toBe(false);
  });

  for (const dims of [1, 3, 17, 100, 384]) {
    it(`dims ${dims}: same top-k (f32 and int8) through growth, replacement and removal`, () => {
      const n = 300;
      const keys = Array.from({ length: n }, (_, i) => i);
      const vectors = randomVectors(n, dims, dims);
      const simd = new VectorIndex(dims, { int8: true, capacity: 4 });
      const js = new VectorIndex(dims, { int8: true, capacity: 4, simd: false });
      for (const index of [simd, js]) {
        index.add(keys.slice(0, 200), vectors.subarray(0, 200 * dims));
        index.add(keys.slice(150), vectors.subarray(150 * dims)); // 150..199 replaced, 200..299 appended (grows)
        index.remove([3, 77, 299, 1000]);
      }
      const live = keys.filter((k) => ![3, 77, 299].includes(k));
      const liveVectors = new Float32Array(live.flatMap((k) => Array.from(vectors.subarray(k * dims, (k + 1) * dims))));
      for (let t = 0; t < 10; t++) {
        const q = randomVectors(1, dims, 500 + t);
        const want = bruteForce(live, liveVectors, dims, q, 10);
        for (const index of [simd, js]) {
          const got = index.search(q, 10);
          expect(got.map((h) => h.key)).toEqual(want.map((h) => h.key));
          got.forEach((h, i) => expect(h.score).toBeCloseTo(want[i]?.score ?? NaN, 4));
          // int8 candidates, rescored in f32: same keys at this size.
          expect(index.search(q, 10, { int8: true }).map((h) => h.key)).toEqual(want.map((h) => h.key));
        }
        expect(simd.search(q, 5, { allow: (key) => key % 2 === 0 }).map((h) => h.key)).toEqual(bruteForce(live, liveVectors, dims, q, 5, (key) => key % 2 === 0).map((h) => h.key));
      }
      expect(simd.vector(5)).toEqual(js.vector(5));
      expect(simd.vector(5)?.length).toBe(dims);
    });
  }

  it('int8 query scaling never overflows the i32 sums at 4096 dims', () => {
    const dims = 4096;
    const index = new VectorIndex(dims, { int8: true });
    const row = new Float32Array(dims).fill(1); // every product at its maximum
    index.add([1, 2, 3], Float32Array.from([...row, ...row.map((_, i) => (i % 2 ? 1 : -1)), ...row.map((_, i) => (i < dims / 2 ? 1 : 0))]));
    // One candidate only: the int8 scores alone decide, so a wrapped sum would pick the wrong row.
    const hits = index.search(row, 1, { int8: true, rescoreFactor: 1 });
    expect(hits.map((h) => h.key)).toEqual([1]);
    expect(hits[0]?.score).toBeCloseTo(1, 5);
  });
});
