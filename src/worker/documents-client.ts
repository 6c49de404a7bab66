/**
 * The retrieval worker's side of the documents worker: started on the first
 * PDF or Word file and closed after a quiet minute. pdf.js and mammoth load
 * there, never in the retrieval worker, whose searches keep answering during
 * a long read. Aborting a read, or the reader dying, terminates it; the next
 * read starts a fresh one.
 */
import * as Comlink from 'comlink';
import { ThreadlineError } from '../errors';
import type { BinaryReader } from '../ingest/binary-reader';
import type { DocumentsApi } from './serve-documents';

const IDLE_MS = 60_000;

let reader: { worker: Worker; api: Comlink.Remote<DocumentsApi> } | null = null;
let idle: ReturnType<typeof setTimeout> | undefined;

function stop(): void {
  reader?.worker.terminate();
  reader = null;
}

export const readInWorker: BinaryReader = async (doc, bytes, options) => {
  if (options.signal?.aborted) throw new ThreadlineError('ABORTED', 'The operation was aborted.', { cause: options.signal.reason });
  clearTimeout(idle);
  if (!reader) {
    const worker = new Worker(new URL('../../workers/documents.worker.ts', import.meta.url), { type: 'module', name: 'threadline-documents' });
    reader = { worker, api: Comlink.wrap<DocumentsApi>(worker) };
  }
  const { worker, api } = reader;
  const cleanup: (() => void)[] = [];
  const failed = new Promise<never>((_, reject) => {
    const onError = (event: ErrorEvent) => reject(new ThreadlineError('UNREADABLE_DOCUMENT', `The document reader stopped while reading "${doc.id}" (${event.message || 'it could not start or crashed'}).`, { details: { reason: 'malformed' } }));
    const onAbort = () => reject(new ThreadlineError('ABORTED', 'The operation was aborted.', { cause: options.signal?.reason }));
    worker.addEventListener('error', onError);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    cleanup.push(() => worker.removeEventListener('error', onError), () => options.signal?.removeEventListener('abort', onAbort));
  });
  const copy = bytes.slice(); // transferred: the caller keeps its own bytes
  let answered = false;
  try {
    const result = await Promise.race([
      api.read(doc.format === 'docx' ? 'docx' : 'pdf', doc.id, Comlink.transfer(copy, [copy.buffer]), options.onPage ? Comlink.proxy(options.onPage) : undefined),
      failed,
    ]);
    answered = true;
    if (!result.ok) throw new ThreadlineError(result.code, result.message, result.details ? { details: result.details } : {});
    return result.parsed;
  } catch (error) {
    // An abandoned read would keep the reader busy, and a dead reader answers nothing: start afresh next time.
    if (!answered && reader?.worker === worker) stop();
    throw error;
  } finally {
    for (const undo of cleanup) undo();
    failed.catch(() => undefined);
    if (reader) idle = setTimeout(stop, IDLE_MS);
  }
};
