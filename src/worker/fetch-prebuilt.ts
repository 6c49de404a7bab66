/**
 * Fetches a prebuilt index file for `load(url)`; the engine verifies it. The
 * page may have asked for the same URL ahead, with the warm-up message
 * (src/worker/warm.ts): then the first load() of it takes that response, so
 * the request overlaps the worker's start and model load instead of following
 * them (one round trip less on every visit of a page with `index`). A file
 * that says (or turns out) larger than MAX_INDEX_BYTES is refused as it
 * arrives, rather than after the download has exhausted the worker's memory.
 */
import { ThreadlineError, throwIfAborted, toThreadlineError } from '../errors';
import type { ProgressListener } from '../progress';
import { raced } from '../util/abort';
import { every } from '../util/every';
import { readStream } from '../util/read-stream';
import { labelledAsPage, startsLikePage } from '../util/served-page';
import { MAX_INDEX_BYTES } from '../prebuilt/format';

/** A fetched-ahead file is taken within this time or dropped (a load() much later fetches afresh). */
const AHEAD_MS = 30_000;

/** Progress is reported at most this often while a file downloads (and once when it is in). */
const PROGRESS_MS = 100;

type Downloaded = (loaded: number, total: number) => void;

interface Ahead {
  bytes: Promise<Uint8Array>;
  expires: number;
  /** The load() that took the file listens here; the last figures are replayed to it. */
  listeners: Set<Downloaded>;
  last: [number, number] | null;
}

const ahead = new Map<string, Ahead>();

/** Starts fetching `url` now, for the first load() of the same URL (without followRedirects) to take. */
export function fetchAhead(url: string): void {
  if (ahead.has(url)) return;
  const listeners = new Set<Downloaded>();
  const entry: Ahead = {
    listeners, last: null, expires: Date.now() + AHEAD_MS,
    // Heard only once the body arrives, by then `entry` exists.
    bytes: download(url, undefined, false, (loaded, total) => {
      entry.last = [loaded, total];
      for (const listener of listeners) listener(loaded, total);
    }),
  };
  entry.bytes.catch(() => undefined); // reported by the load() that takes it
  ahead.set(url, entry);
  // The timer frees the bytes; `expires` is what load() checks, since a background tab's timers may run late.
  setTimeout(() => { if (ahead.get(url) === entry) ahead.delete(url); }, AHEAD_MS);
}

/** Settles once every index file fetched ahead so far has arrived or failed. */
export function aheadSettled(): Promise<void> {
  return Promise.allSettled([...ahead.values()].map((entry) => entry.bytes)).then(() => undefined);
}

export async function fetchPrebuilt(url: unknown, signal?: AbortSignal, followRedirects = false, onProgress?: ProgressListener): Promise<Uint8Array> {
  if (typeof url !== 'string' || url.trim() === '') throw new ThreadlineError('INVALID_INPUT', 'load() takes the URL of a prebuilt index');
  const report = onProgress ? (loaded: number, total: number) => onProgress({ phase: 'index-download', url, loaded, total, fraction: total > 0 ? Math.min(1, loaded / total) : 0 }) : undefined;
  const early = followRedirects ? undefined : ahead.get(url);
  if (early && early.expires > Date.now()) {
    ahead.delete(url);
    if (report) {
      if (early.last) report(...early.last);
      early.listeners.add(report);
    }
    try {
      const bytes = await raced(early.bytes, signal);
      throwIfAborted(signal);
      return bytes;
    } finally {
      if (report) early.listeners.delete(report);
    }
  }
  return download(url, signal, followRedirects, report);
}

async function download(url: string, signal: AbortSignal | undefined, followRedirects: boolean, onBytes?: Downloaded): Promise<Uint8Array> {
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
  if (labelledAsPage(response.headers)) {
    void response.body?.cancel().catch(() => undefined);
    throw servedPage(url);
  }
  const total = Number(response.headers.get('content-length')) || 0;
  const tooLarge = () => new ThreadlineError('CORRUPT_INDEX', `The prebuilt index ${url} is larger than ${MAX_INDEX_BYTES / 2 ** 30} GiB, more than a browser tab can hold and decode; nothing was stored.`, { details: { url, reason: 'too-large' } });
  if (total > MAX_INDEX_BYTES) {
    void response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const due = every(PROGRESS_MS);
  const everyFew = onBytes && ((loaded: number) => { if (due()) onBytes(loaded, total); });
  const read = response.body ? readStream(response.body, { maxBytes: MAX_INDEX_BYTES, tooLarge, signal, ...(everyFew ? { onBytes: everyFew } : {}) }) : response.arrayBuffer().then((b) => new Uint8Array(b));
  const bytes = await read.catch((error: unknown) => {
    if (signal?.aborted) throw new ThreadlineError('ABORTED', 'The operation was aborted.', { cause: signal.reason });
    throw toThreadlineError(error, 'MODEL_LOAD_FAILED', `The prebuilt index ${url} was cut off while downloading`);
  });
  throwIfAborted(signal);
  if (startsLikePage(bytes)) throw servedPage(url); // the same, from a host that labels every file alike
  onBytes?.(bytes.length, total);
  return bytes;
}

/**
 * A missing file answered with status 200 and a page: a static host's single-page-app fallback (Netlify's and
 * Vercel's rewrites to /index.html) or a custom 404 page. Said as what it is, not as a corrupt index ("does not
 * start with the TLIX signature"), which sent site authors to rebuild a file that was never deployed.
 */
function servedPage(url: string): ThreadlineError {
  return new ThreadlineError('MODEL_LOAD_FAILED', `The prebuilt index ${url} answered with a web page, not an index file: the file is probably missing and the host serves a page in its place (a single-page-app fallback or a custom 404 page). Deploy the .tlix at that URL, or point to where it is.`, { details: { url, reason: 'page' } });
}
