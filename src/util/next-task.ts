/**
 * Resolves in a later task of the event loop, so that messages waiting for
 * this thread (an abort from the page, another call's request) are handled
 * first. A promise that settles in a microtask never lets them in, and
 * setTimeout(0) is clamped to 4 ms once nested; a message on a channel is neither.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(null);
  });
}
