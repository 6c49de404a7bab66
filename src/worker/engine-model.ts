/**
 * The engine's embedding model: loaded once, early (a failed load is
 * forgotten so that the next call retries), and the identity the index uses.
 * A fallback model (the offline one, when the configured model cannot load)
 * may stand in only for an index that holds no vectors yet; it then becomes
 * the index's identity.
 */
import type { Embedder } from '../embedding/embedder';
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

  /** The loaded model, for an index that holds `vectors` chunks. */
  async get(vectors: number): Promise<Embedder> {
    const embedder = await this.start();
    if (embedder.modelId === this.id) return embedder;
    if (vectors > 0) {
      this.loading = null;
      throw new ThreadlineError('MODEL_LOAD_FAILED', `The embedding model "${this.id}" could not be loaded, and this index already holds its vectors, so the offline model cannot stand in.`, {
        details: { configured: this.id, fallback: embedder.modelId },
      });
    }
    this.id = embedder.modelId;
    return embedder;
  }
}
