/**
 * onnxruntime-web's WASM runtime, served from this app's own origin (Vite
 * emits the files as assets). Without this transformers.js fetches them from
 * a CDN, which breaks offline use and the zero-egress promise.
 * Browser-only: import it from worker entries, never from Node code.
 */
import mjs from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import wasm from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';

export const ORT_WASM_PATHS: { mjs: string; wasm: string } = Object.freeze({ mjs, wasm });
