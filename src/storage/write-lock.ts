/**
 * Serializes writes to one index name across tabs and workers with the Web
 * Locks API. Where it is missing (Node), a process-local queue stands in.
 */
import { Mutex } from '../util/mutex';
import { lockManager } from '../util/web-locks';

const local = new Map<string, Mutex>();

export function withWriteLock<T>(name: string, work: () => Promise<T>): Promise<T> {
  const locks = lockManager();
  const lockName = `threadline:${name}:write`;
  if (locks) return locks.request(lockName, work);
  let queue = local.get(lockName);
  if (!queue) local.set(lockName, (queue = new Mutex()));
  return queue.run(work);
}
