/**
 * Progress crosses from the worker on a port of its own (a comlink proxy),
 * apart from the call's result, and two ports keep no order between them: a
 * `repair` event sent while an index opened could arrive after the open had
 * resolved, so a page that checked its events then missed it. The relay keeps
 * every delivery still in flight, and a call's result waits for them
 * (`delivered`): whatever a call reported has been heard before it returns.
 */
import type { ProgressListener } from '../progress';
import type { RemoteListener } from './protocol';

export interface ProgressRelay {
  /** Sends one event; undefined when nobody listens. */
  readonly report: ProgressListener | undefined;
  /** Settles once every event sent so far has been delivered (or its delivery failed). */
  delivered(): Promise<void>;
}

export function progressRelay(send: RemoteListener | undefined): ProgressRelay {
  if (!send) return { report: undefined, delivered: () => Promise.resolve() };
  const inFlight = new Set<Promise<unknown>>();
  return {
    report: (p) => {
      // Sent at once (order kept); a failed delivery is not the call's failure.
      const delivery = new Promise((resolve) => { resolve(send(p)); }).catch(() => undefined);
      inFlight.add(delivery);
      void delivery.finally(() => inFlight.delete(delivery));
    },
    delivered: async () => { await Promise.all([...inFlight]); },
  };
}
