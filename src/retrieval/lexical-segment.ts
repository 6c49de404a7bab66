/**
 * BM25 postings of one vector shard, stored with it, so reopening an index
 * does not tokenize every chunk again: a segment is loaded with one string
 * split and a dictionary of its distinct terms instead of a few million
 * posting inserts. Slots index the shard's `keys`. A segment written with
 * other tokenizer rules (`version`) is ignored and its chunks re-tokenized.
 */
import { lexicalTerms } from '../text/tokens';

/** Bump whenever lexicalTerms (folding, stopwords, stemming) changes. */
export const LEXICAL_VERSION = 1;

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

/** Postings of `texts`, text i at slot i. */
export function buildSegment(texts: readonly string[]): LexicalSegment {
  const byTerm = new Map<string, number[]>();
  const lengths = new Uint32Array(texts.length);
  let total = 0;
  texts.forEach((text, slot) => {
    const terms = lexicalTerms(text).sort();
    lengths[slot] = terms.length;
    for (let i = 0; i < terms.length;) {
      const term = terms[i] as string;
      let j = i + 1;
      while (j < terms.length && terms[j] === term) j++;
      let list = byTerm.get(term);
      if (!list) byTerm.set(term, (list = []));
      list.push(slot, Math.min(j - i, 0xffff));
      total++;
      i = j;
    }
  });
  const offsets = new Uint32Array(byTerm.size + 1);
  const slots = new Uint32Array(total);
  const tfs = new Uint16Array(total);
  let at = 0;
  let t = 0;
  for (const list of byTerm.values()) {
    offsets[t++] = at;
    for (let i = 0; i < list.length; i += 2, at++) {
      slots[at] = list[i] as number;
      tfs[at] = list[i + 1] as number;
    }
  }
  offsets[t] = at;
  return { version: LEXICAL_VERSION, terms: [...byTerm.keys()].join('\n'), offsets, slots, tfs, lengths };
}

/** A stored segment this code can use as is. */
export function isCurrentSegment(segment: LexicalSegment | undefined, slotCount: number): segment is LexicalSegment {
  return !!segment && segment.version === LEXICAL_VERSION && segment.lengths.length === slotCount && segment.offsets.length >= 1;
}
