/**
 * What the documents worker serves: reading a PDF or Word file in process
 * (pdf.js, mammoth), answered with an envelope so the error's code and
 * details survive the message port (a thrown error would arrive as a bare
 * Error), and cancelling a read, which stops it between pages. Reads run
 * one at a time, so memory holds one file's pages, however many calls add
 * files at once.
 */
import type { ParsedDocument } from '../document';
import { toThreadlineError, type ThreadlineErrorCode } from '../errors';
import { readInProcess } from '../ingest/binary-reader';
import { Mutex } from '../util/mutex';
import { progressRelay } from '../util/progress-relay';
import { lockManager } from '../util/web-locks';

export type ReadResult =
  | { ok: true; parsed: ParsedDocument }
  | { ok: false; code: ThreadlineErrorCode; message: string; details: Record<string, unknown> | undefined };

export interface DocumentsApi {
  /** `onPage` as this worker holds it returns a promise that settles once the caller has run it; a read settles after its last page was heard. */
  read(readId: number, format: 'pdf' | 'docx', id: string, bytes: Uint8Array, onPage?: (page: number, pages: number) => unknown): Promise<ReadResult>;
  cancel(readId: number): void;
  /** Holds the Web Lock `name` for the rest of this worker's life (its death frees it: see client/worker-watch.ts). */
  hold(name: string): Promise<void>;
}

export function serveDocuments(): DocumentsApi {
  const reads = new Map<number, AbortController>();
  const queue = new Mutex();
  return {
    async read(readId, format, id, bytes, onPage) {
      const controller = new AbortController();
      reads.set(readId, controller);
      const pages = progressRelay(onPage ? ([page, of]: [number, number]) => onPage(page, of) : undefined);
      const report = pages.report;
      try {
        return { ok: true, parsed: await queue.run(() => readInProcess({ id, format }, bytes, { ...(report ? { onPage: (page: number, of: number) => report([page, of]) } : {}), signal: controller.signal }), controller.signal) };
      } catch (error) {
        const e = toThreadlineError(error, 'UNREADABLE_DOCUMENT');
        return { ok: false, code: e.code, message: e.message, details: e.details };
      } finally {
        reads.delete(readId);
        // Every page event is heard before the result, failed or not (as the retrieval worker's calls do).
        await pages.delivered();
      }
    },
    cancel(readId) {
      reads.get(readId)?.abort();
    },
    hold(name) {
      return new Promise<void>((held) => {
        const locks = lockManager();
        if (!locks) return held();
        void locks.request(name, () => { held(); return new Promise<never>(() => undefined); });
      });
    },
  };
}
