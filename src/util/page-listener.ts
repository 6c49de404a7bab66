/**
 * A page's listener as a worker calls it (a comlink proxy). A worker's result
 * waits until its events are delivered (progress-relay.ts), so delivery must
 * not wait on the listener itself: it returns at once, whatever the listener
 * returns, and a listener that throws is reported as an uncaught error on the
 * page, as an event listener's would be, instead of travelling back into the worker.
 */
import * as Comlink from 'comlink';

export function pageListener<T>(listener: ((event: T) => unknown) | undefined): ((event: T) => void) | undefined {
  if (!listener) return undefined;
  return Comlink.proxy((event: T) => {
    try {
      listener(event);
    } catch (error) {
      queueMicrotask(() => { throw error; });
    }
  });
}
