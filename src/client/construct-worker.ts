/**
 * Starting threadline's workers, with a typed error where the page's policy
 * refuses them. Pages that enforce Trusted Types are handled by
 * trusted-worker.ts (the worker is made again, its URL vouched for by
 * threadline's "threadline" policy). A page that lists its allowed policies
 * (`trusted-types …`) must list `threadline`; where it does not, or anything
 * else refuses the worker, the error is WORKER_UNAVAILABLE and says what to
 * change.
 */
import { ThreadlineError } from '../errors';
import { makeWorker, TRUSTED_TYPES_POLICY } from './trusted-worker';

export { TRUSTED_TYPES_POLICY, trustedScriptUrl } from './trusted-worker';

/**
 * `make()`, a function whose body is the literal `new Worker(new URL(…), {…})`; `what` names the worker in errors.
 * A refusal by Trusted Types is retried through threadline's policy; any refusal left is WORKER_UNAVAILABLE.
 */
export function constructWorker(what: string, make: () => Worker): Worker {
  try {
    return makeWorker(make);
  } catch (refusal) {
    const why = (refusal instanceof Error ? refusal.message : String(refusal)).replace(/\.$/, '');
    const fix = refusal instanceof TypeError && (globalThis as { trustedTypes?: unknown }).trustedTypes
      ? ` If the page's Content-Security-Policy enforces Trusted Types, allow the policy "${TRUSTED_TYPES_POLICY}" in its trusted-types directive.`
      : '';
    throw new ThreadlineError('WORKER_UNAVAILABLE', `The ${what} worker could not be started: ${why}.${fix}`, { cause: refusal });
  }
}
