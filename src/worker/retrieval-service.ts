/**
 * What the retrieval worker exposes over comlink: the engine behind the
 * envelope protocol, abort by operation id, and the alive lock.
 */
import { transfer } from 'comlink';
import { embedderIdentity, loadWithFallback, type EmbedderRuntime } from '../embedding/transformers-embedder';
import { ThreadlineError, toThreadlineError } from '../errors';
import { envelope, type RetrievalWorkerApi, type WorkerInit } from './protocol';
import { RetrievalEngine } from './retrieval-engine';

interface LockManagerLike { request(name: string, callback: () => Promise<unknown>): Promise<unknown> }

export function createRetrievalService(runtime: EmbedderRuntime): RetrievalWorkerApi {
  let engine: RetrievalEngine | null = null;
  let config: WorkerInit | null = null;
  const aborts = new Map<number, AbortController>();
  const ready = (): RetrievalEngine => {
    if (!engine) throw new ThreadlineError('INTERNAL', 'the retrieval worker was used before init()');
    return engine;
  };
  const embedder = () => loadWithFallback(config?.embedder ?? {}, runtime);

  return {
    init: (init, onProgress) => envelope(async () => {
      config = init;
      const locks = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks;
      // Held until this worker dies; never released otherwise.
      if (locks) await new Promise<void>((held) => { void locks.request(init.aliveLock, () => { held(); return new Promise(() => undefined); }); });
      const progressRuntime = onProgress ? { ...runtime, onProgress: (p: Parameters<typeof onProgress>[0]) => void onProgress(p) } : runtime;
      engine = await RetrievalEngine.open({
        name: init.name, modelId: embedderIdentity(init.embedder), chunking: init.chunking, int8: init.int8,
        weights: init.weights, onModelMismatch: init.onModelMismatch,
      }, () => loadWithFallback(init.embedder, progressRuntime), progressRuntime.onProgress);
      return ready().stats();
    }),
    add: (opId, docs, onProgress) => envelope(async () => {
      const controller = new AbortController();
      aborts.set(opId, controller);
      try {
        return await ready().add(docs, { signal: controller.signal, ...(onProgress ? { onProgress: (p) => void onProgress(p) } : {}) });
      } finally {
        aborts.delete(opId);
      }
    }),
    abort: (opId) => aborts.get(opId)?.abort(),
    loadPrebuilt: (opId, url) => envelope(async () => {
      const controller = new AbortController();
      aborts.set(opId, controller);
      try {
        let response: Response;
        try {
          response = await fetch(url, { signal: controller.signal });
        } catch (error) {
          throw toThreadlineError(error, 'MODEL_LOAD_FAILED', `Could not fetch the prebuilt index ${url}`);
        }
        if (!response.ok) throw new ThreadlineError('MODEL_LOAD_FAILED', `Could not fetch the prebuilt index ${url}: HTTP ${response.status}`);
        const bytes = new Uint8Array(await response.arrayBuffer());
        if (controller.signal.aborted) throw new ThreadlineError('ABORTED', 'The operation was aborted.');
        return await ready().loadPrebuilt(bytes);
      } finally {
        aborts.delete(opId);
      }
    }),
    remove: (ids) => envelope(() => ready().remove(ids)),
    clear: () => envelope(async () => { await ready().clear(); return null; }),
    search: (query, options) => envelope(() => ready().search(query, options)),
    stats: () => envelope(() => ready().stats()),
    documents: () => envelope(() => Promise.resolve(ready().documents())),
    chunkKeys: () => envelope(() => Promise.resolve(ready().chunkKeys())),
    embed: async (texts) => {
      const result = await envelope(async () => {
        if (!Array.isArray(texts) || texts.some((t) => typeof t !== 'string')) throw new ThreadlineError('INVALID_INPUT', 'embed() takes an array of strings');
        return (await embedder()).embed(texts as string[]);
      });
      // comlink finds transferables by the returned object, so mark the envelope itself.
      return result.ok ? transfer(result, [result.value.buffer as ArrayBuffer]) : result;
    },
    close: () => { engine?.close(); engine = null; return Promise.resolve(); },
  };
}
