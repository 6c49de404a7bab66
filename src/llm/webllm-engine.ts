/**
 * The real engine factory: web-llm's MLCEngine in workers/llm.worker.ts,
 * driven over comlink (llm-host.ts in the worker, remote-engine.ts here). The
 * page never imports web-llm, so only the worker's copy (6 MB) is ever
 * downloaded, and only when an LLM loads. `appConfig` points at self-hosted
 * weights and model libraries for offline deployments (nothing then touches
 * a third-party host); `cacheBackend` picks web-llm's cache (Cache API,
 * IndexedDB, OPFS).
 */
import * as Comlink from 'comlink';
import type { AppConfig } from '@mlc-ai/web-llm';
import { watchWorker } from '../client/worker-watch';
import { ThreadlineError } from '../errors';
import { pageListener } from '../util/page-listener';
import type { LlmHostPort } from './llm-host';
import { remoteEngine } from './remote-engine';
import type { EngineFactory } from './webllm';
import { constructWorker } from '../client/construct-worker';

/** web-llm's cache backends (its CacheBackend type is not exported). */
export type LlmCacheBackend = NonNullable<AppConfig['cacheBackend']>;

export interface WebLlmEngineOptions {
  /** Model records and libraries; defaults to web-llm's prebuilt list (weights from Hugging Face, libraries from GitHub). */
  appConfig?: AppConfig;
  /** @default web-llm's default ('cache') */
  cacheBackend?: LlmCacheBackend;
  /** Creates the LLM worker (custom URL, CSP). `name` is the Web Lock it holds while alive; it is also sent to it in a message (ALIVE_MESSAGE), so the Worker's own name may be anything. */
  worker?: (name: string) => Worker;
}

/** The message that names the Web Lock the LLM worker holds while it lives (workers/llm.worker.ts writes the same literal). */
export const ALIVE_MESSAGE = 'threadline-alive';

/**
 * The worker's options stay a literal: Vite before version 8 refuses to build an app whose worker options it
 * cannot read statically ("unable to parse the worker options"), so the lock's name travels in a message instead.
 */
export function defaultLlmWorker(_name: string): Worker {
  return constructWorker('language model', () => new Worker(new URL('../../workers/llm.worker.ts', import.meta.url), { type: 'module', name: 'threadline-llm' }));
}

export function webWorkerEngineFactory(options: WebLlmEngineOptions = {}): EngineFactory {
  return async (models, onInitProgress) => {
    const lockName = `threadline-llm-alive:${crypto.randomUUID()}`;
    const worker = (options.worker ?? defaultLlmWorker)(lockName);
    // comlink ignores messages of types it does not know: this one travels beside its wire.
    worker.postMessage({ type: ALIVE_MESSAGE, lock: lockName });
    const dead = watchWorker(worker, lockName, 'language model');
    const host = Comlink.wrap<LlmHostPort>(worker);
    const config = { ...(options.appConfig ? { appConfig: options.appConfig } : {}), ...(options.cacheBackend ? { cacheBackend: options.cacheBackend } : {}) };
    try {
      // A first round trip tells a worker that never started (its script or web-llm's chunk missing) from a model that fails to load.
      await Promise.race([host.modelUrl(''), dead]).catch((error: unknown) => {
        throw new ThreadlineError('LLM_FAILED', `The language model worker could not start (${error instanceof Error ? error.message : String(error)}): its script or web-llm's chunk did not load. A site copied with \`threadline element\` includes web-llm only with --with-llm.`, { cause: error });
      });
      await Promise.race([host.load(models, config, pageListener(onInitProgress)), dead]);
      return { engine: remoteEngine(host), dead, dispose: () => worker.terminate(), modelUrl: (id: string) => host.modelUrl(id) };
    } catch (error) {
      worker.terminate();
      throw error;
    }
  };
}
