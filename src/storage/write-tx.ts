/** The transaction every index write runs in: readwrite over all four stores (see IndexStore.write). */
import type { IDBPTransaction } from 'idb';
import type { STORES, ThreadlineDB } from './schema';

export type WriteTx = IDBPTransaction<ThreadlineDB, (typeof STORES)[number][], 'readwrite'>;
