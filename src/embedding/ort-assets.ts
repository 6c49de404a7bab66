/**
 * Where onnxruntime-web's WASM runtime is loaded from: `./ort/` next to the
 * module that runs this code, served by the app itself (the Vite plugin in
 * scripts/vite-ort-assets.ts provides it in dev and emits it in builds).
 * Without this, transformers.js fetches the runtime from a CDN, which breaks
 * offline use and the zero-egress promise. The paths are built at run time so
 * that bundlers do not inline 27 MB of WASM as base64. Browser-only.
 */
const DIR = './ort/';
const BASE = 'ort-wasm-simd-threaded.asyncify';

export function ortWasmPaths(base: string | URL = new URL(DIR, import.meta.url)): { mjs: string; wasm: string } {
  return { mjs: new URL(`${BASE}.mjs`, base).href, wasm: new URL(`${BASE}.wasm`, base).href };
}
