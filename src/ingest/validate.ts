/**
 * Checks documents at the API edge, so bad input fails fast with a typed
 * error naming the offending document, before any work or any write.
 */
import { BINARY_FORMATS, type DocumentFormat, type ThreadlineDocument } from '../document';
import { ThreadlineError } from '../errors';

export const DOCUMENT_LIMITS = Object.freeze({
  /** Characters in an id. */
  idLength: 512,
  /** Characters of text in one document (64 Mi). */
  textLength: 64 * 1024 * 1024,
  /** Bytes of a PDF or Word file (256 MiB). */
  dataBytes: 256 * 1024 * 1024,
  /** Metadata fields per document. */
  metadataFields: 64,
  /** Documents in one `add` call. */
  docsPerCall: 1_000_000,
});

const FORMATS = new Set(['text', 'markdown', 'html', 'pdf', 'docx']);

function fail(index: number, id: unknown, problem: string): never {
  const label = typeof id === 'string' ? `"${id.slice(0, 80)}"` : `#${index}`;
  throw new ThreadlineError('INVALID_INPUT', `Document ${label}: ${problem}`, { details: { index, id: typeof id === 'string' ? id : undefined } });
}

function checkOne(doc: unknown, index: number): ThreadlineDocument {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) fail(index, undefined, 'must be an object { id, text }');
  const d = doc as Record<string, unknown>;
  if (typeof d.id !== 'string' || d.id.trim() === '') fail(index, d.id, 'id must be a non-empty string');
  if (d.id.length > DOCUMENT_LIMITS.idLength) fail(index, d.id, `id is longer than ${DOCUMENT_LIMITS.idLength} characters`);
  if (d.format !== undefined && !FORMATS.has(d.format as string)) fail(index, d.id, `format must be one of text, markdown, html, pdf, docx`);
  if (BINARY_FORMATS.has(d.format as DocumentFormat)) checkData(d, d.id, index);
  else {
    if (d.data !== undefined) fail(index, d.id, "data is for format 'pdf' or 'docx'; give text formats as text");
    if (typeof d.text !== 'string') {
      // (objects with toString are refused too: only real strings cross to the worker)
      fail(index, d.id, ArrayBuffer.isView(d.text) || d.text instanceof ArrayBuffer
        ? "text must be a string; decode bytes first (new TextDecoder().decode(bytes)), or pass a PDF or Word file as data with format 'pdf' or 'docx'" : 'text must be a string');
    }
    if (d.text.length > DOCUMENT_LIMITS.textLength) fail(index, d.id, `text is longer than ${DOCUMENT_LIMITS.textLength} characters; split the document`);
  }
  for (const field of ['title', 'url'] as const) {
    if (d[field] !== undefined && typeof d[field] !== 'string') fail(index, d.id, `${field} must be a string`);
  }
  if (d.metadata !== undefined) {
    if (typeof d.metadata !== 'object' || d.metadata === null || Array.isArray(d.metadata)) fail(index, d.id, 'metadata must be a flat object');
    const entries = Object.entries(d.metadata);
    if (entries.length > DOCUMENT_LIMITS.metadataFields) fail(index, d.id, `metadata has more than ${DOCUMENT_LIMITS.metadataFields} fields`);
    for (const [k, v] of entries) {
      if (v !== null && !['string', 'number', 'boolean'].includes(typeof v)) fail(index, d.id, `metadata.${k} must be a string, number, boolean or null`);
    }
  }
  return d as unknown as ThreadlineDocument;
}

function checkData(d: Record<string, unknown>, id: string, index: number): void {
  if (d.text !== undefined) fail(index, id, `a ${String(d.format)} file is given as data (its bytes), not as text`);
  const data = d.data;
  const size = data instanceof ArrayBuffer ? data.byteLength : data instanceof Uint8Array ? data.byteLength : data instanceof Blob ? data.size : -1;
  if (size < 0) fail(index, id, `data must be an ArrayBuffer, Uint8Array or Blob holding the ${String(d.format)} file`);
  if (size > DOCUMENT_LIMITS.dataBytes) fail(index, id, `data is larger than ${DOCUMENT_LIMITS.dataBytes / 1024 / 1024} MB`);
}

/** Validates, and keeps the last of several documents with the same id. */
export function validateDocuments(docs: unknown): ThreadlineDocument[] {
  if (!Array.isArray(docs)) throw new ThreadlineError('INVALID_INPUT', 'add() takes an array of documents');
  if (docs.length > DOCUMENT_LIMITS.docsPerCall) throw new ThreadlineError('INVALID_INPUT', `add() takes at most ${DOCUMENT_LIMITS.docsPerCall} documents per call`);
  const byId = new Map<string, ThreadlineDocument>();
  docs.forEach((doc, i) => {
    const checked = checkOne(doc, i);
    byId.delete(checked.id);
    byId.set(checked.id, checked);
  });
  return [...byId.values()];
}

/** A document `add()` left out because it is unusable (with `skipInvalid`). */
export interface AddFailure {
  /** Its position in the array given to `add()`. */
  index: number;
  /** Its id, when it has a usable one. */
  id?: string;
  /** INVALID_INPUT: refused as given; UNREADABLE_DOCUMENT: a PDF or Word file whose content could not be read (`reason`). */
  code: 'INVALID_INPUT' | 'UNREADABLE_DOCUMENT';
  message: string;
  reason?: string;
}

/**
 * Like validateDocuments, but a bad document is reported instead of refusing
 * the batch: one unusable file in a folder never stops the others.
 */
export function partitionDocuments(docs: unknown): { docs: ThreadlineDocument[]; failed: AddFailure[]; indexes: number[] } {
  if (!Array.isArray(docs)) throw new ThreadlineError('INVALID_INPUT', 'add() takes an array of documents');
  if (docs.length > DOCUMENT_LIMITS.docsPerCall) throw new ThreadlineError('INVALID_INPUT', `add() takes at most ${DOCUMENT_LIMITS.docsPerCall} documents per call`);
  const byId = new Map<string, { doc: ThreadlineDocument; index: number }>();
  const failed: AddFailure[] = [];
  docs.forEach((doc, index) => {
    try {
      const checked = checkOne(doc, index);
      byId.delete(checked.id);
      byId.set(checked.id, { doc: checked, index });
    } catch (error) {
      const id = (doc as { id?: unknown } | null)?.id;
      failed.push({ index, ...(typeof id === 'string' ? { id } : {}), code: 'INVALID_INPUT', message: error instanceof Error ? error.message : String(error) });
    }
  });
  const kept = [...byId.values()];
  return { docs: kept.map((k) => k.doc), failed, indexes: kept.map((k) => k.index) };
}

/** SHA-256 of everything that determines a document's chunks and vectors (a binary file's bytes after its fields). */
export async function contentHash(doc: ThreadlineDocument, recipe: unknown, bytes?: Uint8Array): Promise<string> {
  const payload = new TextEncoder().encode(JSON.stringify([recipe, doc.format ?? 'text', doc.title ?? null, doc.url ?? null, doc.metadata ?? null, doc.text ?? null]));
  let input = payload;
  if (bytes) {
    input = new Uint8Array(payload.length + 1 + bytes.length);
    input.set(payload);
    input.set(bytes, payload.length + 1);
  }
  const digest = await crypto.subtle.digest('SHA-256', input);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}
