/**
 * One structured-cloneable progress union for every long phase, so a UI can
 * render a single progress bar component and a worker can post it as is.
 */
export type Progress =
  /** Embedding-model files: `loaded`/`total` in bytes when the server says. */
  | { phase: 'model-download'; model: string; file: string; loaded: number; total: number; fraction: number }
  /** The configured embedding model could not be loaded; the offline model stands in. */
  | { phase: 'model-fallback'; from: string; to: string; reason: string }
  /** The embedding model is loaded and answered a probe. */
  | { phase: 'model-ready'; model: string; device: string; dims: number; ms: number }
  /** A PDF being read, page by page (before it is chunked and embedded). */
  | { phase: 'parse'; docId: string; page: number; pages: number }
  /** Documents being chunked, embedded and stored. */
  | { phase: 'ingest'; docsDone: number; docsTotal: number; chunksDone: number; chunksTotal: number; chunksPerSecond: number }
  /**
   * The stored index being re-embedded with another model (`onModelMismatch: 'rebuild'`), before
   * anything is written: the new vectors replace the old ones in one transaction at the end.
   */
  | { phase: 'rebuild'; docsDone: number; docsTotal: number; chunksDone: number; chunksTotal: number }
  /** A prebuilt index file (`load(url)`) downloading: `total` 0 when the server does not say. */
  | { phase: 'index-download'; url: string; loaded: number; total: number; fraction: number }
  /** The stored index being read back into memory. */
  | { phase: 'hydrate'; chunks: number; ms: number }
  /** Damaged stored records were found: these documents were removed (add them again), the rest of the index is intact. */
  | { phase: 'repair'; removedDocs: string[]; problems: string[] }
  /** The language model loading: download, reading from cache, shader compilation. */
  | { phase: 'llm-load'; model: string; stage: 'download' | 'cache' | 'compile' | 'ready'; fraction: number; loadedMB?: number; text: string }
  /** What the language model can do here, and why ("WebGPU unavailable: …"). */
  | { phase: 'llm-status'; status: 'ready' | 'unavailable' | 'failed' | 'lost'; reason: string };

/**
 * Called for each event. Every event a call reports reaches the listener
 * before that call settles (the events of `createThreadline`, such as
 * `repair` and `hydrate`, before it resolves), even from the worker. Its return value is not waited
 * for; an exception it throws is reported as an uncaught error on the page.
 */
export type ProgressListener = (progress: Progress) => void;
