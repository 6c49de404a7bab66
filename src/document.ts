/** What users add, and what the ingest parsers make of it. */
import type { MetadataValue } from './index-data';

export type DocumentFormat = 'text' | 'markdown' | 'html' | 'pdf' | 'docx';

/** Formats given as bytes (`data`), not as `text`. */
export const BINARY_FORMATS: ReadonlySet<DocumentFormat> = new Set(['pdf', 'docx']);

export interface ThreadlineDocument {
  /** Stable id; re-adding the same id replaces the document. */
  id: string;
  /** The document's content, written in `format` (text, markdown, html). */
  text?: string;
  /** The file's bytes, for `format: 'pdf' | 'docx'` (parsed in the worker). */
  data?: ArrayBuffer | Uint8Array | Blob;
  title?: string;
  url?: string;
  /** Flat metadata, matched by search filters. */
  metadata?: Record<string, MetadataValue>;
  /** How `text` is written, or what `data` holds; parsed in the worker. @default 'text' */
  format?: DocumentFormat;
}

/** A run of the normalized text under one heading path; offsets are [start, end). */
export interface Section {
  headingPath: string[];
  start: number;
  end: number;
  /** The 1-based page it is on (paged formats: PDF); chunks never cross a page. */
  page?: number;
}

/** Normalized visible text plus its sections. Chunk offsets refer to `text`. */
export interface ParsedDocument {
  text: string;
  sections: Section[];
  /** A title found in the source (HTML <title>, first Markdown H1, PDF metadata), if any. */
  title?: string;
  /** Pages in the source (paged formats). */
  pages?: number;
}
