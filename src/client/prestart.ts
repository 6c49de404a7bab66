/**
 * Starts the retrieval worker before the rest of the page's code has loaded,
 * and asks it to start loading its embedding model (src/worker/warm.ts); the
 * first createThreadline() with the same embedder options adopts it
 * (spare-worker.ts), and a spare nobody adopts is closed after a while.
 *
 * The standalone element's entry calls this before importing anything else,
 * so the worker script, the model files and the IndexedDB open overlap the
 * download of the page's own chunks instead of following it. This module
 * imports only trusted-worker.ts, which imports nothing and of which the entry
 * gets a copy of its own (scripts/vite-entry-copy.ts: a static import of a
 * shared chunk would hold the entry back a round trip); it shares only a registered symbol and a message
 * type (spelled out here and in spare-worker.ts and warm.ts) with the code
 * that adopts the worker.
 */
import { makeWorker } from './trusted-worker';

/** Where the spare waits: a registered symbol, the same in every copy of this code. */
const SLOT = Symbol.for('threadline.spareRetrievalWorker');
const UNADOPTED_MS = 30_000;

export interface SpareWorker {
  worker: Worker;
  /** The embedder options it was warmed with, as JSON: only a createThreadline() with the same ones adopts it. */
  key: string;
}

/**
 * `prefetch`: index files (as `load()` will be given them) the worker starts
 * fetching now; the first `load()` of the same URL takes the response.
 */
export function prestartRetrievalWorker(embedder: Readonly<Record<string, string>> = {}, prefetch: readonly string[] = []): void {
  const slot = globalThis as { [SLOT]?: SpareWorker };
  // Nothing to adopt it where createThreadline() will refuse to run (no Worker, or not a secure context).
  if (slot[SLOT] || typeof Worker === 'undefined' || (globalThis as { isSecureContext?: boolean }).isSecureContext === false) return;
  let worker: Worker;
  try {
    // Worker options stay literal (bundlers read them); the same worker as client/default-worker.ts, through threadline's
    // Trusted Types policy where the page enforces them.
    worker = makeWorker(() => new Worker(new URL('../../workers/retrieval.worker.ts', import.meta.url), { type: 'module', name: 'threadline-retrieval' }));
  } catch {
    // Refused (a policy the page does not allow, a blocked constructor): a head start is never worth breaking the page's
    // code over; the element's own createThreadline() makes its worker the way that works there, or reports why it cannot.
    return;
  }
  // URLs resolved as createThreadline's load() resolves them, so the worker sees the same string.
  const urls = prefetch.flatMap((url) => { try { return [new URL(url, globalThis.location?.href).href]; } catch { return []; } });
  worker.postMessage({ type: 'threadline-warm', embedder, prefetch: urls });
  const spare: SpareWorker = { worker, key: JSON.stringify(embedder) };
  slot[SLOT] = spare;
  const drop = () => {
    if (slot[SLOT] !== spare) return;
    delete slot[SLOT];
    worker.terminate();
  };
  // A spare whose script failed (blocked, missing) is not adopted: a fresh worker fails where its watcher sees it.
  worker.addEventListener('error', drop);
  setTimeout(drop, UNADOPTED_MS);
}
