/**
 * Metadata filter for search. Structured-cloneable (it crosses the worker
 * boundary), so it is data, not a function: every given field must match.
 */
import type { MetadataValue } from '../index-data';

export type { MetadataValue };

export interface SearchFilter {
  /** Only these documents. */
  docIds?: readonly string[];
  /** Each key must equal the value, or be one of the values when an array is given. */
  metadata?: Readonly<Record<string, MetadataValue | readonly MetadataValue[]>>;
}

export interface FilterableChunk {
  docId: string;
  metadata?: Readonly<Record<string, unknown>> | undefined;
}

export function matchesFilter(chunk: FilterableChunk, filter: SearchFilter | undefined): boolean {
  if (!filter) return true;
  if (filter.docIds && !filter.docIds.includes(chunk.docId)) return false;
  for (const [field, wanted] of Object.entries(filter.metadata ?? {})) {
    const actual = chunk.metadata?.[field];
    const options: readonly unknown[] = Array.isArray(wanted) ? wanted : [wanted];
    if (!options.some((w) => Object.is(w, actual) || (w === null && actual === undefined))) return false;
  }
  return true;
}
