/// <reference lib="webworker" />
/**
 * LLM worker entry: web-llm's MLCEngine, served over comlink by llmHost
 * (src/llm/llm-host.ts). It also holds a Web Lock named after this worker for
 * its whole life, so the page notices at once when the worker dies (see
 * src/client/worker-watch.ts).
 */
import { CreateMLCEngine, prebuiltAppConfig } from '@mlc-ai/web-llm';
import * as Comlink from 'comlink';
import { llmHost } from '../src/llm/llm-host';

Comlink.expose(llmHost({
  defaultAppConfig: prebuiltAppConfig,
  createEngine: (models, appConfig, onProgress) => CreateMLCEngine(models, { appConfig, initProgressCallback: onProgress }),
}));
if (self.name) void navigator.locks.request(self.name, () => new Promise<never>(() => undefined));
