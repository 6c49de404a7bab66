/**
 * Documents as stored: many to a page record (schema.ts PageRecord). Finding
 * a document goes through the unique byDoc index; changing one rewrites its
 * page, and a page left without documents is deleted. Runs inside the
 * caller's transaction.
 */
import type { IDBPObjectStore, StoreNames } from 'idb';
import { ThreadlineError } from '../errors';
import { pageOf, paginate, type DocRecord, type PageRecord, type ThreadlineDB } from './schema';
import { issue, type WriteTx } from './write-tx';

/** The pages store, in a read or a write transaction. */
type Pages = IDBPObjectStore<ThreadlineDB, ArrayLike<StoreNames<ThreadlineDB>>, 'pages', IDBTransactionMode>;
type ReadTx = { objectStore(name: 'pages'): Pages };

/**
 * A page's documents. Records can be changed under a running instance (by
 * anyone who can run script on the origin): a page whose documents cannot all
 * be named fails the write with a typed error, before anything is written,
 * and the check on the next open (stored-index-check.ts) reports and repairs it.
 */
function docsOf(page: PageRecord): DocRecord[] {
  const docs: unknown = page.docs;
  if (!Array.isArray(docs) || !docs.every((d) => typeof (d as { id?: unknown } | null)?.id === 'string')) {
    throw new ThreadlineError('STORAGE_FAILED', 'A stored page of documents is damaged (changed outside threadline); nothing was written. Open the index again: it is checked and repaired on open.', { details: { reason: 'damaged-page' } });
  }
  return docs as DocRecord[];
}

/** The pages holding any of `ids`, by page id, each read once. */
export async function pagesHolding(tx: ReadTx | WriteTx, ids: readonly string[]): Promise<Map<number, PageRecord>> {
  const store: Pages = tx.objectStore('pages');
  const keys = await Promise.all([...new Set(ids)].map((id) => store.index('byDoc').getKey(id)));
  const pageIds = [...new Set(keys.filter((k): k is number => k !== undefined))];
  const pages = await Promise.all(pageIds.map((id) => store.get(id)));
  return new Map(pages.filter((p): p is PageRecord => p !== undefined).map((p) => [p.id as number, p]));
}

/** The stored documents among `ids` (absent ones left out), from `holding` when the pages were read already. */
export async function readDocs(tx: ReadTx | WriteTx, ids: readonly string[], holding?: Map<number, PageRecord>): Promise<DocRecord[]> {
  const wanted = new Set(ids);
  return [...(holding ?? await pagesHolding(tx, ids)).values()].flatMap((p) => docsOf(p).filter((d) => wanted.has(d.id)));
}

/** The documents of the pages that name any of `shards` in their chunkShards. */
export async function docsNamingShards(tx: WriteTx, shards: readonly number[]): Promise<{ pages: Map<number, PageRecord>; docs: DocRecord[] }> {
  const byShard = tx.objectStore('pages').index('byShard');
  const pages = new Map((await Promise.all(shards.map((id) => byShard.getAll(id)))).flat().map((p) => [p.id as number, p]));
  const named = new Set(shards);
  return { pages, docs: [...pages.values()].flatMap((p) => docsOf(p).filter((d) => Array.isArray(d.chunkShards) && d.chunkShards.some((s) => named.has(s)))) };
}

/**
 * Writes `pages` back with `change` applied to each document: a document
 * mapped to null is dropped, one mapped to itself is left as it is. A page
 * nothing changed in is not rewritten; one left empty is deleted.
 */
export function rewritePages(tx: WriteTx, pages: Iterable<PageRecord>, change: (doc: DocRecord) => DocRecord | null): void {
  for (const page of pages) {
    const own = docsOf(page);
    const next = own.map(change);
    if (next.every((d, i) => d === own[i])) continue;
    const kept = next.filter((d): d is DocRecord => d !== null);
    if (kept.length === 0) issue(tx.objectStore('pages').delete(page.id as number));
    else issue(tx.objectStore('pages').put(pageOf(kept, page.id)));
  }
}

/** Writes new documents, in pages of about PAGE_CHUNKS chunks. None may be stored already (byDoc is unique). */
export function putNewDocs(tx: WriteTx, docs: readonly DocRecord[]): void {
  for (const page of paginate(docs)) issue(tx.objectStore('pages').put(page));
}
