/**
 * Hydrating: the stored index read back into memory. Pure over what the
 * store returned: the model-identity rule (written once, here), and the
 * memory index built from the stored segments with no embedding call.
 */
import { ThreadlineError } from '../errors';
import { MemoryIndex } from '../retrieval/memory-index';
import type { StoredIndex } from '../storage/index-store';
import type { Manifest } from '../storage/schema';

/**
 * The one model-identity rule: an index that holds vectors belongs to the
 * model that made them. An empty index, or one whose manifest had to be
 * rebuilt and lost its model id, accepts the configured model.
 */
export function sameModel(manifest: Manifest | undefined, modelId: string): boolean {
  return !manifest || manifest.chunkCount === 0 || manifest.modelId === '' || manifest.modelId === modelId;
}

export function modelMismatch(name: string, manifest: Manifest, modelId: string): ThreadlineError {
  return new ThreadlineError('MODEL_MISMATCH',
    `The index "${name}" was built with "${manifest.modelId}" but the embedder is "${modelId}". ` +
    'Open it with the same model, or pass onModelMismatch: "rebuild" to re-embed the stored chunks with the new model.',
    { details: { stored: { modelId: manifest.modelId, dims: manifest.dims }, requested: { modelId } } });
}

/**
 * The memory index of a stored index; null when it holds nothing. An index
 * with documents but no vectors (texts without words) has no dimensions of
 * its own: the engine re-sizes it to the model's when the model loads.
 */
export function memoryFrom(stored: StoredIndex, int8: boolean): MemoryIndex | null {
  const dims = stored.chunks.length ? stored.manifest?.dims ?? 0 : 0;
  if (stored.docs.length === 0 && stored.chunks.length === 0) return null;
  const memory = new MemoryIndex(dims > 0 ? dims : 1, { int8, capacity: stored.chunks.length });
  for (const d of stored.docs) memory.setDoc(d);
  memory.addStored(stored.chunks, stored.vectors, stored.segments);
  return memory;
}
