/** What users add, and what the ingest parsers make of it. */
import type { MetadataValue } from './index-data';

export type DocumentFormat = 'text' | 'markdown' | 'html';

export interface ThreadlineDocument {
  /** Stable id; re-adding the same id replaces the document. */
  id: string;
  /** The document's content, written in `format`. */
  text: string;
  title?: string;
  url?: string;
  /** Flat metadata, matched by search filters. */
  metadata?: Record<string, MetadataValue>;
  /** How `text` is written; parsed in the worker. @default 'text' */
  format?: DocumentFormat;
}

/** A run of the normalized text under one heading path; offsets are [start, end). */
export interface Section {
  headingPath: string[];
  start: number;
  end: number;
}

/** Normalized visible text plus its sections. Chunk offsets refer to `text`. */
export interface ParsedDocument {
  text: string;
  sections: Section[];
  /** A title found in the source (HTML <title>, first Markdown H1), if any. */
  title?: string;
}
