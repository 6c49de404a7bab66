/** The manifest of one index: its model identity and counters, and the rule a write checks it by. */
import { ThreadlineError } from '../errors';
import { SCHEMA_VERSION, type Manifest } from './schema';

export interface ModelIdentity { modelId: string; dims: number }

export function emptyManifest(identity: ModelIdentity): Manifest {
  return {
    schemaVersion: SCHEMA_VERSION, modelId: identity.modelId, dims: identity.dims, nextChunkKey: 1, nextShardId: 1,
    shardLive: {}, shardSlots: {}, shardAlias: {}, chunkCount: 0, docCount: 0, generation: 0, updatedAt: Date.now(),
  };
}

/** The live shard that holds the chunks written to shard `id` (itself unless compaction merged it away). */
export function resolveShard(manifest: Pick<Manifest, 'shardAlias'> | undefined, id: number): number {
  return manifest?.shardAlias?.[id] ?? id;
}

/**
 * The one model-identity rule: an index that holds vectors belongs to the
 * model that made them (same id, and same dimensions where they are known).
 * One without vectors (empty, or only texts with nothing to index), or whose
 * manifest was rebuilt by a repair and lost its model id, accepts any model.
 */
export function acceptsModel(manifest: Manifest | undefined, requested: { modelId: string; dims?: number }): boolean {
  if (!manifest || manifest.chunkCount === 0 || manifest.modelId === '') return true;
  return manifest.modelId === requested.modelId && (requested.dims === undefined || manifest.dims === requested.dims);
}

/** Throws MODEL_MISMATCH (naming both models and what to do) unless the index accepts the model. */
export function assertSameModel(manifest: Manifest | undefined, requested: { modelId: string; dims?: number }, name?: string): void {
  if (!manifest || acceptsModel(manifest, requested)) return;
  const dims = (n: number | undefined) => (n === undefined ? '' : ` (${n} dims)`);
  throw new ThreadlineError('MODEL_MISMATCH',
    `The index${name ? ` "${name}"` : ''} was built with "${manifest.modelId}"${dims(manifest.dims)} but the embedder is "${requested.modelId}"${dims(requested.dims)}. ` +
    'Open it with the same model, or pass onModelMismatch: "rebuild" to re-embed the stored chunks with the new one.',
    { details: { stored: { modelId: manifest.modelId, dims: manifest.dims }, requested } });
}

/** The manifest a write continues from: a new one, or the stored one (which adopts the model if it holds no vectors). */
export function checkIdentity(manifest: Manifest | undefined, identity: ModelIdentity): Manifest {
  if (!manifest) return emptyManifest(identity);
  assertSameModel(manifest, identity);
  return manifest.chunkCount === 0 || manifest.modelId === '' ? { ...manifest, modelId: identity.modelId, dims: identity.dims } : manifest;
}
