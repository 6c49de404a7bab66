/** The manifest of one index: its model identity and counters, and the rule a write checks it by. */
import { ThreadlineError } from '../errors';
import { SCHEMA_VERSION, type Manifest } from './schema';

export interface ModelIdentity { modelId: string; dims: number }

export function emptyManifest(identity: ModelIdentity): Manifest {
  return {
    schemaVersion: SCHEMA_VERSION, modelId: identity.modelId, dims: identity.dims, nextChunkKey: 1, nextShardId: 1,
    shardLive: {}, shardSlots: {}, chunkCount: 0, docCount: 0, generation: 0, updatedAt: Date.now(),
  };
}

/** An empty store adopts the model; a non-empty one must match it exactly. */
export function checkIdentity(manifest: Manifest | undefined, identity: ModelIdentity): Manifest {
  if (!manifest) return emptyManifest(identity);
  if ((manifest.chunkCount === 0 && manifest.docCount === 0) || manifest.modelId === '') return { ...manifest, modelId: identity.modelId, dims: identity.dims };
  if (manifest.modelId !== identity.modelId || manifest.dims !== identity.dims) {
    throw new ThreadlineError('MODEL_MISMATCH',
      `This index was built with "${manifest.modelId}" (${manifest.dims} dims) but the embedder is "${identity.modelId}" (${identity.dims} dims). ` +
      'Open it with the same model, or pass onModelMismatch: "rebuild" to re-embed the stored chunks with the new one.',
      { details: { stored: { modelId: manifest.modelId, dims: manifest.dims }, requested: identity } });
  }
  return manifest;
}
