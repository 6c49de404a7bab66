/**
 * BM25 (Okapi, k1 = 1.2, b = 0.75) over an inverted index of chunk keys.
 * Pure and incremental: add and remove one chunk at a time, or add a stored
 * segment (lexical-segment.ts) of prebuilt postings in one step.
 */
import type { LexicalSegment } from './lexical-segment';
import { lexicalTerms } from '../text/tokens';
import { TopK, type Hit } from './top-k';

interface LoadedSegment {
  segment: LexicalSegment;
  /** Chunk key by slot. */
  keys: ArrayLike<number>;
  /** Term → its index in the segment. */
  dict: Map<string, number>;
}

export interface Bm25Options {
  /** @default 1.2 */
  k1?: number;
  /** @default 0.75 */
  b?: number;
}

export class Bm25Index {
  /**
   * term → [key, tf, key, tf, …]. Flat arrays, not a Map per term: hydrating
   * 100k chunks appends a few million pairs, and Map entries cost several times
   * more to create. Order within a list does not matter (removal swaps the last pair in).
   */
  private readonly postings = new Map<string, number[]>();
  private readonly docTerms = new Map<number, string[]>();
  private readonly docLength = new Map<number, number>();
  private segments: LoadedSegment[] = [];
  /** Live keys whose postings are in a segment (and in which one). */
  private readonly segmentOf = new Map<number, LoadedSegment>();
  private totalLength = 0;
  private readonly k1: number;
  private readonly b: number;

  constructor(options: Bm25Options = {}) {
    this.k1 = options.k1 ?? 1.2;
    this.b = options.b ?? 0.75;
  }

  get size(): number {
    return this.docLength.size;
  }

  add(key: number, text: string): void {
    if (this.docLength.has(key)) this.remove(key);
    const terms = lexicalTerms(text);
    // Sorted, equal terms are adjacent: counts without a Map per chunk.
    const sorted = [...terms].sort();
    const distinct: string[] = [];
    for (let i = 0; i < sorted.length;) {
      const term = sorted[i] as string;
      let j = i + 1;
      while (j < sorted.length && sorted[j] === term) j++;
      let list = this.postings.get(term);
      if (!list) this.postings.set(term, (list = []));
      list.push(key, j - i);
      distinct.push(term);
      i = j;
    }
    this.docTerms.set(key, distinct);
    this.docLength.set(key, terms.length);
    this.totalLength += terms.length;
  }

  /**
   * Adds the chunks at `liveSlots` of a stored segment (`keys[slot]` is a
   * slot's chunk key); other slots are dead (removed since it was written).
   */
  addSegment(segment: LexicalSegment, keys: ArrayLike<number>, liveSlots: Iterable<number>): void {
    const dict = new Map<string, number>();
    let from = 0;
    for (let i = 0; from <= segment.terms.length && segment.terms.length > 0; i++) {
      const end = segment.terms.indexOf('\n', from);
      dict.set(segment.terms.slice(from, end < 0 ? undefined : end), i);
      if (end < 0) break;
      from = end + 1;
    }
    const loaded: LoadedSegment = { segment, keys, dict };
    this.segments.push(loaded);
    for (const slot of liveSlots) {
      const key = keys[slot] as number;
      if (this.docLength.has(key)) this.remove(key);
      const length = segment.lengths[slot] as number;
      this.segmentOf.set(key, loaded);
      this.docLength.set(key, length);
      this.totalLength += length;
    }
  }

  remove(key: number): boolean {
    if (this.segmentOf.delete(key)) {
      this.totalLength -= this.docLength.get(key) ?? 0;
      this.docLength.delete(key);
      return true;
    }
    const terms = this.docTerms.get(key);
    if (!terms) return false;
    for (const term of terms) {
      const list = this.postings.get(term);
      if (!list) continue;
      for (let i = 0; i < list.length; i += 2) {
        if (list[i] !== key) continue;
        list[i] = list[list.length - 2] as number;
        list[i + 1] = list[list.length - 1] as number;
        list.length -= 2;
        break;
      }
      if (list.length === 0) this.postings.delete(term);
    }
    this.totalLength -= this.docLength.get(key) ?? 0;
    this.docTerms.delete(key);
    this.docLength.delete(key);
    return true;
  }

  clear(): void {
    this.segments = [];
    this.segmentOf.clear();
    this.postings.clear();
    this.docTerms.clear();
    this.docLength.clear();
    this.totalLength = 0;
  }

  /**
   * Top-k chunks for a query: a text (each distinct term weighs 1) or index
   * terms with weights, each multiplying that term's BM25 contribution.
   * Chunks sharing no term with it are not returned.
   */
  search(query: string | readonly IndexTerm[], k: number, allow?: (key: number) => boolean): Hit[] {
    const n = this.docLength.size;
    if (n === 0 || k <= 0) return [];
    const terms = queryTerms(query);
    const avgdl = this.totalLength / n || 1;
    const scores = new Map<number, number>();
    const pairs: number[] = [];
    for (const { term, weight } of terms) {
      if (!(weight > 0)) continue;
      this.livePairs(term, pairs);
      if (!pairs.length) continue;
      const idf = this.idf(pairs.length / 2);
      for (let i = 0; i < pairs.length; i += 2) {
        const key = pairs[i] as number;
        if (allow && !allow(key)) continue;
        const s = weight * idf * this.saturation(pairs[i + 1] as number, this.docLength.get(key) ?? 0, avgdl);
        scores.set(key, (scores.get(key) ?? 0) + s);
      }
    }
    const top = new TopK(Math.min(k, scores.size));
    for (const [key, s] of scores) top.push(key, s);
    return top.result();
  }

  /**
   * For each of `keys`, the share of the query's information its chunk holds:
   * Σ weight × idf over the query terms the chunk contains, over the same sum
   * for all query terms. A term no chunk has counts at the idf of a term
   * found once: a word the documents never use is as telling as the rarest
   * word they do. Undefined when the query has no index terms.
   */
  coverage(query: string | readonly IndexTerm[], keys: readonly number[]): Map<number, number> | undefined {
    const n = this.docLength.size;
    const terms = queryTerms(query);
    const wanted = new Set(keys);
    const held = new Map<number, number>(keys.map((key) => [key, 0]));
    const pairs: number[] = [];
    let total = 0;
    for (const { term, weight } of terms) {
      if (!(weight > 0)) continue;
      this.livePairs(term, pairs);
      const w = weight * this.idf(Math.max(1, pairs.length / 2));
      total += w;
      for (let i = 0; i < pairs.length; i += 2) {
        const key = pairs[i] as number;
        if (wanted.has(key)) held.set(key, (held.get(key) ?? 0) + w);
      }
    }
    if (!(total > 0) || n === 0) return undefined;
    for (const [key, w] of held) held.set(key, w / total);
    return held;
  }

  /**
   * A term's importance: the best BM25 score it reaches alone on any chunk
   * (Lin et al.'s HQE word score). 0 for a term no chunk has.
   */
  importance(term: string): number {
    const n = this.docLength.size;
    if (n === 0) return 0;
    const pairs: number[] = [];
    this.livePairs(term, pairs);
    if (!pairs.length) return 0;
    const avgdl = this.totalLength / n || 1;
    let best = 0;
    for (let i = 0; i < pairs.length; i += 2) best = Math.max(best, this.saturation(pairs[i + 1] as number, this.docLength.get(pairs[i] as number) ?? 0, avgdl));
    return this.idf(pairs.length / 2) * best;
  }

  /** Up to `limit` live keys of chunks that hold `term` (in no particular order). */
  keysWith(term: string, limit: number): number[] {
    const pairs: number[] = [];
    this.livePairs(term, pairs);
    const keys: number[] = [];
    for (let i = 0; i < pairs.length && keys.length < limit; i += 2) keys.push(pairs[i] as number);
    return keys;
  }

  /** The importance of a term found once, in one chunk of average length: the scale importance is read against. */
  referenceImportance(): number {
    return this.docLength.size ? this.idf(1) : 0;
  }

  private idf(df: number): number {
    const n = this.docLength.size;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  private saturation(tf: number, length: number, avgdl: number): number {
    return (tf * (this.k1 + 1)) / (tf + this.k1 * (1 - this.b + (this.b * length) / avgdl));
  }

  /** Live (key, tf) pairs of a term into `out`: the in-memory postings, then every segment's. */
  private livePairs(term: string, out: number[]): void {
    out.length = 0;
    const list = this.postings.get(term);
    if (list) for (let i = 0; i < list.length; i++) out.push(list[i] as number);
    for (const s of this.segments) {
      const t = s.dict.get(term);
      if (t === undefined) continue;
      const { offsets, slots, tfs } = s.segment;
      for (let p = offsets[t] as number; p < (offsets[t + 1] as number); p++) {
        const key = s.keys[slots[p] as number] as number;
        if (this.segmentOf.get(key) === s) out.push(key, tfs[p] as number);
      }
    }
  }
}

/** A query's index terms: a text's distinct terms at weight 1, or the weighted terms as given. */
function queryTerms(query: string | readonly IndexTerm[]): readonly IndexTerm[] {
  return typeof query === 'string' ? [...new Set(lexicalTerms(query))].map((term) => ({ term, weight: 1 })) : query;
}

/** An index term (already stemmed) and its query weight. */
export interface IndexTerm {
  term: string;
  weight: number;
}

/**
 * The index terms of a query: the text's own terms at weight 1, then the
 * weighted words (stemmed the same way); a term keeps its largest weight.
 */
export function indexTerms(text: string, extra: readonly { term: string; weight: number }[] = []): IndexTerm[] {
  const weights = new Map<string, number>();
  for (const term of lexicalTerms(text)) weights.set(term, 1);
  for (const { term: word, weight } of extra) {
    for (const term of lexicalTerms(word)) weights.set(term, Math.max(weights.get(term) ?? 0, weight));
  }
  return [...weights].map(([term, weight]) => ({ term, weight }));
}
