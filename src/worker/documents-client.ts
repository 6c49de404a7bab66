/**
 * The retrieval worker's side of the documents worker: started on the first
 * PDF or Word file and closed after a quiet minute. pdf.js and mammoth load
 * there, never in the retrieval worker, whose searches keep answering during
 * a long read. An aborted read is cancelled there (it stops between pages)
 * and rejected here at once; reads of other calls go on. A reader that dies
 * (noticed through a Web Lock it holds, see client/worker-watch.ts) rejects
 * every read in flight, and the next read starts a fresh one.
 */
import * as Comlink from 'comlink';
import { watchWorker } from '../client/worker-watch';
import { ThreadlineError } from '../errors';
import type { BinaryReader } from '../ingest/binary-reader';
import type { DocumentsApi } from './serve-documents';
import { constructWorker } from '../client/construct-worker';

const IDLE_MS = 60_000;

let reader: { worker: Worker; api: Comlink.Remote<DocumentsApi>; inFlight: number; dead: Promise<never> } | null = null;
let idle: ReturnType<typeof setTimeout> | undefined;
let nextRead = 1;

function stop(): void {
  reader?.worker.terminate();
  reader = null;
}

function start(): NonNullable<typeof reader> {
  clearTimeout(idle);
  if (!reader) {
    // Worker options stay literal: bundlers read them (Vite refuses a computed name next to the type).
    const worker = constructWorker('document reader', () => new Worker(new URL('../../workers/documents.worker.ts', import.meta.url), { type: 'module', name: 'threadline-documents' }));
    const api = Comlink.wrap<DocumentsApi>(worker);
    // The worker holds a lock of this name for its life; its death (a crash, an out-of-memory kill, which fire no event) frees it.
    const lock = `threadline-documents-${crypto.randomUUID()}`;
    void api.hold(lock).catch(() => undefined);
    const dead = watchWorker(worker, lock, 'document reader');
    reader = { worker, api, inFlight: 0, dead };
    dead.catch(() => { if (reader?.worker === worker) stop(); });
  }
  return reader;
}

export const readInWorker: BinaryReader = async (doc, bytes, options) => {
  if (options.signal?.aborted) throw new ThreadlineError('ABORTED', 'The operation was aborted.', { cause: options.signal.reason });
  const current = start();
  const readId = nextRead++;
  current.inFlight++;
  const cleanup: (() => void)[] = [];
  const interrupted = new Promise<never>((_, reject) => {
    // The reader died (an error, a crash, out of memory): this file is what it was reading.
    current.dead.catch((error: unknown) => reject(new ThreadlineError('UNREADABLE_DOCUMENT', `The document reader stopped while reading "${doc.id}" (${error instanceof Error ? error.message : String(error)}).`, { details: { reason: 'malformed' } })));
    const onAbort = () => {
      void current.api.cancel(readId);
      reject(new ThreadlineError('ABORTED', 'The operation was aborted.', { cause: options.signal?.reason }));
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    cleanup.push(() => options.signal?.removeEventListener('abort', onAbort));
  });
  interrupted.catch(() => undefined);
  const copy = bytes.slice(); // transferred: the caller keeps its own bytes
  try {
    const result = await Promise.race([
      current.api.read(readId, doc.format === 'docx' ? 'docx' : 'pdf', doc.id, Comlink.transfer(copy, [copy.buffer]), options.onPage ? Comlink.proxy(options.onPage) : undefined),
      interrupted,
    ]);
    if (!result.ok) throw new ThreadlineError(result.code, result.message, result.details ? { details: result.details } : {});
    return result.parsed;
  } finally {
    for (const undo of cleanup) undo();
    current.inFlight--;
    if (reader === current && current.inFlight === 0) idle = setTimeout(stop, IDLE_MS);
  }
};
