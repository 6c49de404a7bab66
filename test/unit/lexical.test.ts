import { describe, expect, it } from 'vitest';
import { Bm25Index } from '../../src/retrieval/bm25';
import { MemoryIndex } from '../../src/retrieval/memory-index';
import { buildSegment, isCurrentSegment, LEXICAL_VERSION, mergeSegments } from '../../src/retrieval/lexical-segment';
import type { LexicalSegment } from '../../src/index-data';
import { reciprocalRankFusion } from '../../src/retrieval/fusion';
import { matchesFilter } from '../../src/retrieval/filter';
import { lexicalTerms, stem } from '../../src/text/tokens';

describe('lexical terms', () => {
  it('folds case and accents, drops stopwords, stems inflections', () => {
    expect(lexicalTerms('The Refunds were REFUNDED; café refunding!')).toEqual(['refund', 'refund', 'cafe', 'refund']);
    expect(stem('caresses')).toBe('caress');
    expect(stem('ponies')).toBe('poni');
    expect(stem('hopping')).toBe('hop');
    expect(stem('status')).toBe('status');
  });

  it('segments scripts written without spaces', () => {
    expect(lexicalTerms('退款政策').length).toBeGreaterThan(0);
    expect(lexicalTerms('นโยบายการคืนเงิน').length).toBeGreaterThan(1);
  });

  it('reads ASCII and General Punctuation (the short path) into the same terms as the full Unicode path', () => {
    // A trailing "zé" sends the same text down the NFKD path; it adds its own term and nothing else.
    const palette = ['Refund', 'window', '30', 'days', 'e-mail', "don't", 'U.S.A.', 'x2', '_id', ' ', '\n', '\t', '›', '‹', '“', '”', '‘', '’', '—', '–', '…', '•', '‰', '′', '″', '⁄', '‼', '⁇', '‾', '\u2010', '\u2027', '\u2030', '\u205e', '.', '/', '#', '~', '\u0000', '\u007f'];
    let state = 11;
    const next = () => { state = (state * 1_103_515_245 + 12_345) % 2_147_483_648; return state / 2_147_483_648; };
    for (let n = 0; n < 500; n++) {
      let text = '';
      for (let i = Math.floor(next() * 30); i > 0; i--) text += palette[Math.floor(next() * palette.length)];
      expect(lexicalTerms(`${text} zé`)).toEqual([...lexicalTerms(text), 'ze']);
    }
    expect(lexicalTerms('Billing › Refunds — “the 30-day window”…')).toEqual(['bill', 'refund', '30', 'day', 'window']);
  });

  it('yields nothing for empty, punctuation-only and stopword-only text', () => {
    expect(lexicalTerms('')).toEqual([]);
    expect(lexicalTerms('?!… —')).toEqual([]);
    expect(lexicalTerms('what is it about?')).toEqual([]);
  });
});

/** Reference BM25 computed from scratch for every query. */
function naiveBm25(docs: Map<number, string>, query: string, k1 = 1.2, b = 0.75) {
  const tokenized = new Map([...docs].map(([key, text]) => [key, lexicalTerms(text)]));
  const n = docs.size;
  const avgdl = [...tokenized.values()].reduce((s, t) => s + t.length, 0) / n;
  const scores: { key: number; score: number }[] = [];
  for (const [key, terms] of tokenized) {
    let s = 0;
    for (const q of new Set(lexicalTerms(query))) {
      const df = [...tokenized.values()].filter((t) => t.includes(q)).length;
      const tf = terms.filter((t) => t === q).length;
      if (!tf) continue;
      s += Math.log(1 + (n - df + 0.5) / (df + 0.5)) * (tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * terms.length) / avgdl));
    }
    if (s > 0) scores.push({ key, score: s });
  }
  return scores.sort((a, b2) => b2.score - a.score || a.key - b2.key);
}

describe('Bm25Index (against a naive scorer)', () => {
  const words = 'refund damaged item window shipping plan price offline sync note team export delete account password'.split(' ');
  const docs = new Map<number, string>();
  for (let i = 0; i < 120; i++) docs.set(i * 2 + 1, Array.from({ length: 5 + (i % 11) }, (_, j) => words[(i * 7 + j * j) % words.length]).join(' '));

  it('matches the reference scores and order, including after removals', () => {
    const index = new Bm25Index();
    for (const [key, text] of docs) index.add(key, text);
    for (const q of ['refund damaged', 'offline sync plan', 'password', 'nothing matches zebra']) {
      const got = index.search(q, 10);
      const want = naiveBm25(docs, q).slice(0, 10);
      expect(got.map((h) => h.key)).toEqual(want.map((h) => h.key));
      got.forEach((h, i) => expect(h.score).toBeCloseTo(want[i]?.score ?? NaN, 9));
    }
    for (const key of [1, 3, 5, 99]) { index.remove(key); docs.delete(key); }
    expect(index.search('refund item', 10).map((h) => h.key)).toEqual(naiveBm25(docs, 'refund item').slice(0, 10).map((h) => h.key));
  });

  it('gives the same scores from stored segments, mixed with chunks added one by one, through removals and re-adds', () => {
    const all = new Map(docs);
    const entries = [...all];
    // Two "shards": slots index their keys; slot 2 of the first is dead (removed before it was reopened).
    const shardA = entries.slice(0, 50);
    const shardB = entries.slice(50, 90);
    const index = new Bm25Index();
    index.addSegment(buildSegment(shardA.map(([, t]) => t)), shardA.map(([k]) => k), shardA.map((_, slot) => slot).filter((slot) => slot !== 2));
    index.addSegment(buildSegment(shardB.map(([, t]) => t)), Float64Array.from(shardB, ([k]) => k), shardB.map((_, slot) => slot));
    for (const [key, text] of entries.slice(90)) index.add(key, text);
    all.delete(shardA[2]?.[0] ?? -1);
    const check = () => {
      for (const q of ['refund damaged', 'offline sync plan', 'password', 'team export note']) {
        const got = index.search(q, 10);
        const want = naiveBm25(all, q).slice(0, 10);
        expect(got.map((h) => h.key)).toEqual(want.map((h) => h.key));
        got.forEach((h, i) => expect(h.score).toBeCloseTo(want[i]?.score ?? NaN, 9));
      }
    };
    check();
    // Removing a segment chunk, and re-adding a segment chunk with new text, behave like the one-by-one index.
    const [removed] = shardB[0] ?? [];
    const [changed] = shardA[5] ?? [];
    index.remove(removed ?? -1);
    all.delete(removed ?? -1);
    index.add(changed ?? -1, 'password password export');
    all.set(changed ?? -1, 'password password export');
    check();
    expect(index.size).toBe(all.size);
  });

  it('builds segments whose terms, offsets and lengths describe the texts', () => {
    const segment = buildSegment(['refund refunds window', '', 'window']);
    expect(segment.version).toBe(LEXICAL_VERSION);
    expect(segment.terms.split('\n').sort()).toEqual(['refund', 'window']);
    expect(Array.from(segment.lengths)).toEqual([3, 0, 1]);
    const refund = segment.terms.split('\n').indexOf('refund');
    expect(Array.from(segment.slots.subarray(segment.offsets[refund], segment.offsets[refund + 1]))).toEqual([0]);
    expect(Array.from(segment.tfs.subarray(segment.offsets[refund], segment.offsets[refund + 1]))).toEqual([2]);
    expect(isCurrentSegment(segment, 3)).toBe(true);
    expect(isCurrentSegment({ ...segment, version: LEXICAL_VERSION + 1 }, 3)).toBe(false);
    expect(isCurrentSegment(segment, 4)).toBe(false);
    expect(isCurrentSegment(undefined, 0)).toBe(false);
    const empty = new Bm25Index();
    empty.addSegment(buildSegment(['', '']), [7, 8], [0, 1]);
    expect(empty.search('refund', 3)).toEqual([]);
  });

  it('measures a chunk\'s coverage of a query: idf-weighted share of its terms, unknown words at the rarest idf', () => {
    const index = new Bm25Index();
    index.add(1, 'apple banana');
    index.add(2, 'apple cherry');
    index.addSegment(buildSegment(['durian']), [3], [0]); // segment postings count too
    const idf = (df: number) => Math.log(1 + (3 - df + 0.5) / (df + 0.5));
    const total = idf(2) + idf(1) + idf(1); // apple, durian, and zeppelin (no chunk has it: counted as df 1)
    const coverage = index.coverage('apple durian zeppelin', [1, 2, 3]);
    expect(coverage?.get(1)).toBeCloseTo(idf(2) / total, 12);
    expect(coverage?.get(2)).toBeCloseTo(idf(2) / total, 12);
    expect(coverage?.get(3)).toBeCloseTo(idf(1) / total, 12);
    expect(index.coverage([{ term: 'apple', weight: 1 }, { term: 'banana', weight: 0.5 }], [1, 2])?.get(1)).toBeCloseTo(1, 12);
    expect(index.coverage([{ term: 'apple', weight: 1 }, { term: 'banana', weight: 0.5 }], [2])?.get(2)).toBeCloseTo(idf(2) / (idf(2) + 0.5 * idf(1)), 12);
    expect(index.coverage('the of and', [1])).toBeUndefined(); // no index terms: nothing to measure
    expect(new Bm25Index().coverage('apple', [1])).toBeUndefined();
    index.remove(3);
    expect(index.coverage('durian', [3])?.get(3)).toBe(0);
  });

  /** A segment's postings as term → "slot:tf" list, sorted: equal for equal postings whatever the term order. */
  const postings = (segment: LexicalSegment) => {
    const terms = segment.terms === '' ? [] : segment.terms.split('\n');
    return new Map(terms.map((term, t) => [term, Array.from(segment.slots.subarray(segment.offsets[t], segment.offsets[t + 1]), (slot, i) => `${slot}:${segment.tfs[(segment.offsets[t] as number) + i]}`).sort()]));
  };

  it('merges the kept slots of stored segments into the postings buildSegment gives the kept texts (no tokenizing)', () => {
    const shardTexts = [0, 1, 2].map((s) => Array.from({ length: 9 + s }, (_, i) => docs.get(((s * 37 + i * 11) % 120) * 2 + 1) ?? 'refund'));
    const segments = shardTexts.map((texts) => buildSegment(texts));
    // Keep a scattered subset of each shard's slots, as compaction does after removals.
    const parts = shardTexts.map((texts, s) => {
      const slots = texts.map((_, i) => i).filter((i) => (i + s) % 3 !== 0);
      return { segment: segments[s], slots, texts: slots.map((i) => texts[i] as string) };
    });
    const kept = parts.flatMap((p) => p.texts);
    const merged = mergeSegments(parts, shardTexts.map((t) => t.length));
    const built = buildSegment(kept);
    expect(postings(merged)).toEqual(postings(built));
    expect(Array.from(merged.lengths)).toEqual(Array.from(built.lengths));
    expect(isCurrentSegment(merged, kept.length)).toBe(true);
    // A part without a current segment (written by older code): every kept text is tokenized instead.
    const fallback = mergeSegments([{ ...parts[0]!, segment: undefined }, parts[1]!], [shardTexts[0]!.length, shardTexts[1]!.length]);
    expect(postings(fallback)).toEqual(postings(buildSegment([...parts[0]!.texts, ...parts[1]!.texts])));
    expect(mergeSegments([], [])).toMatchObject({ terms: '', lengths: new Uint32Array(0) });
  });

  it('never trusts a malformed stored segment (storage can be rewritten by anyone with the origin)', () => {
    const good = buildSegment(['refund window', 'damaged items', 'refund']);
    expect(isCurrentSegment(good, 3)).toBe(true);
    const bad: [string, unknown][] = [
      ['terms not a string', { ...good, terms: 7 }],
      ['offsets a plain array', { ...good, offsets: Array.from(good.offsets) }],
      ['tfs of another type', { ...good, tfs: new Uint32Array(good.tfs) }],
      ['a slot beyond the shard', { ...good, slots: Uint32Array.from(good.slots, (s, i) => (i === 0 ? 99 : s)) }],
      ['offsets going back', { ...good, offsets: Uint32Array.from(good.offsets, (o, i) => (i === 1 ? (good.offsets[2] as number) + 1 : o)) }],
      ['offsets past the postings', { ...good, offsets: Uint32Array.from(good.offsets, (o, i) => (i === good.offsets.length - 1 ? o + 5 : o)) }],
      ['a term too many', { ...good, terms: `${good.terms}\nextra` }],
      ['slots and tfs of different lengths', { ...good, tfs: good.tfs.subarray(1) }],
      ['lengths of another slot count', good],
    ];
    for (const [why, segment] of bad) expect(isCurrentSegment(segment as LexicalSegment, why.startsWith('lengths') ? 4 : 3), why).toBe(false);
    // The memory index tokenizes the chunks of a shard whose stored segment is malformed (here its terms are
    // a number, which used to throw on load), and finds them the same.
    const texts = ['refund window', 'damaged items', 'refund'];
    for (const lexical of [good, { ...good, terms: 7 }, { ...good, offsets: new Uint32Array([0, 999]) }]) {
      const memory = new MemoryIndex(2);
      memory.setDoc({ id: 'd' });
      const chunks = texts.map((text, slot) => ({ key: slot + 1, docId: 'd', text, context: text, headingPath: [], start: 0, end: text.length, shard: 1, slot }));
      memory.addStored(chunks, [{ from: 0, count: 3, rows: new Float32Array(6).fill(0.5) }], new Map([[1, { keys: [1, 2, 3], lexical: lexical as LexicalSegment }]]));
      expect(memory.search('refund', null, { k: 3, mode: 'lexical' }).map((h) => h.chunkKey).sort()).toEqual([1, 3]);
    }
  });

  it('is empty-safe', () => {
    const index = new Bm25Index();
    expect(index.search('refund', 5)).toEqual([]);
    index.add(1, 'refund');
    expect(index.search('', 5)).toEqual([]);
    expect(index.remove(2)).toBe(false);
  });
});

describe('reciprocal rank fusion and filters', () => {
  it('fuses ranks with weights and breaks ties on key', () => {
    const dense = [{ key: 1, score: 0.9 }, { key: 2, score: 0.8 }];
    const lexical = [{ key: 3, score: 12 }, { key: 1, score: 4 }];
    const even = reciprocalRankFusion([{ hits: dense }, { hits: lexical }], 3);
    expect(even.map((h) => h.key)).toEqual([1, 3, 2]);
    expect(even[0]?.score).toBeCloseTo(1 / 61 + 1 / 62, 12);
    // Weighting the dense list lifts its second hit above the lexical-only one.
    expect(reciprocalRankFusion([{ hits: dense, weight: 3 }, { hits: lexical }], 3).map((h) => h.key)).toEqual([1, 2, 3]);
    expect(reciprocalRankFusion([{ hits: [{ key: 5, score: 1 }] }, { hits: [{ key: 4, score: 1 }] }], 2).map((h) => h.key)).toEqual([4, 5]);
    expect(reciprocalRankFusion([], 3)).toEqual([]);
  });

  it('matches metadata by equality or membership', () => {
    const chunk = { docId: 'a', metadata: { lang: 'en', year: 2024 } };
    expect(matchesFilter(chunk, undefined)).toBe(true);
    expect(matchesFilter(chunk, { docIds: ['b'] })).toBe(false);
    expect(matchesFilter(chunk, { metadata: { lang: ['de', 'en'], year: 2024 } })).toBe(true);
    expect(matchesFilter(chunk, { metadata: { lang: 'de' } })).toBe(false);
    expect(matchesFilter(chunk, { metadata: { missing: null } })).toBe(true);
  });
});
