/// <reference lib="webworker" />
/**
 * LLM worker entry: web-llm's MLCEngine, served over comlink by llmHost
 * (src/llm/llm-host.ts). It also holds the Web Lock the page names in its
 * first message for its whole life, so the page notices at once when the
 * worker dies (see src/client/worker-watch.ts).
 */
import { CreateMLCEngine, prebuiltAppConfig } from '@mlc-ai/web-llm';
import * as Comlink from 'comlink';
import { llmHost } from '../src/llm/llm-host';

Comlink.expose(llmHost({
  defaultAppConfig: prebuiltAppConfig,
  createEngine: (models, appConfig, onProgress) => CreateMLCEngine(models, { appConfig, initProgressCallback: onProgress }),
}));
// The lock arrives in a message (src/llm/webllm-engine.ts, ALIVE_MESSAGE); a worker made by an app's own factory may also
// carry it as its name, as it once had to. Each lock is taken once: a second request for it would only queue behind the first.
const held = new Set<string>();
const hold = (lock: string) => {
  if (held.has(lock) || !lock.startsWith('threadline-llm-alive:')) return;
  held.add(lock);
  void navigator.locks.request(lock, () => new Promise<never>(() => undefined));
};
self.addEventListener('message', (event: MessageEvent<{ type?: unknown; lock?: unknown } | null>) => {
  if (event.data?.type === 'threadline-alive' && typeof event.data.lock === 'string') hold(event.data.lock);
});
if (self.name) hold(self.name);
