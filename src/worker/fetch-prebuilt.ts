/** Fetches a prebuilt index file for `load(url)`; the engine verifies it. */
import { ThreadlineError, throwIfAborted, toThreadlineError } from '../errors';

export async function fetchPrebuilt(url: unknown, signal?: AbortSignal): Promise<Uint8Array> {
  if (typeof url !== 'string' || url.trim() === '') throw new ThreadlineError('INVALID_INPUT', 'load() takes the URL of a prebuilt index');
  let response: Response;
  try {
    response = await fetch(url, signal ? { signal } : {});
  } catch (error) {
    throw toThreadlineError(error, 'MODEL_LOAD_FAILED', `Could not fetch the prebuilt index ${url}`);
  }
  if (!response.ok) throw new ThreadlineError('MODEL_LOAD_FAILED', `Could not fetch the prebuilt index ${url}: HTTP ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  throwIfAborted(signal);
  return bytes;
}
