/** Ranking metrics with binary relevance: MRR, Recall@n and nDCG@10. */
export interface KindMetrics { n: number; mrr: number; r1: number; r5: number; r10: number; ndcg10: number }

/** Reciprocal rank of a 1-based rank, 0 for a passage not found (rank 0, as TurnRow.rank writes it). */
export const reciprocalRank = (rank: number): number => (rank > 0 ? 1 / rank : 0);

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

/**
 * A 95% percentile interval for gap closure = (mean(strategy) − mean(raw)) /
 * (mean(oracle) − mean(raw)) over follow-up turns, resampling the turns with
 * replacement (`runs` times; a fixed seed, so a report is reproducible). On a
 * set of a few hundred follow-ups one turn moves closure by points: the
 * interval says how far a figure can be read. Null when no resample has a gap.
 */
export function closureInterval(raw: readonly number[], strategy: readonly number[], oracle: readonly number[], runs = 2000): [number, number] | null {
  const n = raw.length;
  if (n === 0 || strategy.length !== n || oracle.length !== n) return null;
  return bootstrap(n, runs, (draw) => {
    let dRaw = 0; let dStrategy = 0; let dOracle = 0;
    for (let i = 0; i < n; i++) {
      const j = draw();
      dRaw += raw[j] as number; dStrategy += strategy[j] as number; dOracle += oracle[j] as number;
    }
    return dOracle !== dRaw ? (dStrategy - dRaw) / (dOracle - dRaw) : null;
  });
}

/** mean(a) − mean(b) over paired per-turn scores, its interval (pairedInterval), and the turns where a is higher and lower. */
export interface PairedDifference {
  /** 0 for no turns. */
  delta: number;
  ci: [number, number] | null;
  higher: number;
  lower: number;
}

export function pairedDifference(a: readonly number[], b: readonly number[]): PairedDifference {
  const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);
  return {
    delta: mean(a) - mean(b), ci: pairedInterval(a, b),
    higher: a.filter((x, i) => x > (b[i] as number)).length, lower: a.filter((x, i) => x < (b[i] as number)).length,
  };
}

/**
 * A 95% percentile interval for mean(a) − mean(b) over paired per-turn scores (the same turns ranked two
 * ways), resampling the turns as closureInterval does. Null for no turns.
 */
export function pairedInterval(a: readonly number[], b: readonly number[], runs = 2000): [number, number] | null {
  const n = a.length;
  if (n === 0 || b.length !== n) return null;
  return bootstrap(n, runs, (draw) => {
    let d = 0;
    for (let i = 0; i < n; i++) {
      const j = draw();
      d += (a[j] as number) - (b[j] as number);
    }
    return d / n;
  });
}

/**
 * The 2.5th and 97.5th percentiles of `statistic` over `runs` resamples of n items with replacement (`draw`
 * gives one item's index), with a fixed seed so that a report is reproducible; a resample whose statistic is
 * undefined (null) is left out. Null when every one is.
 */
function bootstrap(n: number, runs: number, statistic: (draw: () => number) => number | null): [number, number] | null {
  let seed = 0x9e3779b9;
  const draw = () => { seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0; return Math.floor((seed / 2 ** 32) * n); };
  const values: number[] = [];
  for (let r = 0; r < runs; r++) {
    const value = statistic(draw);
    if (value !== null) values.push(value);
  }
  if (!values.length) return null;
  values.sort((x, y) => x - y);
  const at = (q: number) => values[Math.min(values.length - 1, Math.floor(q * values.length))] as number;
  return [at(0.025), at(0.975)];
}
