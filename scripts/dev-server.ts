/**
 * Starts Vite's dev server over the repository root for the e2e tests and the
 * benchmarks: the offline model served from .models/, COOP/COEP headers so
 * pages are cross-origin isolated, dependencies pre-bundled so no reload
 * happens mid-test.
 */
import { resolve } from 'node:path';
import { createServer, type ViteDevServer } from 'vite';
import { isolationHeaders, ortConditions } from '../vite.config.ts';
import { modelAssets } from './vite-model-assets.ts';
import { ortAssets } from './vite-ort-assets.ts';

/**
 * `cache`: the pre-bundled dependencies' folder name. Servers with different `include` lists
 * must not share one: a second server re-bundling into the first one's folder breaks every page
 * the first one serves (the e2e harness and the bench run at once when `npm test` runs the bench).
 */
export async function startDevServer(entries: string[], options: { isolated?: boolean; include?: string[]; cache?: string } = {}): Promise<{ server: ViteDevServer; origin: string }> {
  const root = resolve(import.meta.dirname, '..');
  const server = await createServer({
    configFile: false,
    root,
    cacheDir: resolve(root, 'node_modules/.vite', options.cache ?? 'e2e'),
    publicDir: resolve(root, '.models'),
    logLevel: 'error',
    plugins: [ortAssets(), modelAssets()],
    resolve: { conditions: ortConditions },
    server: { port: 0, strictPort: false, host: '127.0.0.1', headers: options.isolated === false ? {} : { ...isolationHeaders } },
    worker: { format: 'es' },
    // Everything pre-bundled up front: a dependency discovered later makes Vite reload the page mid-run.
    optimizeDeps: { entries, include: ['@huggingface/transformers', '@huggingface/tokenizers', 'comlink', 'idb', 'pdfjs-dist/legacy/build/pdf.mjs', 'pdfjs-dist/legacy/build/pdf.worker.mjs', 'mammoth', ...(options.include ?? [])] },
  });
  await server.listen();
  const address = server.httpServer?.address();
  if (!address || typeof address === 'string') throw new Error('dev server has no TCP address');
  return { server, origin: `http://127.0.0.1:${address.port}` };
}
