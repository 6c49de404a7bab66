/**
 * Serves and emits onnxruntime-web's WASM runtime next to the code that loads
 * it. The retrieval worker computes `./ort/<file>` relative to its own script
 * at run time (src/embedding/ort-assets.ts); this plugin answers those URLs
 * from node_modules in dev, and emits the files as real assets in builds,
 * so the 27 MB runtime is never inlined as base64 and never fetched from a CDN.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';
import { ORT_FILES } from '../src/embedding/ort-assets.ts';


function ortDist(): string {
  // The package's exports map hides package.json; resolve an exported file and take its folder.
  const require = createRequire(import.meta.url);
  return dirname(require.resolve('onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm'));
}

/** `dirs`: output folders that get a copy, i.e. `ort/` next to every place a worker chunk may land. */
export function ortAssets(dirs: readonly string[] = ['ort', 'assets/ort']): Plugin {
  return {
    name: 'threadline-ort-assets',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const file = ORT_FILES.find((f) => req.url?.split('?')[0]?.endsWith(`/ort/${f}`));
        if (!file) return next();
        res.setHeader('Content-Type', file.endsWith('.wasm') ? 'application/wasm' : 'text/javascript');
        res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
        createReadStream(join(ortDist(), file)).pipe(res);
      });
    },
    generateBundle() {
      for (const dir of dirs) {
        for (const f of ORT_FILES) this.emitFile({ type: 'asset', fileName: `${dir}/${f}`, source: readFileSync(join(ortDist(), f)) });
      }
    },
  };
}
