/**
 * Peer vector searches on the same vectors, queries and k as ours, in the
 * same worker. Each returns its median query time; hnswlib also its recall@10
 * against exact search (it is approximate). Failures are reported, not hidden.
 */
import { median } from './corpus';

export interface PeerScan { scanMs?: number; recallAt10?: number; buildMs?: number; n?: number; note?: string }


async function timeQueries(queries: Float32Array[], runs: number, search: (q: Float32Array) => unknown): Promise<number> {
  for (const q of queries.slice(0, 2)) await search(q);
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const q = queries[r % queries.length] as Float32Array;
    const t = performance.now();
    await search(q);
    times.push(performance.now() - t);
  }
  return median(times);
}

const rows = (data: Float32Array, n: number, dims: number) => Array.from({ length: n }, (_, i) => data.subarray(i * dims, (i + 1) * dims));

export async function orama(data: Float32Array, n: number, dims: number, queries: Float32Array[], runs: number): Promise<PeerScan> {
  const { create, insertMultiple, search } = await import('@orama/orama');
  const t = performance.now();
  const db = create({ schema: { e: `vector[${dims}]` } as const });
  await insertMultiple(db, rows(data, n, dims).map((v) => ({ e: Array.from(v) })), 5_000);
  const buildMs = performance.now() - t;
  const scanMs = await timeQueries(queries, runs, (q) => search(db, { mode: 'vector', vector: { value: Array.from(q), property: 'e' }, similarity: -1, limit: 10 }));
  return { scanMs, buildMs, n };
}

export async function langchain(data: Float32Array, n: number, dims: number, queries: Float32Array[], runs: number): Promise<PeerScan> {
  const { MemoryVectorStore } = await import('@langchain/classic/vectorstores/memory');
  const { Document } = await import('@langchain/core/documents');
  const unused = () => Promise.reject(new Error('not used: vectors are given'));
  const store = new MemoryVectorStore({ embedQuery: unused, embedDocuments: unused });
  const t = performance.now();
  await store.addVectors(rows(data, n, dims).map((v) => Array.from(v)), Array.from({ length: n }, (_, i) => new Document({ pageContent: String(i) })));
  const buildMs = performance.now() - t;
  const scanMs = await timeQueries(queries, runs, (q) => store.similaritySearchVectorWithScore(Array.from(q), 10));
  return { scanMs, buildMs, n };
}

export async function hnswlib(data: Float32Array, n: number, dims: number, queries: Float32Array[], runs: number, exact: (q: Float32Array) => number[]): Promise<PeerScan> {
  const { loadHnswlib } = await import('hnswlib-wasm');
  const lib = await loadHnswlib();
  const index = new lib.HierarchicalNSW('cosine', dims, '');
  const t = performance.now();
  index.initIndex(n, 16, 100, 42);
  for (let i = 0; i < n; i++) index.addPoint(data.subarray(i * dims, (i + 1) * dims), i, false);
  index.setEfSearch(64);
  const buildMs = performance.now() - t;
  const scanMs = await timeQueries(queries, runs, (q) => index.searchKnn(q, 10, undefined));
  return { scanMs, buildMs, n, recallAt10: recall(queries, exact, (q) => index.searchKnn(q, 10, undefined).neighbors) };
}

/** Recall@10 of a peer's ids against exact search, over all queries. */
function recall(queries: Float32Array[], exact: (q: Float32Array) => number[], found: (q: Float32Array) => number[]): number {
  let hits = 0;
  for (const q of queries) {
    const truth = new Set(exact(q));
    hits += found(q).filter((id) => truth.has(id)).length;
  }
  return hits / (queries.length * 10);
}

/**
 * voy-search: a k-d tree in Rust/WASM (wasm-bindgen "bundler" output). Its
 * WASM is instantiated here against its own JS glue, which is what a bundler
 * WASM plugin would do. Measured at each size in `sizes` (ascending) and
 * reported at the largest that builds: past ~50k × 384 its build fails inside
 * its WASM heap, which is reported in `note`.
 */
export async function voy(data: Float32Array, sizes: number[], dims: number, queries: Float32Array[], runs: number, exact: (n: number, q: Float32Array) => number[]): Promise<PeerScan> {
  const glue = await import('voy-search/voy_search_bg.js');
  const { default: wasmUrl } = await import('voy-search/voy_search_bg.wasm?url');
  const { instance } = await WebAssembly.instantiateStreaming(fetch(wasmUrl), { './voy_search_bg.js': glue as unknown as WebAssembly.ModuleImports });
  glue.__wbg_set_wasm(instance.exports);
  let best: PeerScan = { note: 'not measured' };
  for (const n of sizes) {
    let index: InstanceType<typeof glue.Voy>;
    const t = performance.now();
    try {
      index = new glue.Voy({ embeddings: rows(data, n, dims).map((v, i) => ({ id: String(i), title: '', url: '', embeddings: Array.from(v) })) });
    } catch (error) {
      return { ...best, note: `build failed at N=${n}: ${error instanceof Error ? error.message : String(error)}` };
    }
    const buildMs = performance.now() - t;
    const ids = (q: Float32Array) => index.search(q, 10).neighbors.map((x) => Number(x.id));
    const scanMs = await timeQueries(queries, runs, ids);
    best = { scanMs, buildMs, n, recallAt10: recall(queries, (q) => exact(n, q), ids) };
    index.free();
  }
  return best;
}

/** client-vector-search's EmbeddingIndex (its embedding half is not used: the vectors are given). */
export async function clientVectorSearch(data: Float32Array, n: number, dims: number, queries: Float32Array[], runs: number, exact: (q: Float32Array) => number[]): Promise<PeerScan> {
  const { EmbeddingIndex } = await import('client-vector-search');
  const t = performance.now();
  const index = new EmbeddingIndex(rows(data, n, dims).map((v, i) => ({ id: i, embedding: Array.from(v) })));
  const buildMs = performance.now() - t;
  const ids = async (q: Float32Array) => (await index.search(Array.from(q), { topK: 10 })).map((r) => (r.object as { id: number }).id);
  const scanMs = await timeQueries(queries, runs, ids);
  let hits = 0;
  for (const q of queries) {
    const truth = new Set(exact(q));
    hits += (await ids(q)).filter((id) => truth.has(id)).length;
  }
  return { scanMs, buildMs, n, recallAt10: hits / (queries.length * 10) };
}
