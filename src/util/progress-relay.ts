/**
 * Progress crosses from a worker on a port of its own (a comlink proxy),
 * apart from the call's result, and two ports keep no order between them: a
 * `repair` event sent while an index opened could arrive after the open had
 * resolved, so a page that checked its events then missed it. The relay keeps
 * every delivery still in flight, and a call's result waits for them
 * (`delivered`): whatever a call reported has been heard before it returns.
 * Used by every worker that reports progress: retrieval (expose-retriever.ts),
 * documents (serve-documents.ts) and the LLM's (llm-host.ts).
 */

export interface ProgressRelay<T> {
  /** Sends one event; undefined when nobody listens. */
  readonly report: ((event: T) => void) | undefined;
  /** Settles once every event sent so far has been delivered (or its delivery failed). */
  delivered(): Promise<void>;
}

/**
 * `send` is the page's listener as the worker holds it: through comlink each
 * call posts a message and returns a promise that settles once the page has run it.
 */
export function progressRelay<T>(send: ((event: T) => unknown) | undefined): ProgressRelay<T> {
  if (!send) return { report: undefined, delivered: () => Promise.resolve() };
  const inFlight = new Set<Promise<unknown>>();
  return {
    report: (event) => {
      // Sent at once (order kept); a failed delivery is not the call's failure.
      const delivery = new Promise((resolve) => { resolve(send(event)); }).catch(() => undefined);
      inFlight.add(delivery);
      void delivery.finally(() => inFlight.delete(delivery));
    },
    delivered: async () => { await Promise.all([...inFlight]); },
  };
}
