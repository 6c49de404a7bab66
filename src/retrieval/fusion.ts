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
