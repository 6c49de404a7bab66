/**
 * Where onnxruntime-web's WASM runtime is loaded from, for transformer models:
 * `./ort/` next to the retrieval worker's script (the playground and the tests
 * serve it there through scripts/vite-ort-assets.ts), or wherever
 * `embedder.wasmPaths` says. Built from the worker's own location rather than
 * `new URL('./ort/', import.meta.url)`, which bundlers would try to copy as a
 * file: the 27 MB runtime is not part of the package (see the README's
 * "Transformer models"). Without it, transformers.js would fetch the runtime
 * from a CDN, which breaks offline use and the zero-egress promise.
 */
const BASE = 'ort-wasm-simd-threaded.asyncify';

export function ortWasmPaths(base: string | URL): { mjs: string; wasm: string } {
  return { mjs: new URL(`${BASE}.mjs`, base).href, wasm: new URL(`${BASE}.wasm`, base).href };
}

/** The two files of onnxruntime-web's runtime that threadline's worker loads. */
export const ORT_FILES = [`${BASE}.mjs`, `${BASE}.wasm`] as const;
