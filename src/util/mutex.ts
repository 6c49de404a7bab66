/**
 * One lock type for every lock and queue in threadline: tasks run one at a
 * time in call order; a failure does not block later tasks; a waiter whose
 * signal fires leaves the queue at once (the lock passes on when its turn comes).
 */
import { raced } from './abort';

export class Mutex {
  private tail: Promise<void> = Promise.resolve();

  /** Waits for the lock; call the result to release it. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    let release!: () => void;
    const previous = this.tail;
    const mine = new Promise<void>((r) => { release = r; });
    this.tail = previous.then(() => mine);
    try {
      await raced(previous, signal);
    } catch (error) {
      // Aborted while waiting: give our place up as soon as it comes, so the queue never stalls.
      void previous.then(release);
      throw error;
    }
    let released = false;
    return () => { if (!released) { released = true; release(); } };
  }

  /** Runs `task` under the lock. */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await task();
    } finally {
      release();
    }
  }
}
