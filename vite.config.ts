import { resolve } from 'node:path';
import { defineConfig } from 'vite';

/**
 * `vite` (serve): the demo page from demo/, with the offline model served from
 * .models/ and COOP/COEP headers so the page is cross-origin isolated
 * (threaded WASM). `vite build`: the library (src/index.ts) and its workers.
 */
export const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
} as const;

export default defineConfig(({ command }) => ({
  root: command === 'serve' ? resolve(import.meta.dirname, 'demo') : import.meta.dirname,
  publicDir: resolve(import.meta.dirname, '.models'),
  server: { headers: isolationHeaders, fs: { allow: [import.meta.dirname] } },
  preview: { headers: isolationHeaders },
  worker: { format: 'es' },
  optimizeDeps: { include: ['@huggingface/transformers', 'comlink', 'idb'] },
  build: {
    outDir: resolve(import.meta.dirname, 'dist'),
    copyPublicDir: false,
    target: 'es2022',
    lib: {
      entry: {
        threadline: resolve(import.meta.dirname, 'src/index.ts'),
        'retrieval.worker': resolve(import.meta.dirname, 'workers/retrieval.worker.ts'),
      },
      formats: ['es'],
    },
    rolldownOptions: { external: [/^@huggingface\/transformers/, /^@mlc-ai\/web-llm/, 'idb', 'comlink'] },
  },
}));
