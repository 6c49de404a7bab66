/**
 * Adopting a retrieval worker the page started early (prestart.ts). One
 * createThreadline() takes it, and only with the embedder options it was
 * warmed with; with other options the spare is closed and a fresh worker
 * starts, so a head start never changes what loads.
 */
import type { EmbedderOptions } from '../embedding/embedder-options';
import type { SpareWorker } from './prestart';

/** prestart.ts's slot, by the same registered symbol. */
const SLOT = Symbol.for('threadline.spareRetrievalWorker');

export function takeSpareRetrievalWorker(embedder: EmbedderOptions): Worker | null {
  const slot = globalThis as { [SLOT]?: SpareWorker };
  const spare = slot[SLOT];
  if (!spare) return null;
  delete slot[SLOT];
  if (spare.key === JSON.stringify(embedder)) return spare.worker;
  spare.worker.terminate();
  return null;
}
