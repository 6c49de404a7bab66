/**
 * Builds a prebuilt index file from documents, with the same parsing,
 * chunking, hashing and model as the browser (Node or browser).
 */
import type { ThreadlineDocument } from '../document';
import type { Embedder } from '../embedding/embedder';
import { prepareDocument } from '../ingest/prepare';
import { contentHash, validateDocuments } from '../ingest/validate';
import { CHUNK_DEFAULTS, type ChunkOptions } from '../retrieval/chunker';
import { encodePrebuilt } from './format';

export async function buildPrebuiltIndex(input: readonly ThreadlineDocument[], embedder: Embedder, chunking: ChunkOptions = {}): Promise<Uint8Array> {
  const docs = validateDocuments(input);
  const recipe = { chunking: { ...CHUNK_DEFAULTS, ...chunking }, model: embedder.modelId };
  const prepared = await Promise.all(docs.map(async (d) => prepareDocument(d, await contentHash(d, recipe), embedder, chunking)));
  const chunks = prepared.flatMap((p) => p.chunks);
  const vectors = await embedder.embed(chunks.map((c) => c.context));
  return encodePrebuilt({
    modelId: embedder.modelId, dims: embedder.dims, vectors, chunks,
    docs: prepared.map(({ record: { addedAt: _added, ...doc } }) => doc),
  });
}
