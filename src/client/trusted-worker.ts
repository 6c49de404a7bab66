/**
 * Making a worker on a page that enforces Trusted Types (CSP
 * `require-trusted-types-for 'script'`), with nothing imported: the standalone
 * element's entry starts its worker with this before anything else has loaded
 * (prestart.ts), and construct-worker.ts wraps it with threadline's errors.
 *
 * Bundlers find a worker only when it is written literally as
 * `new Worker(new URL('…', import.meta.url), { type: 'module' })` with the
 * global `Worker`, so that call cannot be handed a TrustedScriptURL; where
 * Trusted Types are enforced (and no default policy lets the URL through) it
 * throws a TypeError. `makeWorker` then makes the same call once more with the
 * global `Worker` replaced, for that one synchronous call, by a subclass that
 * passes the URL through threadline's own policy. The policy
 * (`trustedTypes.createPolicy('threadline')`) vouches only for http(s) URLs of
 * the page's own origin, the only scripts a Worker can run; it is created once
 * per page and shared by every copy of threadline there (a second policy of one
 * name is refused).
 */

export const TRUSTED_TYPES_POLICY = 'threadline';

/** Where the page's one policy is kept: a registered symbol, the same in every copy of this code. */
const POLICY_SLOT = Symbol.for('threadline.trustedTypesPolicy');

interface ScriptUrlPolicy { createScriptURL(input: string): unknown }
interface TrustedTypesFactory { createPolicy(name: string, rules: { createScriptURL: (input: string) => string }): ScriptUrlPolicy }

function policy(): ScriptUrlPolicy | null {
  const scope = globalThis as { [POLICY_SLOT]?: ScriptUrlPolicy; trustedTypes?: TrustedTypesFactory };
  if (scope[POLICY_SLOT]) return scope[POLICY_SLOT];
  if (!scope.trustedTypes) return null;
  try {
    scope[POLICY_SLOT] = scope.trustedTypes.createPolicy(TRUSTED_TYPES_POLICY, { createScriptURL: sameOriginScript });
  } catch {
    return null; // the page's `trusted-types` directive does not allow the name
  }
  return scope[POLICY_SLOT];
}

/**
 * `url` vouched for by threadline's policy (a TrustedScriptURL, for sinks such as `serviceWorker.register`), or null where
 * the browser has no Trusted Types or the page does not allow the policy. Throws for a URL of another origin.
 */
export function trustedScriptUrl(url: string | URL): unknown {
  return policy()?.createScriptURL(String(url)) ?? null;
}

/** The policy's one rule: an http(s) URL of this page's origin, resolved; anything else is refused. */
function sameOriginScript(input: string): string {
  const origin = globalThis.location?.origin;
  const url = new URL(input, globalThis.location?.href);
  if (!origin || url.origin !== origin || !/^https?:$/.test(url.protocol)) throw new TypeError(`threadline's Trusted Types policy only allows scripts of this page's origin, not ${url.href}`);
  return url.href;
}

/**
 * `make()`, a function whose body is the literal `new Worker(new URL(…), {…})`. A refusal by Trusted Types is retried
 * through threadline's policy; a refusal left over is thrown as it came.
 */
export function makeWorker(make: () => Worker): Worker {
  let refusal: unknown;
  // Once Trusted Types have refused a worker on this page, later ones go through the policy at once (each refusal is a violation report).
  const known = (globalThis as { [POLICY_SLOT]?: ScriptUrlPolicy })[POLICY_SLOT];
  if (!known) {
    try {
      return make();
    } catch (error) {
      refusal = error;
    }
  }
  const trusted = known ?? (refusal instanceof TypeError ? policy() : null);
  const scope = globalThis as { Worker: typeof Worker };
  const Plain = scope.Worker;
  if (!trusted || typeof Plain !== 'function') {
    // What the browser threw, as it threw it (constructWorker words it); an Error in any case.
    throw refusal instanceof Error ? refusal : new TypeError(refusal === undefined ? 'Worker is not available here' : 'the Worker constructor refused the script');
  }
  const vouch = (url: string | URL) => trusted.createScriptURL(String(url)) as string; // a TrustedScriptURL, which Worker takes
  // Only this synchronous call sees the stand-in: no other code runs before it is put back.
  scope.Worker = class extends Plain {
    constructor(url: string | URL, options?: WorkerOptions) {
      super(vouch(url), options);
    }
  };
  try {
    return make();
  } finally {
    scope.Worker = Plain;
  }
}
