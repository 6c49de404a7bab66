/** The bundled retrieval worker. Bundlers (Vite, webpack 5, Rollup) emit it as its own chunk. */
export function defaultRetrievalWorker(): Worker {
  return new Worker(new URL('../../workers/retrieval.worker.ts', import.meta.url), { type: 'module', name: 'threadline-retrieval' });
}
