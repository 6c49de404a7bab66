// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- pdf.js ships no types for its worker module; this brings the declaration to every tsconfig that compiles this file (workers/ included)
/// <reference path="./pdfjs-worker.d.ts" />
/**
 * The parsers of binary formats, imported only when such a document arrives
 * (a page that never sees a PDF never downloads pdf.js): Mozilla's pdf.js
 * (its legacy build, which runs in every browser and in Node 20) and mammoth
 * for Word. Both are bundled into threadline's own lazy chunks, served from
 * the page's origin like everything else.
 */
import { ThreadlineError } from '../errors';
import type { Mammoth } from './docx';
import type { PdfJs } from './pdf';

let pdfjs: Promise<PdfJs> | null = null;
let mammoth: Promise<Mammoth> | null = null;

export function loadPdfjs(): Promise<PdfJs> {
  pdfjs ??= (async () => {
    const [lib, worker] = await Promise.all([import('pdfjs-dist/legacy/build/pdf.mjs'), import('pdfjs-dist/legacy/build/pdf.worker.mjs')]);
    // Found here, pdf.js runs its parser in this thread (threadline already parses in a worker)
    // instead of starting a worker of its own from a URL no bundler would see.
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
    return lib as unknown as PdfJs;
  })().catch((error: unknown) => {
    pdfjs = null;
    throw missing('PDF', error);
  });
  return pdfjs;
}

export function loadMammoth(): Promise<Mammoth> {
  mammoth ??= import('mammoth').then((mod) => ((mod as { default?: Mammoth }).default ?? mod)).catch((error: unknown) => {
    mammoth = null;
    throw missing('Word', error);
  });
  return mammoth;
}

function missing(kind: string, error: unknown): ThreadlineError {
  return new ThreadlineError('UNREADABLE_DOCUMENT', `Could not load the ${kind} reader (${error instanceof Error ? error.message : String(error)}); check that the page can fetch threadline's own chunks.`, { cause: error, details: { reason: 'parser-missing' } });
}
