/**
 * Word (.docx) to text with mammoth (loaded by the caller, see
 * binary-parsers.ts): the archive is checked first (zip-guard.ts), mammoth
 * turns it into HTML (headings as h1–h6, lists, tables), and the HTML parser
 * makes the heading paths and text the other formats get.
 */
import type { ParsedDocument } from '../document';
import { ThreadlineError } from '../errors';
import { parseHtml } from './html';
import { checkZip } from './zip-guard';

/** The part of mammoth's API used here. */
export interface Mammoth {
  convertToHtml(input: { arrayBuffer: ArrayBuffer; buffer: ArrayBuffer }): Promise<{ value: string }>;
}

export async function parseDocx(bytes: Uint8Array, mammoth: Mammoth, name: string): Promise<ParsedDocument> {
  await checkZip(bytes, name);
  let html: string;
  try {
    const copy = bytes.slice().buffer;
    // The browser build reads `arrayBuffer`, the Node build `buffer` (which takes an ArrayBuffer too).
    html = (await mammoth.convertToHtml({ arrayBuffer: copy, buffer: copy })).value;
  } catch (error) {
    throw new ThreadlineError('UNREADABLE_DOCUMENT', `"${name}" is not a readable Word file (${error instanceof Error ? error.message : String(error)}).`, { cause: error, details: { reason: 'malformed' } });
  }
  return parseHtml(html);
}
