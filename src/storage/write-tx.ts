/** The transaction every index write runs in: readwrite over all four stores (see IndexStore.write). */
import type { IDBPTransaction } from 'idb';
import type { STORES, ThreadlineDB } from './schema';

export type WriteTx = IDBPTransaction<ThreadlineDB, (typeof STORES)[number][], 'readwrite'>;

/**
 * Issues a request whose result nobody awaits. Its failure aborts the
 * transaction, and the write reports that (IndexStore.write reads the
 * transaction's error); the request's own rejection is settled here, so it
 * is not an unhandled rejection besides.
 */
export function issue(request: Promise<unknown>): void {
  request.catch(() => undefined);
}
