/**
 * The engine's embedding model: loaded once, early (a failed load is
 * forgotten so that the next call retries), and the identity the index uses.
 * A fallback model (the offline one, when the configured model cannot load)
 * may stand in only for an index that holds no vectors yet, and never where
 * the configured model itself is asked for (loading a prebuilt file built
 * with it, rebuilding to it); it then becomes the index's identity.
 */
import type { Embedder } from '../embedding/embedder';
import { isStandIn } from '../embedding/stand-in';
import { ThreadlineError } from '../errors';

export class EngineModel {
  private loading: Promise<Embedder> | null = null;

  /** `id`: the configured model's identity, known before it loads. */
  constructor(public id: string, private readonly load: () => Promise<Embedder>) {}

  /** Starts the load (once); later calls share it. */
  start(): Promise<Embedder> {
    return (this.loading ??= this.load().catch((error: unknown) => {
      this.loading = null;
      throw error;
    }));
  }

  /**
   * The loaded model, for an index that holds `vectors` chunks. `need`: the configured model itself is asked
   * for, to load a prebuilt file built with it or to rebuild the index with it, which no stand-in can do.
   */
  async get(vectors: number, need?: 'prebuilt' | 'rebuild'): Promise<Embedder> {
    const embedder = await this.start();
    if (embedder.modelId === this.id) return embedder;
    if (vectors > 0 || need) {
      this.loading = null; // the next call tries the configured model again (back online, file deployed)
      const failed = isStandIn(embedder) ? embedder.standsInFor : null;
      const configured = failed?.model ?? this.id;
      const why = failed?.cause instanceof Error ? ` (${failed.cause.message})` : '';
      const holder = need === 'prebuilt' ? 'the prebuilt index was built with it' : need === 'rebuild' ? 'the index is to be rebuilt with it (onModelMismatch: "rebuild")' : 'this index already holds its vectors';
      throw new ThreadlineError('MODEL_LOAD_FAILED', `The embedding model "${configured}" could not be loaded${why}, and ${holder}, so the offline model cannot stand in.`, {
        details: { configured: this.id, fallback: embedder.modelId, ...(failed?.cause instanceof ThreadlineError ? { failure: failed.cause.details } : {}) },
        ...(failed ? { cause: failed.cause } : {}),
      });
    }
    this.id = embedder.modelId;
    return embedder;
  }
}
