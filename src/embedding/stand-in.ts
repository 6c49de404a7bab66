/**
 * The offline model standing in for a configured model that failed to load (`fallback: 'offline'`), carrying
 * why it failed. A stand-in is refused wherever only the configured model will do (an index that holds its
 * vectors, a prebuilt file built with it, a rebuild to it), and the refusal then says the original failure
 * (a 404 for `onnx/model_quantized.onnx`) instead of a model mismatch naming a model nobody configured.
 */
import type { Embedder } from './embedder';

export interface StandInEmbedder extends Embedder {
  readonly standsInFor: { model: string; cause: unknown };
}

/** A stand-in of its own for each fallback: the offline model's embedder itself is shared by every index that uses it. */
export function standIn(offline: Embedder, model: string, cause: unknown): StandInEmbedder {
  return {
    modelId: offline.modelId, dims: offline.dims, maxTokens: offline.maxTokens,
    embed: (texts, options) => offline.embed(texts, options),
    countTokens: (text) => offline.countTokens(text),
    standsInFor: { model, cause },
  };
}

export function isStandIn(embedder: Embedder): embedder is StandInEmbedder {
  return 'standsInFor' in embedder;
}
