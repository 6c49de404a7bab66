/**
 * Which documents of a batch changed (content hash against the stored one),
 * parsed and chunked: shared by add() (worker/ingest-batches.ts) and the
 * prebuilt index builder (prebuilt/build.ts), so both hash, read and report
 * unreadable files alike.
 */
import type { ThreadlineDocument } from '../document';
import type { Embedder } from '../embedding/embedder';
import { ThreadlineError, isThreadlineError, throwIfAborted } from '../errors';
import type { ProgressListener } from '../progress';
import { CHUNK_DEFAULTS, type ChunkOptions } from '../retrieval/chunker';
import type { PendingDoc } from '../storage/index-store';
import type { BinaryReader } from './binary-reader';
import { documentBytes } from './parse';
import { PREPARE_VERSION, prepareDocument } from './prepare';
import { contentHash } from './validate';
import { TimeSlice } from '../util/time-slice';

export type PreparedDoc = Omit<PendingDoc, 'vectors'>;

/**
 * The documents whose content hash differs from the stored one, prepared
 * (parsed and chunked), one after the other so at most one PDF is open at a
 * time. Every document is parsed before anything is embedded or written: an
 * unreadable file fails the call with nothing stored, or with `skipInvalid`
 * is returned in `unreadable` (by position in `docs`) while the others go on.
 */
export async function changedDocuments(
  docs: readonly ThreadlineDocument[], storedHashes: (ids: string[]) => Promise<Map<string, string>>,
  embedder: Pick<Embedder, 'countTokens' | 'maxTokens'>, chunking: ChunkOptions, modelId: string,
  options: { signal?: AbortSignal | undefined; onProgress?: ProgressListener | undefined; skipInvalid?: boolean | undefined; readBinary: BinaryReader },
): Promise<{ prepared: PreparedDoc[]; unreadable: { index: number; error: ThreadlineError }[] }> {
  const recipe = { prepare: PREPARE_VERSION, chunking: { ...CHUNK_DEFAULTS, ...chunking }, model: modelId };
  // Text documents are hashed together; a file's bytes are read (a Blob's from disk) only when its turn comes,
  // so a batch of files holds one file's bytes at a time.
  const textHashes = await Promise.all(docs.map((d) => (d.data === undefined ? contentHash(d, recipe) : Promise.resolve(''))));
  const stored = await storedHashes(docs.map((d) => d.id));
  const prepared: PreparedDoc[] = [];
  const unreadable: { index: number; error: ThreadlineError }[] = [];
  // Preparing many documents, or one large one, is not one stretch of the thread's time: a search or an abort gets in.
  const slice = new TimeSlice(options.signal);
  for (const [i, doc] of docs.entries()) {
    throwIfAborted(options.signal);
    if (slice.due()) await slice.next();
    const bytes = await documentBytes(doc);
    const hash = bytes ? await contentHash(doc, recipe, bytes) : textHashes[i] as string;
    if (stored.get(doc.id) === hash) continue;
    try {
      prepared.push(await prepareDocument(doc, hash, embedder, chunking, {
        bytes, signal: options.signal, readBinary: options.readBinary, slice,
        onPage: (page, pages) => options.onProgress?.({ phase: 'parse', docId: doc.id, page, pages }),
      }));
    } catch (error) {
      if (!isThreadlineError(error, 'UNREADABLE_DOCUMENT')) throw error;
      // The document's id goes with the error, so a caller of a batch knows which file it was.
      const named = new ThreadlineError(error.code, error.message, { cause: error.cause, details: { ...error.details, id: doc.id } });
      if (!options.skipInvalid) throw named;
      unreadable.push({ index: i, error: named });
    }
  }
  return { prepared, unreadable };
}
