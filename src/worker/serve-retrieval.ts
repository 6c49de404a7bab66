/**
 * What the retrieval worker serves: the engine, opened with the embedding
 * model the page configured, behind the generic transport.
 */
import { embedderIdentity, loadWithFallback, type EmbedderRuntime } from '../embedding/load-embedder';
import { RETRIEVER_METHODS } from '../retriever';
import { exposeRetriever } from './expose-retriever';
import type { RetrievalPort } from './protocol';
import { RetrievalEngine } from './retrieval-engine';

export function serveRetrieval(runtime: EmbedderRuntime, methods: Readonly<Record<string, number>> = RETRIEVER_METHODS): RetrievalPort {
  return exposeRetriever(async (init, onProgress) => {
    const progressRuntime = onProgress ? { ...runtime, onProgress } : runtime;
    return RetrievalEngine.open({
      name: init.name, modelId: embedderIdentity(init.embedder), chunking: init.chunking, int8: init.int8,
      weights: init.weights, onModelMismatch: init.onModelMismatch,
    }, () => loadWithFallback(init.embedder, progressRuntime), onProgress);
  }, methods);
}
