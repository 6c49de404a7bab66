/**
 * The real engine factory: web-llm's CreateWebWorkerMLCEngine over
 * workers/llm.worker.ts. web-llm is imported lazily, so pages that never load
 * an LLM never download it. `appConfig` points at self-hosted weights and
 * model libraries for offline deployments (nothing then touches a third-party
 * host); `cacheBackend` picks web-llm's cache (Cache API, IndexedDB, OPFS).
 */
import type { AppConfig } from '@mlc-ai/web-llm';
import type * as WebLlm from '@mlc-ai/web-llm';

/** web-llm's cache backends (its CacheBackend type is not exported). */
export type LlmCacheBackend = NonNullable<AppConfig['cacheBackend']>;
import { watchWorker } from '../client/worker-watch';
import { ThreadlineError } from '../errors';
import { loadModelTokenizer, type CountTokens } from './llm-tokenizer';
import type { EngineFactory } from './webllm';

export interface WebLlmEngineOptions {
  /** Model records and libraries; defaults to web-llm's prebuilt list (weights from Hugging Face, libraries from GitHub). */
  appConfig?: AppConfig;
  /** @default web-llm's default ('cache') */
  cacheBackend?: LlmCacheBackend;
  /** Creates the LLM worker (custom URL, CSP); must pass `name` through to the Worker. */
  worker?: (name: string) => Worker;
}

/** web-llm's module, imported on first use; a build that left it out fails saying how to include it. */
async function loadWebLlm(): Promise<typeof WebLlm> {
  try {
    return await import('@mlc-ai/web-llm');
  } catch (error) {
    throw new ThreadlineError('LLM_FAILED', `web-llm could not be loaded (${error instanceof Error ? error.message : String(error)}); a site copied with \`threadline element\` includes it only with --with-llm`, { cause: error });
  }
}

export function defaultLlmWorker(name: string): Worker {
  return new Worker(new URL('../../workers/llm.worker.ts', import.meta.url), { type: 'module', name });
}

export function webWorkerEngineFactory(options: WebLlmEngineOptions = {}): EngineFactory {
  return async (models, onInitProgress) => {
    const webllm = await loadWebLlm();
    const lockName = `threadline-llm-alive:${crypto.randomUUID()}`;
    const worker = (options.worker ?? defaultLlmWorker)(lockName);
    const dead = watchWorker(worker, lockName, 'language model');
    const base = options.appConfig ?? webllm.prebuiltAppConfig;
    const appConfig: AppConfig = { ...base, ...(options.cacheBackend ? { cacheBackend: options.cacheBackend } : {}) };
    try {
      const engine = await Promise.race([webllm.CreateWebWorkerMLCEngine(worker, models, { appConfig, initProgressCallback: onInitProgress }), dead]);
      return { engine, dead, dispose: () => worker.terminate() };
    } catch (error) {
      worker.terminate();
      throw error;
    }
  };
}

/** The model's tokenizer, located through the app config's record for `modelId`. */
export async function tokenizerFor(modelId: string, options: WebLlmEngineOptions = {}): Promise<CountTokens> {
  const appConfig = options.appConfig ?? (await loadWebLlm()).prebuiltAppConfig;
  const record = appConfig.model_list.find((m) => m.model_id === modelId);
  if (!record) throw new Error(`model ${modelId} is not in the app config`);
  return loadModelTokenizer(record.model);
}
