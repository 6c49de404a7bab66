/**
 * Serializes writes to one index name across tabs and workers with the Web
 * Locks API. Where it is missing (Node), a process-local queue stands in.
 */
import { SerialQueue } from '../util/serial';

interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

const local = new Map<string, SerialQueue>();

export function withWriteLock<T>(name: string, work: () => Promise<T>): Promise<T> {
  const locks = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks;
  const lockName = `threadline:${name}:write`;
  if (locks) return locks.request(lockName, work);
  let queue = local.get(lockName);
  if (!queue) local.set(lockName, (queue = new SerialQueue()));
  return queue.run(work);
}
