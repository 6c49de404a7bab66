/**
 * A response body read piece by piece, as it arrives: model files (for their
 * download progress) and prebuilt index files (for progress and a size limit
 * checked before the whole file is in memory) are both read this way.
 */
import { throwIfAborted } from '../errors';

export interface ReadStreamOptions {
  /** The running total after every piece. */
  onBytes?: (loaded: number) => void;
  /** A body past this many bytes is cancelled and `tooLarge()` thrown. */
  maxBytes?: number;
  tooLarge?: () => Error;
  /** Fired between pieces: the body is cancelled and ABORTED thrown. */
  signal?: AbortSignal | undefined;
}

export async function readStream(body: ReadableStream<Uint8Array>, options: ReadStreamOptions = {}): Promise<Uint8Array> {
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let loaded = 0;
  const cancel = () => { void reader.cancel().catch(() => undefined); };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    loaded += value.byteLength;
    if (options.maxBytes !== undefined && loaded > options.maxBytes) {
      cancel();
      throw options.tooLarge?.() ?? new RangeError(`more than ${options.maxBytes} bytes`);
    }
    parts.push(value);
    options.onBytes?.(loaded);
    if (options.signal?.aborted) {
      cancel();
      throwIfAborted(options.signal);
    }
  }
  const out = new Uint8Array(loaded);
  let at = 0;
  for (const part of parts) { out.set(part, at); at += part.byteLength; }
  return out;
}
