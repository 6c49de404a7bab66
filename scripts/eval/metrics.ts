/** Ranking metrics with binary relevance: MRR, Recall@n and nDCG@10. */
export interface KindMetrics { n: number; mrr: number; r1: number; r5: number; r10: number; ndcg10: number }

/** Per-query scores; MRR counts the first gold passage within the ranking given (depth 100 in the eval). */
export function scoreRanking(ranked: readonly string[], gold: readonly string[]): Omit<KindMetrics, 'n'> {
  const relevant = new Set(gold);
  const first = ranked.findIndex((id) => relevant.has(id));
  const recall = (n: number) => (relevant.size ? ranked.slice(0, n).filter((id) => relevant.has(id)).length / relevant.size : 0);
  let dcg = 0;
  ranked.slice(0, 10).forEach((id, i) => { if (relevant.has(id)) dcg += 1 / Math.log2(i + 2); });
  let ideal = 0;
  for (let i = 0; i < Math.min(10, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return { mrr: first >= 0 ? 1 / (first + 1) : 0, r1: recall(1), r5: recall(5), r10: recall(10), ndcg10: ideal ? dcg / ideal : 0 };
}

export function average(rows: readonly Omit<KindMetrics, 'n'>[]): KindMetrics {
  const n = rows.length;
  const mean = (f: keyof Omit<KindMetrics, 'n'>) => (n ? rows.reduce((s, r) => s + r[f], 0) / n : 0);
  return { n, mrr: mean('mrr'), r1: mean('r1'), r5: mean('r5'), r10: mean('r10'), ndcg10: mean('ndcg10') };
}
