/**
 * Builds a prebuilt index file from documents, with the same parsing,
 * chunking, hashing and model as the browser (Node or browser).
 */
import type { ThreadlineDocument } from '../document';
import type { Embedder } from '../embedding/embedder';
import type { ThreadlineError } from '../errors';
import { readInProcess, type BinaryReader } from '../ingest/binary-reader';
import { changedDocuments } from '../ingest/changed-documents';
import { validateDocuments } from '../ingest/validate';
import type { ChunkOptions } from '../retrieval/chunker';
import { assertLoadableSize, encodePrebuilt } from './format';

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
  // Nothing is stored yet, so every document counts as changed; hashed, read and parsed as add() does.
  const { prepared, unreadable } = await changedDocuments(docs, () => Promise.resolve(new Map<string, string>()), embedder, chunking, embedder.modelId, {
    skipInvalid: options.onUnreadable !== undefined, readBinary: options.readBinary ?? readInProcess,
  });
  for (const { index, error } of unreadable) options.onUnreadable?.(docs[index]?.id ?? '', error);
  const chunks = prepared.flatMap((p) => p.chunks);
  const vectors = await embedder.embed(chunks.map((c) => c.context));
  const bytes = await encodePrebuilt({
    modelId: embedder.modelId, dims: embedder.dims, vectors, chunks,
    docs: prepared.map(({ record: { addedAt: _added, ...doc } }) => doc),
  });
  assertLoadableSize(bytes.length);
  return bytes;
}
