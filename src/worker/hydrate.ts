/**
 * Hydrating: the stored index read back into memory. Pure over what the
 * store returned: the memory index built from the stored segments with no
 * embedding call.
 */
import { MemoryIndex } from '../retrieval/memory-index';
import type { StoredIndex } from '../storage/index-store';
import { documentFields } from '../ingest/prepare';
import { isManifest } from '../storage/stored-index-check';

/** The most vector memory prepared ahead of the records on the manifest's word alone (the records then decide). */
const PREPARE_LIMIT_BYTES = 1 << 30;

/**
 * A memory index sized by the stored manifest and its pages mapped (VectorIndex.touch),
 * made while IndexedDB still reads the records; null when the manifest is unreadable,
 * empty or implausibly large, or the memory cannot be had (memoryFrom then makes its own).
 */
export function prepareMemory(rawManifest: unknown, int8: boolean): MemoryIndex | null {
  if (!isManifest(rawManifest) || rawManifest.chunkCount === 0 || rawManifest.dims === 0) return null;
  if (rawManifest.chunkCount * rawManifest.dims * 4 > PREPARE_LIMIT_BYTES) return null;
  try {
    const memory = new MemoryIndex(rawManifest.dims, { int8, capacity: rawManifest.chunkCount });
    memory.vectors.touch();
    return memory;
  } catch {
    return null;
  }
}

/**
 * The memory index of a stored index; null when it holds nothing. An index
 * with documents but no vectors (texts without words) has no dimensions of
 * its own: the engine re-sizes it to the model's when the model loads.
 */
export function memoryFrom(stored: StoredIndex, int8: boolean, prepared: MemoryIndex | null = null): MemoryIndex | null {
  const dims = stored.chunks.length ? stored.manifest?.dims ?? 0 : 0;
  if (stored.docs.length === 0 && stored.chunks.length === 0) return null;
  // The prepared index serves when it fits what was read: a manifest that overstated its count by much does not keep its memory.
  const fits = prepared !== null && prepared.dims === dims && prepared.chunkCount === 0 && prepared.docCount === 0
    && prepared.vectors.capacity >= stored.chunks.length && prepared.vectors.capacity <= 2 * stored.chunks.length + 1024;
  const memory = fits ? prepared : new MemoryIndex(dims > 0 ? dims : 1, { int8, capacity: stored.chunks.length });
  // Only what memory answers from: the stored record also holds every chunk's text, which the chunks already carry.
  for (const d of stored.docs) memory.setDoc({ id: d.id, hash: d.hash, ...documentFields(d) });
  memory.addStored(stored.chunks, stored.vectors, stored.segments);
  return memory;
}
