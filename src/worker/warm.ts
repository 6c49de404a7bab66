/**
 * Warming: the page may start the retrieval worker before its own code has
 * loaded (src/client/prestart.ts) and ask it, with one plain message, to start
 * loading an embedding model. The later init() for the same model joins that
 * load (and hears its progress) instead of starting one. comlink ignores
 * messages of types it does not know, so this one travels beside its wire.
 */
import { loadWithFallback, type EmbedderRuntime } from '../embedding/load-embedder';
import type { EmbedderOptions } from '../embedding/embedder-options';

/** The message's type; src/client/prestart.ts writes the same literal (it must not import this module). */
export const WARM_MESSAGE = 'threadline-warm';

export function listenForWarm(target: Pick<EventTarget, 'addEventListener'>, runtime: EmbedderRuntime): void {
  target.addEventListener('message', (event) => {
    const data = (event as MessageEvent<unknown>).data as { type?: unknown; embedder?: unknown } | null;
    if (data?.type !== WARM_MESSAGE) return;
    const embedder = data.embedder;
    // Only plain options are taken; anything else is ignored, as a warm-up is only ever a head start.
    if (!embedder || typeof embedder !== 'object' || Array.isArray(embedder)) return;
    void loadWithFallback(embedder as EmbedderOptions, runtime).catch(() => undefined); // init() reports the failure when it joins
  });
}
