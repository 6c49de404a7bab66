/**
 * One structured-cloneable progress union for every long phase, so a UI can
 * render a single progress bar component and a worker can post it as is.
 */
export type Progress =
  /** Embedding-model files: `loaded`/`total` in bytes when the server says. */
  | { phase: 'model-download'; model: string; file: string; loaded: number; total: number; fraction: number }
  /** The embedding model is loaded and answered a probe. */
  | { phase: 'model-ready'; model: string; device: string; dims: number; ms: number }
  /** Documents being chunked, embedded and stored. */
  | { phase: 'ingest'; docsDone: number; docsTotal: number; chunksDone: number; chunksTotal: number; chunksPerSecond: number }
  /** The stored index being read back into memory. */
  | { phase: 'hydrate'; chunks: number; ms: number };

export type ProgressListener = (progress: Progress) => void;
