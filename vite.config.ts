import { resolve } from 'node:path';
import { defaultClientConditions, defineConfig, type UserConfig } from 'vite';
import { ortAssets } from './scripts/vite-ort-assets.ts';
import { serviceWorker } from './scripts/vite-service-worker.ts';

/**
 * `vite` (serve): the playground from demo/, with the offline model served
 * from .models/ and COOP/COEP headers so the page is cross-origin isolated
 * (threaded WASM). `vite build --mode <m>` builds one artifact:
 *   lib (default)  the library, its workers and the element module → dist/
 *   element        <threadline-chat> with every dependency bundled, the WASM runtime and
 *                  the offline model → dist/standalone/ (what `threadline element <dir>` copies)
 *   cli            the Node CLI → dist/cli/threadline.js (the package's `threadline` bin)
 *   playground     the playground as a static site → build/playground/ (relative URLs,
 *                  service worker for offline use; no special headers needed)
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

const root = import.meta.dirname;
const models = resolve(root, '.models');

/** What every browser build shares: the WASM runtime next to the worker, ES workers, no inlined assets. */
function browserBuild(ortDirs: readonly string[]): UserConfig {
  return {
    // Worker and asset URLs relative to the module that loads them, so a build works under any path.
    base: './',
    plugins: [ortAssets(ortDirs)],
    resolve: { conditions: ortConditions },
    worker: { format: 'es', plugins: () => [ortAssets(ortDirs)] },
  };
}

function library(): UserConfig {
  return {
    ...browserBuild(['ort']),
    root,
    publicDir: false,
    build: {
      outDir: resolve(root, 'dist'),
      // Worker chunks next to the entries, so one ort/ folder serves them all (27 MB, once).
      assetsDir: '',
      assetsInlineLimit: 0,
      target: 'es2022',
      lib: {
        entry: {
          threadline: resolve(root, 'src/index.ts'),
          element: resolve(root, 'src/element.ts'),
          'retrieval.worker': resolve(root, 'workers/retrieval.worker.ts'),
          'llm.worker': resolve(root, 'workers/llm.worker.ts'),
        },
        formats: ['es'],
      },
      rolldownOptions: { external: [/^@huggingface\/(transformers|tokenizers)/, /^@mlc-ai\/web-llm/, 'idb', 'comlink', 'dompurify'] },
    },
  };
}

function standaloneElement(): UserConfig {
  return {
    ...browserBuild(['ort']),
    root,
    publicDir: models, // the offline model, copied to dist/standalone/threadline-glove-30k/
    build: {
      outDir: resolve(root, 'dist/standalone'),
      assetsDir: '',
      emptyOutDir: true,
      assetsInlineLimit: 0,
      target: 'es2022',
      lib: { entry: { 'threadline-chat': resolve(root, 'src/element/standalone.ts') }, formats: ['es'] },
    },
  };
}

function cli(): UserConfig {
  return {
    root,
    publicDir: false,
    build: {
      ssr: resolve(root, 'src/cli/threadline-cli.ts'),
      outDir: resolve(root, 'dist/cli'),
      emptyOutDir: true,
      target: 'node20',
      rolldownOptions: { output: { entryFileNames: 'threadline.js', banner: '#!/usr/bin/env node' } },
    },
  };
}

function playground(): UserConfig {
  const base = browserBuild(['assets/ort']);
  return {
    ...base,
    plugins: [...(base.plugins ?? []), serviceWorker()],
    root: resolve(root, 'demo'),
    publicDir: models,
    build: { outDir: resolve(root, 'build/playground'), emptyOutDir: true, assetsInlineLimit: 0, target: 'es2022' },
  };
}

export default defineConfig(({ command, mode }): UserConfig => {
  if (command === 'serve') {
    return {
      ...browserBuild(['ort', 'assets/ort']),
      base: '/',
      root: resolve(root, 'demo'),
      publicDir: models,
      server: { headers: isolationHeaders, fs: { allow: [root] } },
      preview: { headers: isolationHeaders },
      optimizeDeps: { include: ['@huggingface/transformers', 'comlink', 'idb'] },
    };
  }
  if (mode === 'element') return standaloneElement();
  if (mode === 'cli') return cli();
  if (mode === 'playground') return playground();
  return library();
});
