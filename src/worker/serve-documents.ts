/**
 * What the documents worker serves: one call that reads a PDF or Word file
 * in process (pdf.js, mammoth) and answers with an envelope, so the error's
 * code and details survive the message port (a thrown error would arrive as
 * a bare Error).
 */
import type { ParsedDocument } from '../document';
import { toThreadlineError, type ThreadlineErrorCode } from '../errors';
import { readInProcess } from '../ingest/binary-reader';

export type ReadResult =
  | { ok: true; parsed: ParsedDocument }
  | { ok: false; code: ThreadlineErrorCode; message: string; details: Record<string, unknown> | undefined };

export interface DocumentsApi {
  read(format: 'pdf' | 'docx', id: string, bytes: Uint8Array, onPage?: (page: number, pages: number) => void): Promise<ReadResult>;
}

export function serveDocuments(): DocumentsApi {
  return {
    async read(format, id, bytes, onPage) {
      try {
        return { ok: true, parsed: await readInProcess({ id, format }, bytes, { onPage }) };
      } catch (error) {
        const e = toThreadlineError(error, 'UNREADABLE_DOCUMENT');
        return { ok: false, code: e.code, message: e.message, details: e.details };
      }
    },
  };
}
