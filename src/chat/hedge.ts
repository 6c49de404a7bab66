/**
 * Hedged retrieval: fuse the ranking of the condensed question with that of
 * the question as typed, so a bad rewrite cannot bury a hit the raw question
 * had. Shared by chat sessions and the evaluation.
 */
import { reciprocalRankFusion } from '../retrieval/fusion';
import type { Hit } from '../retrieval/top-k';

/** Weight of the raw question's ranking (the condensed one weighs 1). */
export const HEDGE_RAW_WEIGHT = 0.5;

export function hedgedFusion<T extends { key: number; score: number }>(condensed: readonly T[], raw: readonly T[], k: number, rawWeight = HEDGE_RAW_WEIGHT): (T & Hit)[] {
  const byKey = new Map<number, T>([...raw, ...condensed].map((h) => [h.key, h]));
  return reciprocalRankFusion([{ hits: condensed, weight: 1 }, { hits: raw, weight: rawWeight }], k)
    .map((f) => ({ ...(byKey.get(f.key) as T), score: f.score }));
}
