/**
 * What the retrieval worker exposes over comlink. Grows with the retrieval
 * issue (index, storage); for now it owns the embedding model.
 */
import { transfer } from 'comlink';
import type { Embedder } from '../embedding/embedder';
import { loadTransformersEmbedder, type EmbedderOptions, type EmbedderRuntime } from '../embedding/transformers-embedder';

export interface RetrievalService {
  /** Loads the embedding model; returns its id and dimensions. */
  loadModel(options: EmbedderOptions): Promise<{ modelId: string; dims: number }>;
  /** Embeds texts with the loaded model; the result buffer is transferred, not copied. */
  embed(texts: string[]): Promise<Float32Array>;
}

export function createRetrievalService(runtime: EmbedderRuntime): RetrievalService {
  let embedder: Promise<Embedder> | undefined;
  const ready = (): Promise<Embedder> => embedder ?? (embedder = loadTransformersEmbedder({}, runtime));
  return {
    async loadModel(options) {
      embedder = loadTransformersEmbedder(options, runtime);
      const e = await embedder;
      return { modelId: e.modelId, dims: e.dims };
    },
    async embed(texts) {
      const vectors = await (await ready()).embed(texts);
      return transfer(vectors, [vectors.buffer as ArrayBuffer]);
    },
  };
}
