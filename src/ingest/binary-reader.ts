/**
 * Reading a PDF or Word file into a ParsedDocument, as a seam: the retrieval
 * worker hands files to a documents worker of their own (src/worker/
 * documents-client.ts), so a long PDF never stalls searches and pdf.js never
 * enters the retrieval worker's bundle (a bundler that builds workers as
 * classic scripts would inline it there, for every visitor); Node (the CLI,
 * threadline/build, tests) reads in process.
 */
import type { ParsedDocument, ThreadlineDocument } from '../document';
import type { ParseOptions } from './parse';

export type BinaryReader = (doc: Pick<ThreadlineDocument, 'id' | 'format'>, bytes: Uint8Array, options: ParseOptions) => Promise<ParsedDocument>;

/** Reads in this thread, loading pdf.js or mammoth on first use. */
export const readInProcess: BinaryReader = async (doc, bytes, options) => {
  const { loadMammoth, loadPdfjs } = await import('./binary-parsers');
  if (doc.format === 'pdf') {
    const { parsePdf } = await import('./pdf');
    return parsePdf(bytes, await loadPdfjs(), doc.id, options);
  }
  const { parseDocx } = await import('./docx');
  return parseDocx(bytes, await loadMammoth(), doc.id);
};
