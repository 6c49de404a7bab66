/**
 * Awaits that honour an AbortSignal even when the awaited work does not: a
 * custom Llm that ignores `abort()`, a worker that never answers. The work
 * itself is left to finish (its result or error is dropped); the caller moves on.
 */
import { ThreadlineError } from '../errors';

function abortError(signal: AbortSignal): ThreadlineError {
  return new ThreadlineError('ABORTED', 'The operation was aborted.', { cause: signal.reason });
}

/** `promise`, or ABORTED as soon as `signal` fires, whichever comes first. */
export function raced<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(abortError(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      promise.catch(() => undefined);
      reject(abortError(signal));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => { signal.removeEventListener('abort', onAbort); resolve(value); },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the awaited promise's own rejection, passed through unchanged
        reject(error);
      },
    );
  });
}

/** Iterates `iterable`, each step raced with `signal`; on abort or early exit it asks the source to stop without waiting for it. */
export async function* racedIterable<T>(iterable: AsyncIterable<T>, signal: AbortSignal | undefined): AsyncGenerator<T> {
  const iterator = iterable[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (;;) {
      const step = await raced(iterator.next(), signal);
      if (step.done) { finished = true; return; }
      yield step.value;
    }
  } finally {
    if (!finished) void Promise.resolve().then(() => iterator.return?.()).catch(() => undefined);
  }
}
