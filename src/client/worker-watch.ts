/**
 * Notices a dead worker. The worker takes a Web Lock named after itself for
 * its whole life; once it holds it, we queue for the same lock, which the
 * browser grants only when the worker's hold ends, that is, when it dies.
 * Works for terminate(), crashes and out-of-memory kills alike; an uncaught
 * error or an unreadable message counts as death too. A script that never
 * loaded (refused by the page's CSP, missing) is WORKER_UNAVAILABLE instead:
 * the next call would fail the same way.
 */
import { ThreadlineError } from '../errors';
import { lockManager } from '../util/web-locks';


/** A rejecting promise for the worker's death; `what` names it in the error. Never resolves. */
export function watchWorker(worker: Worker, lockName: string, what: string): Promise<never> {
  const dead = new Promise<never>((_, reject) => {
    let started = false;
    const die = (why: string) => reject(new ThreadlineError('WORKER_CRASHED', `The ${what} worker stopped (${why}); the next call restarts it.`));
    worker.addEventListener('error', (e: Event) => {
      const message = (e as Partial<ErrorEvent>).message;
      if (message) die(message);
      // An error without a message before the worker ever ran is its script failing to load: retrying cannot help.
      else if (!started) reject(new ThreadlineError('WORKER_UNAVAILABLE', `The ${what} worker could not start: its script did not load (the page's Content-Security-Policy refused it in worker-src or script-src, the file is missing from the server, or it is not served as JavaScript; the browser's console names the cause).`));
      else die('uncaught error');
    });
    worker.addEventListener('messageerror', () => die('unreadable message'));
    const locks = lockManager();
    if (!locks) return;
    void (async () => {
      // Wait until the worker holds its lock, then queue behind it.
      for (let i = 0; i < 500; i++) {
        const state = await locks.query();
        if (state.held?.some((l) => l.name === lockName)) { started = true; break; }
        await new Promise((r) => setTimeout(r, 20));
      }
      await locks.request(lockName, () => die('terminated'));
    })();
  });
  dead.catch(() => undefined);
  return dead;
}
