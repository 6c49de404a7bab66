/**
 * Fetches a prebuilt index file for `load(url)`; the engine verifies it. The
 * page may have asked for the same URL ahead, with the warm-up message
 * (src/worker/warm.ts): then the first load() of it takes that response, so
 * the request overlaps the worker's start and model load instead of following
 * them (one round trip less on every visit of a page with `index`).
 */
import { ThreadlineError, throwIfAborted, toThreadlineError } from '../errors';
import { raced } from '../util/abort';

/** A fetched-ahead file is taken within this time or dropped (a load() much later fetches afresh). */
const AHEAD_MS = 30_000;
const ahead = new Map<string, { bytes: Promise<Uint8Array>; expires: number }>();

/** Starts fetching `url` now, for the first load() of the same URL (without followRedirects) to take. */
export function fetchAhead(url: string): void {
  if (ahead.has(url)) return;
  const bytes = download(url, undefined, false);
  bytes.catch(() => undefined); // reported by the load() that takes it
  ahead.set(url, { bytes, expires: Date.now() + AHEAD_MS });
  // The timer frees the bytes; `expires` is what load() checks, since a background tab's timers may run late.
  setTimeout(() => { if (ahead.get(url)?.bytes === bytes) ahead.delete(url); }, AHEAD_MS);
}

export async function fetchPrebuilt(url: unknown, signal?: AbortSignal, followRedirects = false): Promise<Uint8Array> {
  if (typeof url !== 'string' || url.trim() === '') throw new ThreadlineError('INVALID_INPUT', 'load() takes the URL of a prebuilt index');
  const early = followRedirects ? undefined : ahead.get(url);
  if (early && early.expires > Date.now()) {
    ahead.delete(url);
    const bytes = await raced(early.bytes, signal);
    throwIfAborted(signal);
    return bytes;
  }
  return download(url, signal, followRedirects);
}

async function download(url: string, signal: AbortSignal | undefined, followRedirects: boolean): Promise<Uint8Array> {
  let response: Response;
  try {
    // Redirects are not followed unless asked for: the request must not end up at another origin.
    response = await fetch(url, { redirect: followRedirects ? 'follow' : 'manual', ...(signal ? { signal } : {}) });
  } catch (error) {
    throw toThreadlineError(error, 'MODEL_LOAD_FAILED', `Could not fetch the prebuilt index ${url}`);
  }
  if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
    throw new ThreadlineError('MODEL_LOAD_FAILED', `The prebuilt index ${url} redirects elsewhere; threadline does not follow redirects unless load() is given { followRedirects: true }. Point it at the file's final URL.`, { details: { url, redirected: true } });
  }
  if (!response.ok) throw new ThreadlineError('MODEL_LOAD_FAILED', `Could not fetch the prebuilt index ${url}: HTTP ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  throwIfAborted(signal);
  return bytes;
}
