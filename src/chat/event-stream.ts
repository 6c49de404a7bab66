/**
 * A turn's events as an async iterator whose producer does not depend on its
 * consumer. The turn starts on the first `next()`; breaking out of the loop
 * (`return()`) cancels it, as an abort does, so no half turn is kept; a
 * consumer that simply stops pulling (a UI unmounted without cleanup) leaves
 * the turn to finish on its own, so the session lock is always released and
 * the completed turn is saved. Events are buffered until read.
 */
import { ThreadlineError } from '../errors';

export type Produce<T> = (emit: (event: T) => void, signal: AbortSignal) => Promise<void>;

export function eventStream<T>(produce: Produce<T>, signal?: AbortSignal): AsyncIterableIterator<T> {
  const queue: T[] = [];
  const stop = new AbortController();
  let state: 'idle' | 'running' | 'finished' | 'closed' = 'idle';
  let failure: { error: unknown } | null = null;
  let waiter: { resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void } | null = null;
  const onAbort = () => stop.abort(signal?.reason);

  const wake = () => {
    const w = waiter;
    if (!w) return;
    if (queue.length) { waiter = null; w.resolve({ value: queue.shift() as T, done: false }); return; }
    if (state === 'running') return;
    waiter = null;
    if (failure) { const { error } = failure; failure = null; w.reject(error); return; }
    w.resolve({ value: undefined, done: true });
  };

  const start = () => {
    if (state !== 'idle') return;
    state = 'running';
    if (signal?.aborted) stop.abort(signal.reason);
    else signal?.addEventListener('abort', onAbort, { once: true });
    produce((event) => { if (state === 'running') { queue.push(event); wake(); } }, stop.signal)
      .catch((error: unknown) => { if (state === 'running') failure = { error }; })
      .finally(() => {
        signal?.removeEventListener('abort', onAbort);
        if (state === 'running') state = 'finished';
        wake();
      });
  };

  return {
    next() {
      start();
      return new Promise<IteratorResult<T>>((resolve, reject) => {
        if (waiter) { reject(new ThreadlineError('INVALID_INPUT', 'A turn can be read by one loop at a time.')); return; }
        waiter = { resolve, reject };
        wake();
      });
    },
    return() {
      if (state === 'running') stop.abort(new ThreadlineError('ABORTED', 'The consumer stopped reading the turn.'));
      state = 'closed';
      queue.length = 0;
      failure = null;
      wake();
      return Promise.resolve({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
