/**
 * BM25 (Okapi, k1 = 1.2, b = 0.75) over an inverted index of chunk keys.
 * Pure and incremental: add and remove one chunk at a time, or add a stored
 * segment (lexical-segment.ts) of prebuilt postings in one step.
 */
import type { LexicalSegment } from './lexical-segment';
import { lexicalTerms } from './lexical-tokens';
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

  /** Top-k chunks for `query`; chunks sharing no term with it are not returned. */
  search(query: string, k: number, allow?: (key: number) => boolean): Hit[] {
    const n = this.docLength.size;
    if (n === 0 || k <= 0) return [];
    const avgdl = this.totalLength / n || 1;
    const scores = new Map<number, number>();
    const pairs: number[] = [];
    for (const term of new Set(lexicalTerms(query))) {
      // Live (key, tf) pairs of the term: the in-memory postings, then every segment's.
      pairs.length = 0;
      const list = this.postings.get(term);
      if (list) for (let i = 0; i < list.length; i++) pairs.push(list[i] as number);
      for (const s of this.segments) {
        const t = s.dict.get(term);
        if (t === undefined) continue;
        const { offsets, slots, tfs } = s.segment;
        for (let p = offsets[t] as number; p < (offsets[t + 1] as number); p++) {
          const key = s.keys[slots[p] as number] as number;
          if (this.segmentOf.get(key) === s) pairs.push(key, tfs[p] as number);
        }
      }
      if (!pairs.length) continue;
      const df = pairs.length / 2;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (let i = 0; i < pairs.length; i += 2) {
        const key = pairs[i] as number;
        const tf = pairs[i + 1] as number;
        if (allow && !allow(key)) continue;
        const len = this.docLength.get(key) ?? 0;
        const s = (idf * tf * (this.k1 + 1)) / (tf + this.k1 * (1 - this.b + (this.b * len) / avgdl));
        scores.set(key, (scores.get(key) ?? 0) + s);
      }
    }
    const top = new TopK(Math.min(k, scores.size));
    for (const [key, s] of scores) top.push(key, s);
    return top.result();
  }
}
