/** Picks the parser for a document's format: text formats at once, PDF and Word through their lazily loaded readers. */
import { BINARY_FORMATS, type DocumentFormat, type ParsedDocument, type ThreadlineDocument } from '../document';
import { ThreadlineError } from '../errors';
import type { BinaryReader } from './binary-reader';
import { parseHtml } from './html';
import { parseMarkdown } from './markdown';
import { parsePlainText } from './plain-text';

/** Parses a text format (PDF and Word need their bytes: see parseInput). */
export function parseDocument(text: string, format: DocumentFormat = 'text'): ParsedDocument {
  switch (format) {
    case 'markdown': return parseMarkdown(text);
    case 'html': return parseHtml(text);
    case 'text': return parsePlainText(text);
    case 'pdf': case 'docx': throw new ThreadlineError('INVALID_INPUT', `A ${format} file is parsed from its bytes: add it as { id, data, format: '${format}' }.`);
  }
}

export interface ParseOptions {
  signal?: AbortSignal | undefined;
  /** PDF: called after each page is read. */
  onPage?: ((page: number, pages: number) => void) | undefined;
}

/** A binary document's bytes (read once, for its hash and its parse); undefined for text formats. */
export async function documentBytes(doc: ThreadlineDocument): Promise<Uint8Array | undefined> {
  const data = doc.data;
  if (data === undefined) return undefined;
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(await data.arrayBuffer());
}

/** Parses any document; `bytes` are documentBytes(doc) for PDF and Word, which `readBinary` reads (binary-reader.ts). */
export async function parseInput(doc: ThreadlineDocument, bytes: Uint8Array | undefined, readBinary: BinaryReader, options: ParseOptions = {}): Promise<ParsedDocument> {
  if (doc.format !== undefined && BINARY_FORMATS.has(doc.format)) return readBinary(doc, bytes ?? new Uint8Array(0), options);
  return parseDocument(doc.text ?? '', doc.format);
}
