/**
 * What the retrieval worker serves: the engine, opened with the embedding
 * model the page configured, behind the generic transport.
 */
import { embedderIdentity, loadWithFallback, type EmbedderRuntime } from '../embedding/load-embedder';
import { OFFLINE_MODEL_DIMS, OFFLINE_MODEL_IDENTITY } from '../embedding/offline-model';
import { RETRIEVER_METHODS } from '../retriever';
import { exposeRetriever } from './expose-retriever';
import type { RetrievalPort } from './protocol';
import { RetrievalEngine } from './retrieval-engine';

export function serveRetrieval(runtime: EmbedderRuntime, methods: Readonly<Record<string, number>> = RETRIEVER_METHODS): RetrievalPort {
  return exposeRetriever(async (init, onProgress) => {
    const progressRuntime = onProgress ? { ...runtime, onProgress } : runtime;
    const modelId = embedderIdentity(init.embedder);
    return RetrievalEngine.open({
      name: init.name, modelId, chunking: init.chunking, int8: init.int8,
      // The built-in model's size is part of its identity; any other model's is known once it loads.
      ...(modelId === OFFLINE_MODEL_IDENTITY ? { knownDims: OFFLINE_MODEL_DIMS } : {}),
      weights: init.weights, onModelMismatch: init.onModelMismatch,
    }, () => loadWithFallback(init.embedder, progressRuntime), onProgress);
  }, methods);
}
