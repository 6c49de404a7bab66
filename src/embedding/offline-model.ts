/**
 * The project-built offline embedding model (scripts/build-offline-model.ts):
 * SIF-weighted GloVe, 100 dimensions, ~6 MB. It needs no network beyond the
 * page's own origin and is the default when nothing else is configured.
 */
export const OFFLINE_MODEL_ID = 'threadline-glove-30k';
export const OFFLINE_MODEL_DIMS = 100;
/** Where the demo and the tests serve it (Vite's publicDir is .models/). */
export const OFFLINE_MODEL_PATH = `/${OFFLINE_MODEL_ID}/`;
