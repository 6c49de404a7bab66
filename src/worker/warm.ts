/**
 * Warming: the page may start the retrieval worker before its own code has
 * loaded (src/client/prestart.ts) and ask it, with one plain message, to start
 * loading an embedding model and fetching the prebuilt index files it will
 * load(). The later init() for the same model joins that load (and hears its
 * progress) instead of starting one, and the first load() of a URL takes its
 * response (fetch-prebuilt.ts). comlink ignores messages of types it does not
 * know, so this one travels beside its wire.
 */
import { loadWithFallback, type EmbedderRuntime } from '../embedding/load-embedder';
import type { EmbedderOptions } from '../embedding/embedder-options';
import { aheadSettled, fetchAhead } from './fetch-prebuilt';
import { settledWithin } from '../util/settled-within';

/** At most this many index files are fetched ahead per message. */
const MAX_AHEAD = 4;
/** The longest the model's download waits for the index files fetched ahead (seconds of a slow link's index, not a stalled one). */
const AHEAD_WAIT_MS = 10_000;

/** The message's type; src/client/prestart.ts writes the same literal (it must not import this module). */
export const WARM_MESSAGE = 'threadline-warm';

export function listenForWarm(target: Pick<EventTarget, 'addEventListener'>, runtime: EmbedderRuntime): void {
  target.addEventListener('message', (event) => {
    const data = (event as MessageEvent<unknown>).data as { type?: unknown; embedder?: unknown; prefetch?: unknown } | null;
    if (data?.type !== WARM_MESSAGE) return;
    // Absolute http(s) URLs only, as load() receives them from the page; anything else is ignored.
    const urls = Array.isArray(data.prefetch) ? data.prefetch.filter((url): url is string => typeof url === 'string' && /^https?:\/\//i.test(url)) : [];
    for (const url of urls.slice(0, MAX_AHEAD)) fetchAhead(url);
    const embedder = data.embedder;
    // Only plain options are taken; anything else is ignored, as a warm-up is only ever a head start.
    if (!embedder || typeof embedder !== 'object' || Array.isArray(embedder)) return;
    // The model's files are fetched once the index files are in: the element is ready with the index alone (a chat
    // turn searches by words until the model arrives), so on a slow connection the index gets the whole link.
    // From the HTTP cache (a reload) that costs a few ms, well inside the time the first question waits for it.
    // At most AHEAD_WAIT_MS: an index download that stalls must not keep the model from ever loading.
    const notBefore = urls.length ? settledWithin(aheadSettled(), AHEAD_WAIT_MS) : undefined;
    void loadWithFallback(embedder as EmbedderOptions, notBefore ? { ...runtime, notBefore } : runtime).catch(() => undefined); // init() reports the failure when it joins
  });
}
