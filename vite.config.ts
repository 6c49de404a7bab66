import { resolve } from 'node:path';
import { defaultClientConditions, defineConfig } from 'vite';
import { ortAssets } from './scripts/vite-ort-assets.ts';

/**
 * `vite` (serve): the demo page from demo/, with the offline model served from
 * .models/ and COOP/COEP headers so the page is cross-origin isolated
 * (threaded WASM). `vite build`: the library (src/index.ts) and its workers.
 */
/**
 * onnxruntime-web's "extern wasm" build: it loads its WASM from the paths we give it
 * (served by ortAssets) instead of referencing it through import.meta.url, which
 * bundlers would inline as base64.
 */
export const ortConditions = ['onnxruntime-web-use-extern-wasm', ...defaultClientConditions];

export const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
} as const;

export default defineConfig(({ command }) => ({
  root: command === 'serve' ? resolve(import.meta.dirname, 'demo') : import.meta.dirname,
  publicDir: resolve(import.meta.dirname, '.models'),
  plugins: [ortAssets()],
  resolve: { conditions: ortConditions },
  worker: { format: 'es', plugins: () => [ortAssets()] },
  server: { headers: isolationHeaders, fs: { allow: [import.meta.dirname] } },
  preview: { headers: isolationHeaders },
  optimizeDeps: { include: ['@huggingface/transformers', 'comlink', 'idb'] },
  build: {
    outDir: resolve(import.meta.dirname, 'dist'),
    copyPublicDir: false,
    assetsInlineLimit: 0,
    target: 'es2022',
    lib: {
      entry: {
        threadline: resolve(import.meta.dirname, 'src/index.ts'),
        'retrieval.worker': resolve(import.meta.dirname, 'workers/retrieval.worker.ts'),
        'llm.worker': resolve(import.meta.dirname, 'workers/llm.worker.ts'),
      },
      formats: ['es'],
    },
    rolldownOptions: { external: [/^@huggingface\/(transformers|tokenizers)/, /^@mlc-ai\/web-llm/, 'idb', 'comlink'] },
  },
}));
