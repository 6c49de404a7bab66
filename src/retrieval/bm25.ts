/**
 * BM25 (Okapi, k1 = 1.2, b = 0.75) over an inverted index of chunk keys.
 * Pure and incremental: add and remove one chunk at a time.
 */
import { lexicalTerms } from './lexical-tokens';
import { TopK, type Hit } from './top-k';

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

  remove(key: number): boolean {
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
    for (const term of new Set(lexicalTerms(query))) {
      const list = this.postings.get(term);
      if (!list) continue;
      const df = list.length / 2;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (let i = 0; i < list.length; i += 2) {
        const key = list[i] as number;
        const tf = list[i + 1] as number;
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
