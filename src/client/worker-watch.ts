/**
 * Notices a dead worker. The worker takes a Web Lock named after itself for
 * its whole life; once it holds it, we queue for the same lock, which the
 * browser grants only when the worker's hold ends, that is, when it dies.
 * Works for terminate(), crashes and out-of-memory kills alike; an uncaught
 * error or an unreadable message counts as death too.
 */
import { ThreadlineError } from '../errors';
import { lockManager } from '../util/web-locks';


/** A rejecting promise for the worker's death; `what` names it in the error. Never resolves. */
export function watchWorker(worker: Worker, lockName: string, what: string): Promise<never> {
  const dead = new Promise<never>((_, reject) => {
    const die = (why: string) => reject(new ThreadlineError('WORKER_CRASHED', `The ${what} worker stopped (${why}); the next call restarts it.`));
    worker.addEventListener('error', (e) => die(e.message || 'uncaught error'));
    worker.addEventListener('messageerror', () => die('unreadable message'));
    const locks = lockManager();
    if (!locks) return;
    void (async () => {
      // Wait until the worker holds its lock, then queue behind it.
      for (let i = 0; i < 500; i++) {
        const state = await locks.query();
        if (state.held?.some((l) => l.name === lockName)) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      await locks.request(lockName, () => die('terminated'));
    })();
  });
  dead.catch(() => undefined);
  return dead;
}
