/** Picks the parser for a document's format: text formats at once, PDF and Word through their lazily loaded readers. */
import { BINARY_FORMATS, type DocumentFormat, type ParsedDocument, type ThreadlineDocument } from '../document';
import { ThreadlineError } from '../errors';
import type { BinaryReader } from './binary-reader';
import { htmlSteps } from './html';
import { markdownSteps } from './markdown';
import { plainTextSteps } from './plain-text';
import { runSteps, runStepsSliced, type TimeSlice } from '../util/time-slice';

/** Parses a text format (PDF and Word need their bytes: see parseInput). */
export function parseDocument(text: string, format: DocumentFormat = 'text'): ParsedDocument {
  return runSteps(parseSteps(text, format));
}

/** The parser of a text format as steps, so a large document can be parsed a stretch at a time (time-slice.ts). */
function parseSteps(text: string, format: DocumentFormat = 'text'): Generator<void, ParsedDocument> {
  switch (format) {
    case 'markdown': return markdownSteps(text);
    case 'html': return htmlSteps(text);
    case 'text': return plainTextSteps(text);
    case 'pdf': case 'docx': throw new ThreadlineError('INVALID_INPUT', `A ${format} file is parsed from its bytes: add it as { id, data, format: '${format}' }.`);
  }
}

export interface ParseOptions {
  signal?: AbortSignal | undefined;
  /** Text formats: parse a stretch at a time, the event loop turning between stretches (an add() in the worker). */
  slice?: TimeSlice | undefined;
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
  const steps = parseSteps(doc.text ?? '', doc.format);
  return options.slice ? runStepsSliced(steps, options.slice) : runSteps(steps);
}
