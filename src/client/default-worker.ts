import { constructWorker } from './construct-worker';

/** The bundled retrieval worker. Bundlers (Vite, webpack 5, Rollup) emit it as its own chunk; the call inside stays literal for them. */
export function defaultRetrievalWorker(): Worker {
  return constructWorker('retrieval', () => new Worker(new URL('../../workers/retrieval.worker.ts', import.meta.url), { type: 'module', name: 'threadline-retrieval' }));
}
