/**
 * Reciprocal rank fusion: score(key) = Σ weight_i / (c + rank_i(key)), with
 * ranks from 1. Robust to the different scales of cosine and BM25 scores.
 */
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
 * Hedged retrieval: fuses the ranking of the condensed question with that of
 * the question as typed, so a bad rewrite cannot bury a hit the raw question had.
 */
export function hedgedFusion<T extends { key: number; score: number }>(condensed: readonly T[], raw: readonly T[], k: number, rawWeight = HEDGE_RAW_WEIGHT): (T & Hit)[] {
  const byKey = new Map<number, T>([...raw, ...condensed].map((h) => [h.key, h]));
  return reciprocalRankFusion([{ hits: condensed, weight: 1 }, { hits: raw, weight: rawWeight }], k)
    .map((f) => ({ ...(byKey.get(f.key) as T), score: f.score }));
}
