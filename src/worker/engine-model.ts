/**
 * The engine's embedding model: loaded once, early (a failed load is
 * forgotten so that the next call retries), and the identity the index uses.
 * A fallback model (the offline one, when the configured model cannot load)
 * may stand in only for an index that holds no vectors yet, and never where
 * the configured model itself is asked for (loading a prebuilt file built
 * with it, rebuilding to it); it then becomes the index's identity.
 */
import type { Embedder } from '../embedding/embedder';
import { isStandIn, type StandInEmbedder } from '../embedding/stand-in';
import { ThreadlineError } from '../errors';
import { settledWithin } from '../util/settled-within';

export class EngineModel {
  private loading: Promise<Embedder> | null = null;
  /** Whether the load in flight (if any) has settled. */
  private settled = false;
  /** The configured model's identity, whatever stands in for it. */
  readonly configured: string;

  /** `id`: the configured model's identity, known before it loads; the index's, once a stand-in is adopted. */
  constructor(public id: string, private readonly load: () => Promise<Embedder>) {
    this.configured = id;
  }

  /** Starts the load (once); later calls share it. */
  start(): Promise<Embedder> {
    if (this.loading) return this.loading;
    this.settled = false;
    const loading = this.load().then((embedder) => {
      if (this.loading === loading) this.settled = true;
      return embedder;
    }, (error: unknown) => {
      if (this.loading === loading) this.loading = null;
      throw error;
    });
    this.loading = loading;
    return loading;
  }

  /** A load is in flight: started, not yet loaded, not failed (a failed one is started again by the next call, and waited for). */
  pending(): boolean {
    return this.loading !== null && !this.settled;
  }

  /** Whether the load in flight settles (loaded or failed) within `ms`. */
  async settlesWithin(ms: number): Promise<boolean> {
    return this.loading ? settledWithin(this.loading, ms) : true;
  }

  /**
   * The loaded model, for an index that holds `vectors` chunks. `need`: the configured model itself is asked
   * for, to load a prebuilt file built with it or to rebuild the index with it, which no stand-in can do.
   */
  async get(vectors: number, need?: 'prebuilt' | 'rebuild'): Promise<Embedder> {
    const embedder = await this.start();
    if (isStandIn(embedder)) {
      // Adopted only by an index with no vectors of its own, and never where the configured model is asked for.
      if (need || (vectors > 0 && embedder.modelId !== this.id)) throw this.refuse(embedder, need);
      this.id = embedder.modelId;
      return embedder;
    }
    if (embedder.modelId === this.id) return embedder;
    // The configured model loads now, where the offline model stood in before (a retry once back online).
    if (need || vectors === 0) {
      this.id = embedder.modelId; // a prebuilt file or a rebuild replaces every vector; an empty index takes any model
      return embedder;
    }
    const held = this.id === this.configured ? `"${this.id}"` : `"${this.id}", which stood in while "${this.configured}" could not be loaded`;
    throw new ThreadlineError('MODEL_MISMATCH', `This index holds vectors of ${held}, and the model loaded now is "${embedder.modelId}". Reopen with onModelMismatch: "rebuild" to re-embed them with it, or clear the index.`, {
      details: { stored: { modelId: this.id }, requested: { modelId: embedder.modelId } },
    });
  }

  /** The offline model cannot stand in here: said with why the configured model failed. */
  private refuse(standIn: StandInEmbedder, need: 'prebuilt' | 'rebuild' | undefined): ThreadlineError {
    this.loading = null; // the next call tries the configured model again (back online, file deployed)
    const { model, cause } = standIn.standsInFor;
    const why = cause instanceof Error ? ` (${cause.message})` : '';
    const holder = need === 'prebuilt' ? 'the prebuilt index was built with it' : need === 'rebuild' ? 'the index is to be rebuilt with it (onModelMismatch: "rebuild")' : 'this index already holds its vectors';
    return new ThreadlineError('MODEL_LOAD_FAILED', `The embedding model "${model}" could not be loaded${why}, and ${holder}, so the offline model cannot stand in.`, {
      details: { configured: this.configured, fallback: standIn.modelId, ...(cause instanceof ThreadlineError ? { failure: cause.details } : {}) },
      cause,
    });
  }
}
