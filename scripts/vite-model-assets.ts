/**
 * The offline model next to the code that loads it. src/embedding/offline-model.ts
 * names each file as `new URL('./threadline-glove-30k/<file>', import.meta.url)`;
 * no such folder exists beside the source, so Vite leaves those references as
 * they are (library mode would otherwise inline 3.6 MB as base64), this plugin
 * answers them from .models/ in dev, and emits the folder next to the built
 * code, where an app's bundler finds it by the same references.
 */
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { OFFLINE_MODEL_FILES, OFFLINE_MODEL_ID } from '../src/embedding/offline-model.ts';

export const MODEL_FILES = OFFLINE_MODEL_FILES;
/** What the code loads: the table, which carries the JSON files and the vocabulary (src/embedding/embedded-files.ts). */
export const LOADED_MODEL_FILES = ['model.safetensors'] as const;
const SOURCE = resolve(import.meta.dirname, '../.models', OFFLINE_MODEL_ID);

/**
 * `dirs`: output folders that get a copy (next to every place a chunk that loads it may land). `files`: the
 * whole Model2Vec folder for the package (`threadline model` copies it, Node and other readers use it), only
 * what the code loads for a site (the playground).
 */
export function modelAssets(dirs: readonly string[] = [''], files: readonly string[] = MODEL_FILES): Plugin {
  return {
    name: 'threadline-model-assets',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = req.url?.split('?')[0] ?? '';
        const file = MODEL_FILES.find((f) => path.endsWith(`/${OFFLINE_MODEL_ID}/${f}`));
        if (!file || !existsSync(join(SOURCE, file))) return next();
        res.setHeader('Content-Type', file.endsWith('.json') ? 'application/json' : 'application/octet-stream');
        res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
        createReadStream(join(SOURCE, file)).pipe(res);
      });
    },
    generateBundle() {
      for (const dir of dirs) {
        for (const f of files) this.emitFile({ type: 'asset', fileName: join(dir, OFFLINE_MODEL_ID, f), source: readFileSync(join(SOURCE, f)) });
      }
    },
  };
}
