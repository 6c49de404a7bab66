/**
 * constructWorker (src/client/construct-worker.ts) and the watcher's start
 * failures (src/client/worker-watch.ts), in Node with a fake `Worker` and a
 * fake `trustedTypes` standing in for the browser's (the same checks run for
 * real in Chromium under real CSP headers: test/e2e/element.test.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { constructWorker, TRUSTED_TYPES_POLICY } from '../../src/client/construct-worker';
import { makeWorker } from '../../src/client/trusted-worker';
import { watchWorker } from '../../src/client/worker-watch';

const ORIGIN = 'https://docs.example';
const POLICY_SLOT = Symbol.for('threadline.trustedTypesPolicy');
const scope = globalThis as Record<string | symbol, unknown>;
const saved = { Worker: scope.Worker, trustedTypes: scope.trustedTypes, location: scope.location };

/** What the fake Trusted Types hand out: a wrapper the fake Worker accepts where it refuses strings. */
class TrustedScriptUrl { constructor(readonly url: string) {} toString() { return this.url; } }

/** A Worker that, like Chromium's under `require-trusted-types-for 'script'`, refuses anything but a TrustedScriptURL. */
class EnforcingWorker extends EventTarget {
  static made: string[] = [];
  constructor(url: unknown) {
    super();
    if (!(url instanceof TrustedScriptUrl)) throw new TypeError("Failed to construct 'Worker': This document requires 'TrustedScriptURL' assignment.");
    EnforcingWorker.made.push(url.url);
  }
  terminate() { /* nothing runs */ }
}

let policies: string[];
function trustedTypes(allowed: (name: string) => boolean) {
  return {
    createPolicy(name: string, rules: { createScriptURL: (input: string) => string }) {
      if (!allowed(name)) throw new TypeError(`Creating a TrustedTypePolicy named '${name}' violates the trusted-types directive`);
      policies.push(name);
      return { createScriptURL: (input: string) => new TrustedScriptUrl(rules.createScriptURL(input)) };
    },
  };
}

/** The error `run` throws (it must throw). */
function thrown(run: () => unknown): { code?: string; message: string } {
  try {
    run();
  } catch (error) {
    return error as { code?: string; message: string };
  }
  throw new Error('expected a throw');
}

const sameOrigin = () => new Worker(new URL('/assets/retrieval.worker.js', ORIGIN), { type: 'module' });

beforeEach(() => {
  policies = [];
  EnforcingWorker.made = [];
  scope.location = { origin: ORIGIN, href: `${ORIGIN}/guide/` };
});
afterEach(() => {
  delete scope[POLICY_SLOT];
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete scope[key];
    else scope[key] = value;
  }
});

describe('constructWorker', () => {
  it('makes the worker as written where nothing refuses it, and creates no policy', () => {
    let calls = 0;
    class PlainWorker extends EventTarget { constructor() { super(); calls++; } }
    scope.Worker = PlainWorker;
    scope.trustedTypes = trustedTypes(() => true);
    expect(constructWorker('retrieval', sameOrigin)).toBeInstanceOf(PlainWorker);
    expect(calls).toBe(1);
    expect(policies).toEqual([]);
  });

  it('under Trusted Types: retries through one "threadline" policy, puts the global Worker back, and goes through the policy at once afterwards', () => {
    scope.Worker = EnforcingWorker;
    scope.trustedTypes = trustedTypes(() => true);
    let calls = 0;
    const make = () => { calls++; return sameOrigin(); };
    const worker = constructWorker('retrieval', make);
    expect(worker).toBeInstanceOf(EnforcingWorker);
    expect(EnforcingWorker.made).toEqual([`${ORIGIN}/assets/retrieval.worker.js`]);
    expect(scope.Worker).toBe(EnforcingWorker);
    expect(policies).toEqual([TRUSTED_TYPES_POLICY]);
    expect(calls).toBe(2);
    constructWorker('document reader', make);
    expect(calls).toBe(3); // no refused first try: each one is a violation report on the page
    expect(policies).toEqual([TRUSTED_TYPES_POLICY]); // one policy per page, whichever copy of threadline asks
  });

  it("the policy vouches only for this page's origin: another origin's script is WORKER_UNAVAILABLE", () => {
    scope.Worker = EnforcingWorker;
    scope.trustedTypes = trustedTypes(() => true);
    const foreign = thrown(() => constructWorker('retrieval', () => new Worker(new URL('https://cdn.example/worker.js'), { type: 'module' })));
    expect(foreign.code).toBe('WORKER_UNAVAILABLE');
    expect(foreign.message).toMatch(/only allows scripts of this page's origin/);
    expect(thrown(() => constructWorker('retrieval', () => new Worker('data:text/javascript,1', { type: 'module' }))).code).toBe('WORKER_UNAVAILABLE');
    expect(EnforcingWorker.made).toEqual([]);
    expect(scope.Worker).toBe(EnforcingWorker);
  });

  it('a page whose trusted-types directive does not allow "threadline": WORKER_UNAVAILABLE naming the fix', () => {
    scope.Worker = EnforcingWorker;
    scope.trustedTypes = trustedTypes((name) => name === 'dompurify');
    const error = thrown(() => constructWorker('retrieval', sameOrigin));
    expect(error.code).toBe('WORKER_UNAVAILABLE');
    expect(error.message).toMatch(/retrieval worker could not be started: .*TrustedScriptURL.*allow the policy "threadline" in its trusted-types directive/);
    expect(scope.Worker).toBe(EnforcingWorker);
  });

  it('another refusal (no Trusted Types in this browser, a SecurityError): WORKER_UNAVAILABLE with the browser\'s reason', () => {
    scope.Worker = class { constructor() { throw new DOMException('Access to the script is denied', 'SecurityError'); } };
    expect(thrown(() => constructWorker('language model', sameOrigin))).toMatchObject({
      code: 'WORKER_UNAVAILABLE', message: 'The language model worker could not be started: Access to the script is denied.',
    });
  });
});

describe('makeWorker (the import-free core the standalone entry copies)', () => {
  it('with the policy known but no Worker global: an Error saying so, never a bare undefined (which read "could not be started: undefined")', () => {
    scope.trustedTypes = trustedTypes(() => true);
    scope[POLICY_SLOT] = (scope.trustedTypes as ReturnType<typeof trustedTypes>).createPolicy('threadline', { createScriptURL: (u) => u });
    delete scope.Worker;
    let error: unknown;
    try {
      makeWorker(sameOrigin);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(TypeError);
    const unavailable = thrown(() => constructWorker('retrieval', sameOrigin));
    expect(unavailable.code).toBe('WORKER_UNAVAILABLE');
    expect(unavailable.message).toMatch(/^The retrieval worker could not be started: Worker is not available here\./);
  });

  it('under Trusted Types, makes the worker through the policy that constructWorker shares (one policy per page, whichever made it)', () => {
    scope.Worker = EnforcingWorker;
    scope.trustedTypes = trustedTypes(() => true);
    makeWorker(sameOrigin); // the standalone entry's early start
    constructWorker('retrieval', sameOrigin); // the library's, later
    expect(policies).toEqual(['threadline']);
    expect(EnforcingWorker.made).toEqual([`${ORIGIN}/assets/retrieval.worker.js`, `${ORIGIN}/assets/retrieval.worker.js`]);
  });
});

describe('watchWorker: a script that never loaded is not a crash to retry', () => {
  const watch = (event: Event) => {
    const worker = new EventTarget() as Worker;
    const dead = watchWorker(worker, 'threadline-test-never-held', 'retrieval');
    worker.dispatchEvent(event);
    return dead;
  };

  it('an error event without a message before the worker ran (CSP worker-src, a 404): WORKER_UNAVAILABLE', async () => {
    const error = await watch(new Event('error')).catch((e: unknown) => e as { code: string; message: string });
    expect(error.code).toBe('WORKER_UNAVAILABLE');
    expect(error.message).toMatch(/could not start: its script did not load/);
  });

  it('an uncaught error with a message: WORKER_CRASHED, as before', async () => {
    const error = Object.assign(new Event('error'), { message: 'Uncaught RangeError: boom' });
    await expect(watch(error)).rejects.toMatchObject({ code: 'WORKER_CRASHED', message: 'The retrieval worker stopped (Uncaught RangeError: boom); the next call restarts it.' });
  });
});
