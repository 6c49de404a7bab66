/**
 * Parses, chunks and describes one document, ready to embed. Shared by the
 * retrieval worker and the Node index builder, so a prebuilt index holds
 * exactly the chunks the browser would have made.
 */
import type { ThreadlineDocument } from '../document';
import type { Embedder } from '../embedding/embedder';
import { CHUNK_DEFAULTS, chunkDocument, chunkDocumentSliced, type ChunkOptions } from '../retrieval/chunker';
import type { PendingDoc } from '../storage/index-store';
import type { DocRecord } from '../storage/schema';
import type { BinaryReader } from './binary-reader';
import { parseInput, type ParseOptions } from './parse';

/**
 * The version of what prepareDocument makes of a document (its parsers and the
 * chunker). It is part of every document's content hash (changed-documents.ts),
 * so after an upgrade that changes it, add() of a document whose text did not
 * change prepares and embeds it again instead of keeping the chunks the old code
 * made. Bump it whenever the same input yields other chunks:
 * test/unit/prepare-version.test.ts fails until you do.
 */
export const PREPARE_VERSION = 7;

/** The optional document fields that are set, without undefined keys. */
export function documentFields(doc: { title?: string | undefined; url?: string | undefined; metadata?: DocRecord['metadata'] }): Pick<DocRecord, 'title' | 'url' | 'metadata'> {
  return {
    ...(doc.title !== undefined ? { title: doc.title } : {}),
    ...(doc.url !== undefined ? { url: doc.url } : {}),
    ...(doc.metadata !== undefined ? { metadata: doc.metadata } : {}),
  };
}

/** A chunk as stored: its fields, and its page where it has one (prepare and rebuild write the same shape). */
export function storedChunk(docId: string, c: { text: string; context: string; headingPath: string[]; start: number; end: number; page?: number | undefined }): PendingDoc['chunks'][number] {
  return { docId, text: c.text, context: c.context, headingPath: c.headingPath, start: c.start, end: c.end, ...(c.page !== undefined ? { page: c.page } : {}) };
}

export async function prepareDocument(
  doc: ThreadlineDocument, hash: string, embedder: Pick<Embedder, 'countTokens' | 'maxTokens'>, chunking: ChunkOptions,
  input: ParseOptions & { bytes?: Uint8Array | undefined; readBinary: BinaryReader },
): Promise<Omit<PendingDoc, 'vectors'>> {
  const parsed = await parseInput(doc, input.bytes, input.readBinary, input);
  // A file without a title of its own is named by its id (usually its file name): "Manual.pdf, p. 12".
  const title = doc.title ?? parsed.title ?? (doc.data !== undefined ? doc.id : undefined);
  const maxTokens = Math.min(chunking.maxTokens ?? CHUNK_DEFAULTS.maxTokens, embedder.maxTokens);
  const options = { ...CHUNK_DEFAULTS, ...chunking, maxTokens };
  const count = (t: string) => embedder.countTokens(t);
  const chunks = input.slice ? await chunkDocumentSliced(parsed, title, count, options, input.slice) : chunkDocument(parsed, title, count, options);
  return {
    record: { id: doc.id, hash, chars: parsed.text.length, addedAt: Date.now(), ...documentFields({ ...doc, title }) },
    chunks: chunks.map((c) => storedChunk(doc.id, c)),
  };
}
