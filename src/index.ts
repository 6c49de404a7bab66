/** threadline's public API. Every export is listed here explicitly. */
export { ThreadlineError, isThreadlineError } from './errors';
export type { ThreadlineErrorCode, ThreadlineErrorOptions } from './errors';
export type { Progress, ProgressListener } from './progress';
export type { Embedder } from './embedding/embedder';
export { EMBEDDER_DEFAULTS, loadTransformersEmbedder } from './embedding/transformers-embedder';
export type { EmbedderDevice, EmbedderDtype, EmbedderOptions } from './embedding/transformers-embedder';
export { OFFLINE_MODEL_ID, OFFLINE_MODEL_DIMS, OFFLINE_MODEL_PATH } from './embedding/offline-model';
