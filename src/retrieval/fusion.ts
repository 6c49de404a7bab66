/**
 * Reciprocal rank fusion: score(key) = Σ weight_i / (c + rank_i(key)), with
 * ranks from 1. Robust to the different scales of cosine and BM25 scores.
 */
import type { Query } from '../retriever';
import type { Hit } from './top-k';

export interface RankedList {
  hits: readonly Hit[];
  /** @default 1 */
  weight?: number;
}

/** Cormack et al.'s constant; larger values flatten the head of each list. */
export const RRF_C = 60;

export function reciprocalRankFusion(lists: readonly RankedList[], k: number, c = RRF_C): Hit[] {
  const fused = new Map<number, number>();
  for (const { hits, weight = 1 } of lists) {
    hits.forEach((hit, i) => fused.set(hit.key, (fused.get(hit.key) ?? 0) + weight / (c + i + 1)));
  }
  return [...fused].map(([key, score]) => ({ key, score }))
    .sort((a, b) => b.score - a.score || a.key - b.key)
    .slice(0, Math.max(0, k));
}

/** Weight of the raw question's ranking in hedged retrieval (the condensed one weighs 1). */
export const HEDGE_RAW_WEIGHT = 0.5;

/**
 * What a hedged query's second ranking searches: its hedge, near the same documents (the conversation reads
 * them either way), with no weighted terms of its own. The worker and the evaluation both rank it.
 */
export function hedgeQuery(hedge: string, query: Query): Query {
  return { text: hedge, ...(query.context ? { context: query.context } : {}) };
}

/**
 * Hedged retrieval: fuses the ranking of the condensed question with that of
 * the question as typed, so a bad rewrite cannot bury a hit the raw question had.
 */
export function hedgedFusion<T extends { key: number; score: number }>(condensed: readonly T[], raw: readonly T[], k: number, rawWeight = HEDGE_RAW_WEIGHT): (T & Hit)[] {
  const byKey = new Map<number, T>([...raw, ...condensed].map((h) => [h.key, h]));
  return reciprocalRankFusion([{ hits: condensed, weight: 1 }, { hits: raw, weight: rawWeight }], k)
    .map((f) => ({ ...(byKey.get(f.key) as T), score: f.score }));
}

/**
 * Mean, standard deviation and separation of a list of scores. Separation is
 * how far the best score stands out from the rest, in standard deviations: a
 * query-performance signal. A model that cannot tell passages apart (flat
 * cosines) scores low; a ranking with a clear winner high.
 */
function scoreStats(scores: readonly number[]): { mean: number; sd: number; separation: number } {
  const n = scores.length;
  if (n === 0) return { mean: 0, sd: 0, separation: 0 };
  const mean = scores.reduce((s, x) => s + x, 0) / n;
  const sd = Math.sqrt(scores.reduce((s, x) => s + (x - mean) ** 2, 0) / n);
  const top = scores.reduce((m, x) => (x > m ? x : m), -Infinity);
  return { mean, sd, separation: sd > 0 ? (top - mean) / sd : 0 };
}

/** The separation of a ranking's scores (see scoreStats). */
export function separation(hits: readonly Hit[]): number {
  return scoreStats(hits.map((h) => h.score)).separation;
}

/** How deep the heads compared by headAgreement go: the ranks a reader sees and MRR@10 counts. */
export const AGREEMENT_DEPTH = 10;

/**
 * How much of ranking `a`'s head ranking `b`'s head confirms: the share of
 * a's top `depth` keys also in b's top `depth`, over the shorter of the two
 * heads; 1 when either is empty (nothing to check against). Hybrid search
 * weighs the dense ranking by its agreement with the lexical one: a lexical
 * hit is literal evidence of the query's words, an embedding neighbour is the
 * model's guess, trusted as far as the words corroborate it. With the offline
 * model, whose neighbours often drift to the conversation's other passages,
 * this is what keeps hybrid above lexical alone (README, Quality; docs/quality-log.md).
 */
export function headAgreement(a: readonly Hit[], b: readonly Hit[], depth = AGREEMENT_DEPTH): number {
  const n = Math.min(depth, a.length, b.length);
  if (n === 0) return 1;
  const head = new Set(b.slice(0, depth).map((h) => h.key));
  let shared = 0;
  for (const hit of a.slice(0, depth)) if (head.has(hit.key)) shared++;
  return Math.min(1, shared / n);
}

/** A ranking to fuse by score; `exhaustive` when every candidate it lacks truly scores 0 (BM25 lists all matches below its depth). */
export interface ScoredList extends RankedList {
  exhaustive?: boolean;
}

/**
 * A prior on some candidates: each one it `has` gains `weight` standard
 * deviations of the fused scores. Scale-free, and the same whatever the number
 * of keys (the documents a conversation is reading, whether of one chunk or
 * a hundred); it reorders candidates the evidence finds close, and cannot
 * bring in one the rankings did not find.
 */
export interface Prior { has: (key: number) => boolean; weight: number }

/**
 * Z-score fusion weighted per query. Every candidate of any list gets a score
 * in every list (its own, else 0 where the list is exhaustive, else the
 * list's lowest); each list is standardized over those candidates, so cosine
 * and BM25 scales meet, and weighs its own separation (how far its best hit
 * stands out) times its static weight: a flat ranking cannot drown a decisive one.
 */
export function separationFusion(lists: readonly ScoredList[], k: number, prior?: Prior): Hit[] {
  const keys = [...new Set(lists.flatMap((l) => l.hits.map((h) => h.key)))];
  const columns = lists.map(({ hits, exhaustive }) => {
    const own = new Map(hits.map((h) => [h.key, h.score]));
    const absent = exhaustive ? 0 : hits.at(-1)?.score ?? 0;
    return keys.map((key) => own.get(key) ?? absent);
  });
  const fused = keys.map((key) => ({ key, score: 0 }));
  lists.forEach(({ weight = 1 }, i) => {
    const column = columns[i] as number[];
    const { mean, sd, separation: apart } = scoreStats(column);
    if (sd === 0) return;
    const w = weight * Math.max(0, apart);
    column.forEach((score, j) => { (fused[j] as Hit).score += (w * (score - mean)) / sd; });
  });
  if (prior && prior.weight > 0) {
    const { sd } = scoreStats(fused.map((h) => h.score));
    for (const hit of fused) if (prior.has(hit.key)) hit.score += prior.weight * sd;
  }
  return fused.sort((a, b) => b.score - a.score || a.key - b.key).slice(0, Math.max(0, k));
}
