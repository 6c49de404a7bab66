/// <reference lib="webworker" />
/**
 * LLM worker entry: web-llm's own handler and protocol (no comlink on top).
 * It also holds a Web Lock named after this worker for its whole life, so
 * the page notices at once when the worker dies (see src/client/worker-watch.ts).
 */
import { WebWorkerMLCEngineHandler } from '@mlc-ai/web-llm';

const handler = new WebWorkerMLCEngineHandler();
self.onmessage = (message: MessageEvent) => handler.onmessage(message);
if (self.name) void navigator.locks.request(self.name, () => new Promise<never>(() => undefined));
