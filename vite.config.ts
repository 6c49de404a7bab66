import { resolve } from 'node:path';
import { defaultClientConditions, defineConfig, type Plugin, type UserConfig } from 'vite';
import { LOADED_MODEL_FILES, modelAssets } from './scripts/vite-model-assets.ts';
import { ortAssets } from './scripts/vite-ort-assets.ts';
import { hoistTransitiveImports } from './scripts/vite-hoist-imports.ts';
import { plainUrlsPlugin } from './scripts/vite-plain-urls.ts';
import { serviceWorker } from './scripts/vite-service-worker.ts';
import { bundledLicenses } from './scripts/vite-licenses.ts';
import { entryCopy } from './scripts/vite-entry-copy.ts';

/**
 * `vite` (serve): the playground from demo/, with the offline model served
 * from .models/ and COOP/COEP headers so the page is cross-origin isolated
 * (threaded WASM). `vite build --mode <m>` builds one artifact:
 *   lib (default)  the library, the element module, the standalone <threadline-chat>,
 *                  their workers and the offline model, dependencies bundled → dist/
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
function browserBuild(ortDirs: readonly string[], modelDirs: readonly string[] = ['']): UserConfig {
  return {
    // Worker and asset URLs relative to the module that loads them, so a build works under any path.
    base: './',
    plugins: [ortAssets(ortDirs), modelAssets(modelDirs, LOADED_MODEL_FILES)],
    resolve: { conditions: ortConditions },
    worker: { format: 'es', plugins: () => [ortAssets(ortDirs), modelAssets(modelDirs, LOADED_MODEL_FILES)] },
  };
}

/**
 * The package's browser code, every dependency bundled in (so installing threadline
 * installs nothing else, and `threadline element` copies this folder's files as they
 * are): the library, `threadline/render`, `threadline/build`, `threadline/element`, the
 * standalone `threadline-chat.js`, their workers, and the offline model in
 * threadline-glove-30k/ next to them. The code names every worker and model file with
 * `new URL('./…', import.meta.url)`, which an app's bundler follows in turn. web-llm
 * (page side and worker) and transformers.js get their own chunk names, so `threadline
 * element` can leave them out; both are imported lazily (transformers.js only for
 * transformer embedding models; onnxruntime-web's WASM is not shipped: see the README).
 */
/**
 * Lazily imported dependencies get stable chunk names, in the page build and
 * in the workers', so `threadline element` can leave them out by name.
 */
const CHUNK_GROUPS = [
  { name: 'web-llm', test: /[\\/]@mlc-ai[\\/]web-llm[\\/]/ },
  { name: 'transformers', test: /[\\/](@huggingface[\\/]transformers|onnxruntime-(web|common))[\\/]/ },
  // The document readers, fetched only when a PDF or Word file is added.
  { name: 'pdf.worker', test: /[\\/]pdfjs-dist[\\/].*pdf\.worker/ },
  { name: 'pdf', test: /[\\/]pdfjs-dist[\\/]/ },
  { name: 'docx', test: /[\\/](mammoth|jszip|@xmldom|bluebird|underscore|lop|dingbat-to-unicode|xmlbuilder|pako|base64-js|option|duck|setimmediate|readable-stream|lie|immediate|process-nextick-args|core-util-is|inherits|isarray|safe-buffer|string_decoder|util-deprecate)[\\/]/ },
];

function library(): UserConfig {
  // Every bundled package, from the page build and every worker build, with its licence text (scripts/vite-licenses.ts).
  const licenses = bundledLicenses();
  const writeLicenses = { name: 'threadline-write-licenses', closeBundle() { licenses.write(resolve(root, 'dist/THIRD_PARTY_LICENSES.txt')); } };
  return {
    root,
    base: './',
    publicDir: false,
    resolve: { conditions: ortConditions },
    plugins: [
      modelAssets(), plainUrlsPlugin(), hoistTransitiveImports({ preloadDynamic: ['threadline-chat'] }), licenses.plugin(), writeLicenses,
      entryCopy(resolve(root, 'src/client/prestart.ts'), resolve(root, 'src/client/trusted-worker.ts')),
    ],
    worker: { format: 'es', plugins: () => [modelAssets(), plainUrlsPlugin(), licenses.plugin()], rolldownOptions: { output: { codeSplitting: { groups: CHUNK_GROUPS } } } },
    build: {
      outDir: resolve(root, 'dist'),
      emptyOutDir: true, // runs first; the CLI and the type declarations are built into dist/ after it
      assetsDir: '',
      assetsInlineLimit: 0,
      target: 'es2022',
      lib: {
        entry: {
          threadline: resolve(root, 'src/index.ts'),
          render: resolve(root, 'src/render.ts'),
          build: resolve(root, 'src/build.ts'),
          element: resolve(root, 'src/element.ts'),
          'threadline-chat': resolve(root, 'src/element/standalone.ts'),
        },
        formats: ['es'],
      },
      rolldownOptions: {
        output: {
          codeSplitting: {
            groups: CHUNK_GROUPS,
          },
        },
      },
    },
  };
}

/**
 * The CLI reads PDF and Word files through the library's own `threadline/build`
 * (dist/build.js, which runs in Node and is tested there), imported by the
 * package's own name (Node resolves a package's self-reference through its
 * `exports`), instead of a bundled copy of pdf.js and mammoth: 3.5 MB less.
 */
function cliSharesReaders(): Plugin {
  const reader = resolve(root, 'src/ingest/binary-reader.ts');
  return {
    name: 'threadline-cli-shares-readers',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved?.id === reader ? { id: 'threadline/build', external: true } : null;
    },
  };
}

function cli(): UserConfig {
  return {
    root,
    publicDir: false,
    plugins: [cliSharesReaders()],
    // Everything bundled (the package has no runtime dependencies) except transformers.js,
    // an optional peer dependency imported only for transformer models.
    ssr: { noExternal: true, external: ['@huggingface/transformers', 'vite'] },
    build: {
      // The bin, and `threadline/vite` (the plugin that builds a .tlix with the site), both Node code.
      ssr: true,
      outDir: resolve(root, 'dist/cli'),
      emptyOutDir: true,
      target: 'node20',
      rolldownOptions: {
        input: { threadline: resolve(root, 'src/cli/threadline-cli.ts'), vite: resolve(root, 'src/vite/threadline-index.ts') },
        external: ['vite', '@huggingface/transformers'],
        output: { entryFileNames: '[name].js', banner: (chunk) => (chunk.name === 'threadline' ? '#!/usr/bin/env node' : '') },
      },
    },
  };
}

function playground(): UserConfig {
  const base = browserBuild(['assets/ort'], ['assets']);
  return {
    ...base,
    plugins: [...(base.plugins ?? []), serviceWorker()],
    root: resolve(root, 'demo'),
    publicDir: false, // the offline model ships with the library code (emitted next to the worker)
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
      optimizeDeps: { include: ['@huggingface/transformers', '@huggingface/tokenizers', 'comlink', 'idb', 'pdfjs-dist/legacy/build/pdf.mjs', 'pdfjs-dist/legacy/build/pdf.worker.mjs', 'mammoth'] },
    };
  }
  if (mode === 'cli') return cli();
  if (mode === 'playground') return playground();
  return library();
});
