/**
 * The in-memory half of an index: vectors, BM25 and the chunk metadata a hit
 * needs, kept in step with what is stored. Pure: search takes an already
 * embedded query, so this runs (and is tested) without a model or a browser.
 */
import { ThreadlineError } from '../errors';
import type { Query, TermStats } from '../retriever';
import { Bm25Index, indexTerms } from './bm25';
import { lexicalTerms } from '../text/tokens';
import { FORM_SAMPLE_CHUNKS, writtenForm } from './written-form';
import type { IndexedChunk, LexicalSegment } from '../index-data';
import { isCurrentSegment } from './lexical-segment';
import { matchesFilter, type MetadataValue, type SearchFilter } from './filter';
import { headAgreement, separationFusion } from './fusion';
import type { Hit } from './top-k';
import { VectorIndex } from './vector-index';

export type SearchMode = 'hybrid' | 'dense' | 'lexical';

export type { IndexedChunk };

export interface IndexedDoc {
  id: string;
  /** Content hash as stored (add() skips a document whose hash is unchanged). */
  hash?: string;
  title?: string;
  url?: string;
  metadata?: Record<string, MetadataValue>;
}

/** A stored document as listed by `documents()`. */
export interface DocumentInfo {
  id: string;
  title?: string;
  url?: string;
  /** Chunks indexed for it (0 for a document with no text). */
  chunks: number;
}

export interface SearchHit {
  chunkKey: number;
  docId: string;
  text: string;
  title?: string;
  url?: string;
  headingPath: string[];
  /** [start, end) of `text` in the document's normalized text. */
  start: number;
  end: number;
  /** Its page, in paged formats (PDF): citations say "p. 12". */
  page?: number;
  metadata?: Record<string, MetadataValue>;
  /** The ranking score: the fused score in hybrid mode (weighted z-scores, see fusion.ts), cosine or BM25 otherwise. */
  score: number;
  /** Cosine similarity to the query, when the dense ranking saw this chunk. */
  dense?: number;
  /** BM25 score, when the lexical ranking saw this chunk. */
  lexical?: number;
  /**
   * Share of the query's information (its terms' BM25 idf × weight, see
   * Bm25Index.coverage) this chunk holds, 0–1; absent in dense mode or when
   * the query has no index terms. The answer step abstains on it.
   */
  coverage?: number;
  /** Ranked by words alone where a hybrid search was asked for: the embedding model was still loading (SearchOptions.modelPending). */
  lexicalOnly?: true;
}

export interface HybridWeights {
  /** @default 1 */
  dense: number;
  /** @default 1 */
  lexical: number;
  /**
   * How far the dense ranking's weight depends on the lexical ranking backing
   * its head (headAgreement in fusion.ts): 1 fully, 0 not at all. The default
   * was measured with the offline model; with a strong embedding model, compare
   * 0 on your own conversations (the playground's Evaluate panel). @default 1
   */
  corroboration?: number;
}

export interface MemorySearchOptions {
  k: number;
  mode: SearchMode;
  filter?: SearchFilter | undefined;
  weights?: HybridWeights | undefined;
  int8?: boolean | undefined;
}

/** The dense weight's factor: agreement counted `share` of the way (0 ignores it, 1 takes it whole). */
function corroborated(agreement: number, share: number): number {
  return 1 - share + share * agreement;
}

/** Characters of chunk text one termStats call reads for forms at most (about 1,000 chunks of a usual size). */
const FORM_SCAN_CHARS = 2_000_000;

/** Each ranking contributes this many candidates (at least) to the fusion. */
const FUSION_DEPTH = 50;

export class MemoryIndex {
  readonly vectors: VectorIndex;
  private readonly lexical = new Bm25Index();
  private readonly chunks = new Map<number, IndexedChunk>();
  private readonly docs = new Map<string, IndexedDoc>();

  constructor(readonly dims: number, options: { int8?: boolean; capacity?: number } = {}) {
    this.vectors = new VectorIndex(dims, options);
  }

  get chunkCount(): number {
    return this.chunks.size;
  }

  get docCount(): number {
    return this.docs.size;
  }

  chunkKeys(): number[] {
    return [...this.chunks.keys()].sort((a, b) => a - b);
  }

  doc(id: string): IndexedDoc | undefined {
    return this.docs.get(id);
  }

  /** Every document with its chunk count, sorted by id (the same order before and after a reload). */
  documents(): DocumentInfo[] {
    const counts = new Map<string, number>();
    for (const chunk of this.chunks.values()) counts.set(chunk.docId, (counts.get(chunk.docId) ?? 0) + 1);
    return [...this.docs.values()].map((d) => ({
      id: d.id, chunks: counts.get(d.id) ?? 0,
      ...(d.title !== undefined ? { title: d.title } : {}), ...(d.url !== undefined ? { url: d.url } : {}),
    })).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** An index of `dims` with this one's documents and no chunks (an index without vectors adopting a model's size). */
  emptyCopy(dims: number, options: { int8?: boolean } = {}): MemoryIndex {
    if (this.chunks.size) throw new ThreadlineError('INTERNAL', 'only an index without chunks can change its dimensions');
    const copy = new MemoryIndex(dims, options);
    for (const doc of this.docs.values()) copy.setDoc(doc);
    return copy;
  }

  setDoc(doc: IndexedDoc): void {
    this.docs.set(doc.id, doc);
  }

  /** Stored content hashes of the documents among `ids` that this index holds. */
  hashes(ids: readonly string[]): Map<string, string> {
    const out = new Map<string, string>();
    for (const id of ids) {
      const hash = this.docs.get(id)?.hash;
      if (hash !== undefined) out.set(id, hash);
    }
    return out;
  }

  /** Adds chunks and their packed vectors (`chunks.length × dims`), tokenizing each chunk for BM25. */
  addChunks(chunks: readonly IndexedChunk[], vectors: Float32Array): void {
    this.vectors.add(chunks.map((c) => c.key), vectors);
    for (const c of chunks) {
      this.chunks.set(c.key, c);
      this.lexical.add(c.key, c.context);
    }
  }

  /**
   * Adds stored chunks (each with the shard and slot of its vector), their
   * vectors as runs of rows in chunk order (see IndexStore.load): BM25
   * postings come from `segments` for chunks of a shard that has one, and
   * from tokenizing the text for the others.
   */
  addStored(
    chunks: readonly (IndexedChunk & { shard: number; slot: number })[],
    vectors: readonly { from: number; count: number; rows: Float32Array; unit?: Uint8Array | undefined }[],
    segments: ReadonlyMap<number, { keys: ArrayLike<number>; lexical: LexicalSegment }>,
  ): void {
    for (const run of vectors) this.vectors.add(chunks.slice(run.from, run.from + run.count).map((c) => c.key), run.rows, run.unit);
    // Stored postings are used only when built with today's tokenizer rules and well formed; others are tokenized again.
    const usable = new Map([...segments].filter(([, s]) => isCurrentSegment(s.lexical, s.keys.length)));
    const liveSlots = new Map<number, number[]>();
    for (const c of chunks) {
      this.chunks.set(c.key, c);
      if (!usable.has(c.shard)) {
        this.lexical.add(c.key, c.context);
        continue;
      }
      let slots = liveSlots.get(c.shard);
      if (!slots) liveSlots.set(c.shard, (slots = []));
      slots.push(c.slot);
    }
    for (const [shard, slots] of liveSlots) {
      const segment = usable.get(shard);
      if (segment) this.lexical.addSegment(segment.lexical, segment.keys, slots);
    }
  }

  removeChunks(keys: Iterable<number>): void {
    const list = [...keys];
    this.vectors.remove(list);
    for (const key of list) {
      this.lexical.remove(key);
      this.chunks.delete(key);
    }
  }

  removeDoc(id: string): void {
    this.docs.delete(id);
  }

  clear(): void {
    this.vectors.clear();
    this.lexical.clear();
    this.chunks.clear();
    this.docs.clear();
  }

  /** Importance of each word in this index (see Bm25Index.importance); with `forms`, the form the chunks write it in where that is not lower case. */
  termStats(words: readonly string[], options: { forms?: boolean } = {}): TermStats {
    // Reading forms scans chunk text: bounded per call, whatever the chunks hold (later words then get none).
    const budget = { chars: FORM_SCAN_CHARS };
    return {
      terms: words.map((word) => {
        const term = lexicalTerms(word)[0];
        if (term === undefined) return { word, term: '', importance: 0 };
        const importance = this.lexical.importance(term);
        const form = options.forms && importance > 0 ? writtenForm(word, this.textsWith(term, budget)) : undefined;
        return { word, term, importance, ...(form !== undefined ? { form } : {}) };
      }),
      reference: this.lexical.referenceImportance(),
      chunks: this.chunks.size,
    };
  }

  /** The texts of a few chunks holding `term`, read lazily while `budget` lasts. */
  private *textsWith(term: string, budget: { chars: number }): Generator<string> {
    for (const key of this.lexical.keysWith(term, FORM_SAMPLE_CHUNKS)) {
      const text = this.chunks.get(key)?.text;
      if (text === undefined) continue;
      if (text.length > budget.chars) return;
      budget.chars -= text.length;
      yield text;
    }
  }

  /**
   * `queryVector` null in hybrid mode ranks by words alone, with the reading context (while the embedding model
   * is still loading: SearchOptions.modelPending); each hit then says so (`lexicalOnly`).
   */
  search(input: string | Query, queryVector: Float32Array | null, options: MemorySearchOptions): SearchHit[] {
    const query = typeof input === 'string' ? { text: input } : input;
    const { k, mode } = options;
    if (mode === 'dense' && !queryVector) throw new ThreadlineError('INTERNAL', 'dense search needs a query vector');
    const wordsOnly = mode === 'hybrid' && !queryVector;
    const allow = options.filter ? (key: number) => this.allowed(key, options.filter) : undefined;
    const depth = mode === 'hybrid' ? Math.max(FUSION_DEPTH, k * 4) : k;
    const dense = mode === 'lexical' || !queryVector ? [] : this.vectors.search(queryVector, depth, { allow, int8: options.int8 ?? false });
    const terms = indexTerms(query.text, query.terms);
    const lexical = mode === 'dense' ? [] : this.lexical.search(terms, depth, allow);
    // Per-query weighted z-score fusion (fusion.ts): a flat ranking cannot drown a decisive one, and the dense
    // ranking counts as far as the lexical one corroborates its head.
    // The documents the conversation is reading, but for the passage just quoted, as a prior of a fixed size:
    // as one more ranking in the fusion, a document of one chunk outweighed every other signal (README, Quality; docs/quality-log.md).
    const reading = mode === 'hybrid' && query.context && query.context.weight > 0 ? { has: this.inDocuments(query.context.docIds, query.context.except ?? []), weight: query.context.weight } : undefined;
    const ranked: Hit[] = mode === 'dense' ? dense : mode === 'lexical' ? lexical : separationFusion([
      { hits: dense, weight: (options.weights?.dense ?? 1) * corroborated(headAgreement(dense, lexical), options.weights?.corroboration ?? 1) },
      { hits: lexical, weight: options.weights?.lexical ?? 1, exhaustive: lexical.length < depth },
    ], k, reading);
    const denseScore = new Map(dense.map((h) => [h.key, h.score]));
    const lexicalScore = new Map(lexical.map((h) => [h.key, h.score]));
    const top = ranked.slice(0, k);
    const coverage = mode === 'dense' ? undefined : this.lexical.coverage(terms, top.map((h) => h.key));
    return top.map((h) => this.hit(h, denseScore.get(h.key), lexicalScore.get(h.key), coverage?.get(h.key), wordsOnly));
  }

  /** Whether a chunk belongs to one of some documents and is not one of `except`. */
  private inDocuments(docIds: readonly string[], except: readonly number[]): (key: number) => boolean {
    const ids = new Set(docIds);
    const left = new Set(except);
    return (key) => !left.has(key) && ids.has(this.chunks.get(key)?.docId as string);
  }

  private allowed(key: number, filter: SearchFilter | undefined): boolean {
    const chunk = this.chunks.get(key);
    return !!chunk && matchesFilter({ docId: chunk.docId, metadata: this.docs.get(chunk.docId)?.metadata }, filter);
  }

  private hit(h: Hit, dense: number | undefined, lexical: number | undefined, coverage: number | undefined, lexicalOnly = false): SearchHit {
    const chunk = this.chunks.get(h.key);
    if (!chunk) throw new ThreadlineError('INTERNAL', `ranked chunk ${h.key} has no metadata`);
    const doc = this.docs.get(chunk.docId);
    return {
      chunkKey: chunk.key, docId: chunk.docId, text: chunk.text, headingPath: chunk.headingPath, start: chunk.start, end: chunk.end,
      score: h.score,
      ...(chunk.page !== undefined ? { page: chunk.page } : {}),
      ...(doc?.title !== undefined ? { title: doc.title } : {}),
      ...(doc?.url !== undefined ? { url: doc.url } : {}),
      ...(doc?.metadata !== undefined ? { metadata: doc.metadata } : {}),
      ...(dense !== undefined ? { dense } : {}),
      ...(lexical !== undefined ? { lexical } : {}),
      ...(coverage !== undefined ? { coverage } : {}),
      ...(lexicalOnly ? { lexicalOnly: true as const } : {}),
    };
  }
}
