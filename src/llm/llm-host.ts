/**
 * The LLM worker's side of the wire: one engine, created in the worker, served
 * over comlink. The page never imports web-llm (6 MB): it sends requests and
 * receives chunks (see remote-engine.ts). Kept free of web-llm at run time so a
 * test worker can serve a scripted engine through the same code.
 *
 * Each streamed chunk is handed to the page's callback and awaited before the
 * next, so chunks arrive in order and before `generate` settles (two comlink
 * ports give no ordering guarantee between them otherwise), at one message
 * round trip per chunk, as web-llm's own worker protocol does.
 */
import * as Comlink from 'comlink';
import type { AppConfig, ChatCompletionChunk, ChatCompletionRequestStreaming } from '@mlc-ai/web-llm';
import { progressRelay } from '../util/progress-relay';
import type { InitReport } from './init-progress';
import type { EngineLike } from './webllm';

export interface LlmLoadConfig {
  /** Model records and libraries; the host's default (web-llm's prebuilt list) when absent. */
  appConfig?: AppConfig;
  /** web-llm's cache (Cache API, IndexedDB, OPFS), set on whichever app config is used. */
  cacheBackend?: AppConfig['cacheBackend'];
}

/** What the LLM worker exposes. */
export interface LlmHostPort {
  /** `onProgress` as the worker holds it: each call returns a promise that settles once the page has run it; load settles after the last. */
  load(models: string[], config: LlmLoadConfig, onProgress?: (report: InitReport) => unknown): Promise<void>;
  /** The model's base URL in the app config in use (where its tokenizer.json lives), if it has a record. */
  modelUrl(modelId: string): string | undefined;
  /** Streams one completion to `onChunk`; settles after the last chunk was delivered. */
  generate(request: ChatCompletionRequestStreaming, onChunk: (chunk: ChatCompletionChunk) => Promise<void> | void): Promise<void>;
  interrupt(): void;
  unload(): Promise<void>;
}

export interface LlmHostOptions {
  /** The app config used when the page sends none. */
  defaultAppConfig: AppConfig;
  createEngine(models: string[], appConfig: AppConfig, onProgress: (report: InitReport) => void): Promise<EngineLike>;
}

export function llmHost(options: LlmHostOptions): LlmHostPort {
  let engine: EngineLike | null = null;
  let appConfig = options.defaultAppConfig;
  const release = (callback: unknown) => (callback as Partial<Comlink.ProxyMethods>)[Comlink.releaseProxy]?.();
  return {
    async load(models, config, onProgress) {
      if (engine) throw new Error('The LLM worker already has an engine; start a new worker to load other models.');
      appConfig = { ...(config.appConfig ?? options.defaultAppConfig), ...(config.cacheBackend ? { cacheBackend: config.cacheBackend } : {}) };
      // The last report ("ready") is heard before load settles, never after (progress-relay.ts).
      const relay = progressRelay(onProgress);
      try {
        engine = await options.createEngine(models, appConfig, (report) => relay.report?.({ progress: report.progress, timeElapsed: report.timeElapsed, text: report.text }));
      } finally {
        await relay.delivered();
        release(onProgress);
      }
    },
    modelUrl(modelId) {
      return appConfig.model_list.find((m) => m.model_id === modelId)?.model;
    },
    async generate(request, onChunk) {
      try {
        if (!engine) throw new Error('No model is loaded in the LLM worker.');
        const chunks = await engine.chat.completions.create(request);
        for await (const chunk of chunks) await onChunk(chunk);
      } finally {
        release(onChunk);
      }
    },
    interrupt() {
      void engine?.interruptGenerate();
    },
    async unload() {
      await engine?.unload();
      engine = null;
    },
  };
}
