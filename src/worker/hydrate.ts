/**
 * Hydrating: the stored index read back into memory. Pure over what the
 * store returned: the memory index built from the stored segments with no
 * embedding call.
 */
import { MemoryIndex } from '../retrieval/memory-index';
import type { StoredIndex } from '../storage/index-store';
import { documentFields } from '../ingest/prepare';

/**
 * The memory index of a stored index; null when it holds nothing. An index
 * with documents but no vectors (texts without words) has no dimensions of
 * its own: the engine re-sizes it to the model's when the model loads.
 */
export function memoryFrom(stored: StoredIndex, int8: boolean): MemoryIndex | null {
  const dims = stored.chunks.length ? stored.manifest?.dims ?? 0 : 0;
  if (stored.docs.length === 0 && stored.chunks.length === 0) return null;
  const memory = new MemoryIndex(dims > 0 ? dims : 1, { int8, capacity: stored.chunks.length });
  // Only what memory answers from: the stored record also holds every chunk's text, which the chunks already carry.
  for (const d of stored.docs) memory.setDoc({ id: d.id, hash: d.hash, ...documentFields(d) });
  memory.addStored(stored.chunks, stored.vectors, stored.segments);
  return memory;
}
