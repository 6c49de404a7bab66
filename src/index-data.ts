/**
 * The data an index is made of, held alike by the memory index (retrieval/)
 * and by storage (storage/), which persists it as it is: a chunk, a document's
 * metadata values, and the BM25 postings of a segment of chunks. Shapes only;
 * what computes them lives in retrieval/ (lexical-segment.ts).
 */

export type MetadataValue = string | number | boolean | null;

export interface IndexedChunk {
  key: number;
  docId: string;
  text: string;
  /** Title and heading path plus text: what was embedded and indexed. */
  context: string;
  headingPath: string[];
  start: number;
  end: number;
  /** Its page, in paged formats (PDF). */
  page?: number;
}

/**
 * The BM25 postings of a segment of chunks (slot i = the segment's i-th
 * chunk). `version` names the tokenizer rules it was built with; a reader
 * with other rules ignores it and tokenizes the chunks again.
 */
export interface LexicalSegment {
  version: number;
  /** Distinct terms joined by "\n" (terms are letters and digits only). */
  terms: string;
  /** Postings of term i are [offsets[i], offsets[i + 1]). */
  offsets: Uint32Array;
  slots: Uint32Array;
  tfs: Uint16Array;
  /** Terms per slot (the chunk's BM25 length). */
  lengths: Uint32Array;
}

/** A part of a segment merge (compaction): a stored segment and the slots of it kept, in their new order. */
export interface SegmentPart {
  /** Absent or not current: the part's chunks are tokenized from `texts`. */
  segment: LexicalSegment | undefined;
  /** Slots of `segment` kept, in order; they become the merged segment's next slots. */
  slots: readonly number[];
  /** The kept chunks' indexed texts, in the same order as `slots`. */
  texts: readonly string[];
}
