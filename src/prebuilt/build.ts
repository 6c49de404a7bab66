/**
 * Builds a prebuilt index file from documents, with the same parsing,
 * chunking, hashing and model as the browser (Node or browser).
 */
import type { ThreadlineDocument } from '../document';
import type { Embedder } from '../embedding/embedder';
import { isThreadlineError, type ThreadlineError } from '../errors';
import { readInProcess, type BinaryReader } from '../ingest/binary-reader';
import { documentBytes } from '../ingest/parse';
import { prepareDocument } from '../ingest/prepare';
import { contentHash, validateDocuments } from '../ingest/validate';
import { CHUNK_DEFAULTS, type ChunkOptions } from '../retrieval/chunker';
import { encodePrebuilt } from './format';

export interface BuildOptions {
  /**
   * Called for a PDF or Word file whose content cannot be read (encrypted,
   * no text layer, damaged): it is left out and the others are built. Without
   * it, such a file fails the build.
   */
  onUnreadable?: (id: string, error: ThreadlineError) => void;
  /** How PDF and Word files are read. @default in this thread (readInProcess) */
  readBinary?: BinaryReader;
}

export async function buildPrebuiltIndex(input: readonly ThreadlineDocument[], embedder: Embedder, chunking: ChunkOptions = {}, options: BuildOptions = {}): Promise<Uint8Array> {
  const docs = validateDocuments(input);
  const recipe = { chunking: { ...CHUNK_DEFAULTS, ...chunking }, model: embedder.modelId };
  // One document at a time: a PDF's parse holds its pages' text, and a site's pages are many.
  const prepared = [];
  for (const d of docs) {
    const bytes = await documentBytes(d);
    try {
      prepared.push(await prepareDocument(d, await contentHash(d, recipe, bytes), embedder, chunking, { bytes, readBinary: options.readBinary ?? readInProcess }));
    } catch (error) {
      if (!options.onUnreadable || !isThreadlineError(error, 'UNREADABLE_DOCUMENT')) throw error;
      options.onUnreadable(d.id, error);
    }
  }
  const chunks = prepared.flatMap((p) => p.chunks);
  const vectors = await embedder.embed(chunks.map((c) => c.context));
  return encodePrebuilt({
    modelId: embedder.modelId, dims: embedder.dims, vectors, chunks,
    docs: prepared.map(({ record: { addedAt: _added, ...doc } }) => doc),
  });
}
