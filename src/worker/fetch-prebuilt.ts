/** Fetches a prebuilt index file for `load(url)`; the engine verifies it. */
import { ThreadlineError, throwIfAborted, toThreadlineError } from '../errors';

export async function fetchPrebuilt(url: unknown, signal?: AbortSignal, followRedirects = false): Promise<Uint8Array> {
  if (typeof url !== 'string' || url.trim() === '') throw new ThreadlineError('INVALID_INPUT', 'load() takes the URL of a prebuilt index');
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
