import { describe, expect, it } from 'vitest';
import { Bm25Index, indexTerms } from '../../src/retrieval/bm25';
import { HEDGE_RAW_WEIGHT, RRF_C, headAgreement, hedgedFusion, separation, separationFusion } from '../../src/retrieval/fusion';
import { MemoryIndex } from '../../src/retrieval/memory-index';
import { parseQuery, MAX_QUERY_TERMS } from '../../src/worker/parse-query';

const texts = new Map([
  [1, 'refund window: returns are accepted within 30 days of delivery'],
  [2, 'damaged on arrival: items that arrive damaged are refunded in full'],
  [3, 'warranty: damage from misuse is not covered by the warranty'],
  [4, 'shipping takes five to seven days; express shipping takes two days'],
]);
const bm25 = () => {
  const index = new Bm25Index();
  for (const [key, text] of texts) index.add(key, text);
  return index;
};

describe('weighted lexical queries', () => {
  it('a text query equals the same terms at weight 1', () => {
    const index = bm25();
    expect(index.search(indexTerms('damaged refund'), 4)).toEqual(index.search('damaged refund', 4));
  });

  it('weights scale each term’s contribution, and weight 0 removes it', () => {
    const index = bm25();
    const full = index.search([{ term: 'warranti', weight: 1 }], 4);
    const fifth = index.search([{ term: 'warranti', weight: 0.2 }], 4);
    expect(fifth[0]?.key).toBe(3);
    expect(fifth[0]?.score).toBeCloseTo((full[0]?.score ?? 0) * 0.2, 10);
    expect(index.search([{ term: 'warranti', weight: 0 }], 4)).toEqual([]);
  });

  it('history words below the turn’s own cannot outvote it', () => {
    const index = bm25();
    // "damaged" is the turn's own word; "warranty" (twice in chunk 3) comes from history at 0.2.
    const hits = index.search(indexTerms('damaged items', [{ term: 'warranty', weight: 0.2 }]), 4);
    expect(hits[0]?.key).toBe(2);
    const score3 = (w: number) => index.search(indexTerms('damaged items', [{ term: 'warranty', weight: w }]), 4).find((h) => h.key === 3)?.score ?? 0;
    expect(score3(1)).toBeGreaterThan(score3(0.2));
  });

  it('a term in the text and in the extra words keeps its larger weight, stemmed alike', () => {
    expect(indexTerms('refunds', [{ term: 'refunded', weight: 0.3 }, { term: 'Windows', weight: 0.4 }])).toEqual([
      { term: 'refund', weight: 1 }, { term: 'window', weight: 0.4 },
    ]);
  });

  it('importance is the best single-word BM25 score; absent words score 0; the reference is a once-seen word', () => {
    const index = bm25();
    const alone = index.search('warranty', 4)[0]?.score ?? 0;
    expect(index.importance('warranti')).toBeCloseTo(alone, 10);
    expect(index.importance('zebra')).toBe(0);
    expect(index.referenceImportance()).toBeCloseTo(Math.log(1 + (4 - 1 + 0.5) / 1.5), 10);
    expect(new Bm25Index().importance('x')).toBe(0);
  });

  it('termStats maps each word to its index term and importance', () => {
    const memory = new MemoryIndex(2);
    memory.addChunks([...texts].map(([key, text]) => ({ key, docId: `d${key}`, text, context: text, headingPath: [], start: 0, end: text.length })), new Float32Array(8).fill(0.5));
    const stats = memory.termStats(['Warranty', 'the', 'zebra']);
    expect(stats.terms.map((t) => t.term)).toEqual(['warranti', '', 'zebra']);
    expect(stats.terms[0]?.importance).toBeGreaterThan(0);
    expect(stats.terms.slice(1).map((t) => t.importance)).toEqual([0, 0]);
    expect(stats.chunks).toBe(4);
  });
});

describe('the context ranking (documents the conversation is reading)', () => {
  const memory = () => {
    const m = new MemoryIndex(2);
    const chunks = [
      { key: 1, docId: 'refunds', text: 'damaged on arrival: we refund the full price' },
      { key: 2, docId: 'refunds', text: 'refund window: thirty days' },
      { key: 3, docId: 'warranty', text: 'items damaged by misuse are not covered' },
      { key: 4, docId: 'shipping', text: 'delivery takes five days' },
    ];
    m.addChunks(chunks.map((c) => ({ ...c, context: c.text, headingPath: [], start: 0, end: c.text.length })), new Float32Array([1, 0, 1, 0, 1, 0, 0, 1]));
    return m;
  };

  it('favours the context document’s chunks in hybrid search, and only as much as its weight says', () => {
    const m = memory();
    const q = { text: 'damaged items' };
    const vector = new Float32Array([1, 0]);
    expect(m.search(q, vector, { k: 1, mode: 'hybrid' })[0]?.docId).toBe('warranty');
    expect(m.search({ ...q, context: { docIds: ['refunds'], weight: 2 } }, vector, { k: 1, mode: 'hybrid' })[0]?.docId).toBe('refunds');
    expect(m.search({ ...q, context: { docIds: ['refunds'], weight: 0 } }, vector, { k: 1, mode: 'hybrid' })[0]?.docId).toBe('warranty');
  });

  it('the quoted chunk (except) gains nothing; the rest of its document does', () => {
    const m = memory();
    const vector = new Float32Array([1, 0]);
    const q = { text: 'damaged items' };
    const keys = (except: number[]) => m.search({ ...q, context: { docIds: ['refunds'], weight: 2, except } }, vector, { k: 4, mode: 'hybrid' }).map((h) => h.chunkKey);
    expect(keys([])[0]).toBe(1);
    expect(keys([1])[0]).toBe(3); // key 1 competes on its own evidence again: the misuse clause holds both words
  });

  it('a document of one chunk gains what a document of many gains: a fixed share of the fused scores’ spread', () => {
    // As one more ranking in the fusion, membership in a one-chunk document weighed as much as the candidates were many.
    const m = new MemoryIndex(2);
    const chunks = [
      ...Array.from({ length: 10 }, (_, i) => ({ key: i + 1, docId: 'manual', text: `section ${i} about the lamp and its parts` })),
      { key: 11, docId: 'faq-1', text: 'the lamp flickers' },
      { key: 12, docId: 'faq-2', text: 'the lamp hums' },
    ];
    m.addChunks(chunks.map((c) => ({ ...c, context: c.text, headingPath: [], start: 0, end: c.text.length })), new Float32Array(chunks.flatMap(() => [1, 0])));
    const vector = new Float32Array([1, 0]);
    const base = new Map(m.search('lamp flickers', vector, { k: 12, mode: 'hybrid' }).map((h) => [h.chunkKey, h.score]));
    const gain = (docIds: string[], key: number) => (m.search({ text: 'lamp flickers', context: { docIds, weight: 1 } }, vector, { k: 12, mode: 'hybrid' }).find((h) => h.chunkKey === key)?.score ?? 0) - (base.get(key) ?? 0);
    expect(gain(['faq-2'], 12)).toBeGreaterThan(0);
    expect(gain(['faq-2'], 12)).toBeCloseTo(gain(['manual'], 1), 10);
    expect(gain(['faq-2'], 11)).toBe(0);
  });

  it('never returns a chunk the filter excludes, nor changes lexical-only or dense-only rankings', () => {
    const m = memory();
    const hits = m.search({ text: 'delivery', context: { docIds: ['refunds'], weight: 5 } }, new Float32Array([0, 1]), { k: 4, mode: 'hybrid', filter: { docIds: ['shipping', 'warranty'] } });
    expect(hits.every((h) => h.docId !== 'refunds')).toBe(true);
    expect(m.search({ text: 'damaged', context: { docIds: ['shipping'], weight: 5 } }, null, { k: 4, mode: 'lexical' }).map((h) => h.docId)).not.toContain('shipping');
  });
});

describe('separation fusion', () => {
  const list = (scores: number[], offset = 0) => scores.map((score, i) => ({ key: i + offset, score }));

  it('separation is the top hit’s distance from the list mean in standard deviations; a flat list has none', () => {
    expect(separation(list([1, 1, 1]))).toBe(0);
    expect(separation(list([3, 1, 1, 1]))).toBeCloseTo(Math.sqrt(3), 10);
    expect(separation([])).toBe(0);
  });

  it('a decisive ranking wins over a flat one that disagrees', () => {
    const decisive = list([9, 1, 1, 1, 1]); // key 0 clearly first
    const flat = [{ key: 4, score: 0.5 }, { key: 3, score: 0.5 }, { key: 2, score: 0.5 }, { key: 1, score: 0.5 }, { key: 0, score: 0.49 }];
    expect(separationFusion([{ hits: flat }, { hits: decisive }], 3)[0]?.key).toBe(0);
  });

  it('an exhaustive list scores its absent candidates 0, not its lowest score', () => {
    const dense = list([0.9, 0.8, 0.7, 0.6]);
    const lexical = [{ key: 1, score: 5 }, { key: 0, score: 4.9 }];
    // Keys 2 and 3 share no word with the query: exhaustively 0, so they fall below 0 and 1.
    const fused = separationFusion([{ hits: dense }, { hits: lexical, exhaustive: true }], 4).map((h) => h.key);
    expect(fused.slice(0, 2).sort()).toEqual([0, 1]);
  });

  it('a prior adds its weight in standard deviations of the fused scores to the candidates it has, and brings in none', () => {
    const lists = [{ hits: list([5, 3, 2, 1]) }, { hits: list([4, 1, 1, 1]) }];
    const plain = separationFusion(lists, 4);
    const sd = Math.sqrt(plain.reduce((s, h) => s + h.score ** 2, 0) / 4 - (plain.reduce((s, h) => s + h.score, 0) / 4) ** 2);
    const favoured = separationFusion(lists, 4, { has: (key) => key === 2 || key === 99, weight: 0.5 });
    const score = (hits: typeof plain, key: number) => hits.find((h) => h.key === key)?.score ?? NaN;
    expect(score(favoured, 2) - score(plain, 2)).toBeCloseTo(0.5 * sd, 10);
    expect(score(favoured, 1)).toBe(score(plain, 1));
    expect(favoured.map((h) => h.key)).not.toContain(99);
    expect(separationFusion(lists, 4, { has: () => true, weight: 0 })).toEqual(plain);
  });

  it('head agreement: the share of one head the other holds, over the shorter head; 1 with nothing to check against', () => {
    expect(headAgreement(list([4, 3, 2, 1]), list([9, 8], 2))).toBe(1); // keys 2, 3 of the first four; the second head has two
    expect(headAgreement(list([4, 3, 2, 1]), list([9, 8, 7, 6], 10))).toBe(0);
    expect(headAgreement(list([4, 3, 2, 1]), list([9, 8, 7, 6], 2))).toBe(0.5);
    expect(headAgreement(list([5, 4, 3, 2, 1]), list([5, 4, 3, 2, 1]), 2)).toBe(1); // only the top 2 compared
    expect(headAgreement([], list([1]))).toBe(1);
    expect(headAgreement(list([1]), [])).toBe(1);
  });

  it('hybrid search: a dense ranking the words do not corroborate cannot outvote the lexical one; one they do still counts', () => {
    // The query vector singles out one passage (key 1) that shares no word with the query; three others hold its words.
    const chunks = [
      ...Array.from({ length: 12 }, (_, i) => ({ key: i + 1, docId: `warranty-${i}`, text: `warranty clause ${i} covers defects of the lamp` })),
      ...[13, 14, 15].map((key) => ({ key, docId: `refund-${key}`, text: 'damaged items are refunded in full' })),
    ];
    const vectors = new Float32Array(chunks.length * 2);
    chunks.forEach((c, i) => vectors.set(c.key === 1 ? [0, 1] : [1, 0], i * 2));
    const m = new MemoryIndex(2);
    m.addChunks(chunks.map((c) => ({ ...c, context: c.text, headingPath: [], start: 0, end: c.text.length })), vectors);
    // Decisive but uncorroborated (its head holds none of the lexical hits): the words decide.
    expect(m.search('damaged items refunded', new Float32Array([0, 1]), { k: 3, mode: 'hybrid' })[0]?.docId).toMatch(/^refund-/);
    // With corroboration off (a strong model's user may choose it), the decisive dense ranking wins as it did before the rule.
    expect(m.search('damaged items refunded', new Float32Array([0, 1]), { k: 3, mode: 'hybrid', weights: { dense: 1, lexical: 1, corroboration: 0 } })[0]?.docId).toBe('warranty-0');
    // Corroborated (the vector's head is the lexical hits): the dense ranking counts in full and orders them.
    vectors.set([0.6, 0.8], 14 * 2); // key 15 nearest the query vector now
    const m2 = new MemoryIndex(2);
    m2.addChunks(chunks.filter((c) => c.key !== 1).map((c) => ({ ...c, context: c.text, headingPath: [], start: 0, end: c.text.length })), vectors.slice(2));
    expect(m2.search('damaged items refunded', new Float32Array([0, 1]), { k: 3, mode: 'hybrid' })[0]?.docId).toBe('refund-15');
  });

  it('hedged fusion: the hedge\'s ranking counts at its weight (reciprocal rank), 0.5 unless said', () => {
    const main = [{ key: 1, score: 9 }, { key: 2, score: 8 }];
    const hedge = [{ key: 3, score: 9 }];
    const fused = hedgedFusion(main, hedge, 3, 0.3);
    expect(fused.map((h) => h.key)).toEqual([1, 2, 3]);
    expect(fused[2]?.score).toBeCloseTo(0.3 / (RRF_C + 1), 12);
    expect(hedgedFusion(main, hedge, 3)[2]?.score).toBeCloseTo(HEDGE_RAW_WEIGHT / (RRF_C + 1), 12);
    // A hit both rankings hold climbs over one only the main ranking has.
    expect(hedgedFusion(main, [{ key: 2, score: 1 }], 2, 0.3).map((h) => h.key)).toEqual([2, 1]);
  });

  it('static weights still scale each list', () => {
    const a = list([5, 1, 1, 1]);
    const b = [{ key: 3, score: 5 }, { key: 2, score: 1 }, { key: 1, score: 1 }, { key: 0, score: 1 }];
    expect(separationFusion([{ hits: a, weight: 2 }, { hits: b }], 1)[0]?.key).toBe(0);
    expect(separationFusion([{ hits: a }, { hits: b, weight: 2 }], 1)[0]?.key).toBe(3);
  });
});

describe('queries from the page are checked (parseQuery)', () => {
  it('accepts a string or { text, terms, hedge, hedgeWeight } and truncates long text', () => {
    expect(parseQuery('refunds')).toEqual({ text: 'refunds' });
    expect(parseQuery({ text: 'a', terms: [{ term: 'b', weight: 0.2 }], hedge: 'c' })).toEqual({ text: 'a', terms: [{ term: 'b', weight: 0.2 }], hedge: 'c' });
    expect(parseQuery({ text: 'a', hedge: 'c', hedgeWeight: 0.3 })).toEqual({ text: 'a', hedge: 'c', hedgeWeight: 0.3 });
    expect(parseQuery('x'.repeat(10_000)).text).toHaveLength(4_000);
    expect(parseQuery({ text: 'a', context: { docIds: ['d'], weight: 1, except: [3] } })).toEqual({ text: 'a', context: { docIds: ['d'], weight: 1, except: [3] } });
  });

  it.each([
    ['empty string', ''], ['number', 42], ['null', null], ['no text', { terms: [] }], ['blank text', { text: '  ' }],
    ['terms not an array', { text: 'a', terms: 'b' }], ['term not a string', { text: 'a', terms: [{ term: 1, weight: 1 }] }],
    ['NaN weight', { text: 'a', terms: [{ term: 'b', weight: Number.NaN }] }], ['negative weight', { text: 'a', terms: [{ term: 'b', weight: -1 }] }],
    ['huge weight', { text: 'a', terms: [{ term: 'b', weight: 1e9 }] }], ['null term entry', { text: 'a', terms: [null] }],
    ['too many terms', { text: 'a', terms: Array.from({ length: MAX_QUERY_TERMS + 1 }, () => ({ term: 'b', weight: 0.1 })) }],
    ['blank hedge', { text: 'a', hedge: '' }], ['hedge not a string', { text: 'a', hedge: 3 }],
    ['hedge weight without a hedge', { text: 'a', hedgeWeight: 0.3 }], ['hedge weight 0', { text: 'a', hedge: 'c', hedgeWeight: 0 }],
    ['hedge weight above 1', { text: 'a', hedge: 'c', hedgeWeight: 1.5 }], ['hedge weight NaN', { text: 'a', hedge: 'c', hedgeWeight: Number.NaN }],
    ['hedge weight a string', { text: 'a', hedge: 'c', hedgeWeight: '0.3' }],
    ['context without ids', { text: 'a', context: { weight: 1 } }], ['context id not a string', { text: 'a', context: { docIds: [1], weight: 1 } }],
    ['context weight NaN', { text: 'a', context: { docIds: ['d'], weight: Number.NaN } }], ['too many context docs', { text: 'a', context: { docIds: Array.from({ length: 1001 }, (_, i) => `d${i}`), weight: 1 } }],
    ['except not an array', { text: 'a', context: { docIds: ['d'], weight: 1, except: 3 } }], ['except key not an integer', { text: 'a', context: { docIds: ['d'], weight: 1, except: [1.5] } }],
    ['negative except key', { text: 'a', context: { docIds: ['d'], weight: 1, except: [-1] } }], ['except key a string', { text: 'a', context: { docIds: ['d'], weight: 1, except: ['1'] } }],
  ])('refuses %s with INVALID_INPUT', (_, input) => {
    expect(() => parseQuery(input)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});
