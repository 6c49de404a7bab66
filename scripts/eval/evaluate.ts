/**
 * Follow-up retrieval, measured per turn kind and strategy against strategy,
 * through the library's own code: the same gate, condensers, expansion,
 * hedged fusion and index as in the browser, the offline embedding model,
 * passages indexed as given (no re-chunking). A set without a corpus is
 * measured on what needs no retrieval: the gate and term resolution.
 * Deterministic: two runs give identical numbers.
 */
import { resolve } from 'node:path';
import type { ExpandOptions } from '../../src/chat/expand';
import { specificityFrom, type Specificity } from '../../src/chat/specificity';
import { loadTransformersEmbedder } from '../../src/embedding/transformers-embedder';
import type { Llm } from '../../src/llm/llm';
import { hedgedFusion } from '../../src/retrieval/fusion';
import { MemoryIndex, type SearchMode } from '../../src/retrieval/memory-index';
import { contentWords } from '../../src/retrieval/lexical-tokens';
import { loadEvalSet, type TurnKind } from './data';
import { average, scoreRanking, type KindMetrics } from './metrics';
import { vocabularyPrior } from './prior';
import { ALL_STRATEGIES, contexts, strategyQuery, type Strategy, type StrategyQuery, type TurnContext } from './strategies';
import { termCounts, termScore, type TermScore } from './terms';

export { ALL_STRATEGIES, type Strategy } from './strategies';
export type KindKey = TurnKind | 'all';

export interface EvalOptions {
  data: string;
  strategies?: readonly Strategy[];
  retrieval?: SearchMode;
  k?: number;
  /** Needed for the `llm` strategy; without it that strategy is skipped. */
  llm?: Llm;
  /** Embedding model folder. @default .models/threadline-glove-30k */
  model?: string;
  /** Weights of the expand strategy (sensitivity runs). @default EXPAND_DEFAULTS */
  expand?: ExpandOptions;
}

export interface StrategyReport {
  /** Ranking metrics per turn kind; absent for a set without a corpus. */
  kinds?: Record<KindKey, KindMetrics>;
  gapClosure: number | null;
  regression: number;
  /** Term resolution of the resolved question against the human rewrite, non-first turns. */
  terms: TermScore;
  /** Share of turns of each kind the strategy changed (condensed or expanded). */
  changed: Record<TurnKind, number>;
}

/** One turn, for reading failures one by one (`--turns FILE`). */
export interface TurnRow {
  id: string;
  kind: TurnKind;
  user: string;
  rewrite: string;
  /** The expand strategy's gate, question and added words. */
  gate: string;
  question: string;
  terms: { term: string; weight: number }[];
  /** 1-based rank of the first gold passage (0: not in the ranking), per strategy. */
  rank: Partial<Record<Strategy, number>>;
}

export interface EvalReport {
  data: string;
  retrieval: SearchMode;
  k: number;
  /** Ranking depth: MRR is MRR@depth; depth = max(k, 10) so that R@10 and nDCG@10 are defined. */
  depth: number;
  /** Whether the set has a corpus (ranking metrics) or conversations only. */
  corpus: boolean;
  /** Where specificity came from: the corpus's own BM25 statistics, or the vocabulary prior. */
  specificity: 'corpus' | 'vocabulary-prior';
  strategies: Partial<Record<Strategy, StrategyReport>>;
  /** The default condenser's gate (expand), against the turn kinds. */
  gate: { keptFirst: number; keptStandalone: number; condensedFollowup: number; changedStandalone: number };
  /** The English-only gate (rules), for comparison. */
  gateRules: { keptFirst: number; keptStandalone: number; condensedFollowup: number };
  skipped: Strategy[];
  model: string;
  turns: TurnRow[];
  ms: number;
}

function summarize(rows: { kind: TurnKind; scores: ReturnType<typeof scoreRanking> }[]): Record<KindKey, KindMetrics> {
  const of = (kind: KindKey) => average(rows.filter((r) => kind === 'all' || r.kind === kind).map((r) => r.scores));
  return { first: of('first'), standalone: of('standalone'), followup: of('followup'), all: of('all') };
}

const share = (turns: TurnContext[], kind: TurnKind, test: (c: TurnContext, i: number) => boolean) => {
  const of = turns.map((c, i) => [c, i] as const).filter(([c]) => c.turn.kind === kind);
  return of.length ? of.filter(([c, i]) => test(c, i)).length / of.length : 0;
};

export async function evaluate(options: EvalOptions): Promise<EvalReport> {
  const started = performance.now();
  const retrieval = options.retrieval ?? 'hybrid';
  const k = options.k ?? 10;
  if (!Number.isInteger(k) || k < 1) throw new Error(`--k must be a positive integer, got ${k}`);
  const depth = Math.max(k, 10);
  const modelPath = options.model ?? resolve(import.meta.dirname, '../../.models/threadline-glove-30k') + '/';
  const wanted = options.strategies ?? ALL_STRATEGIES;
  const skipped = wanted.filter((s) => s === 'llm' && !options.llm);
  const strategies = wanted.filter((s) => !skipped.includes(s));
  const { passages, conversations } = loadEvalSet(options.data);
  const turns = contexts(conversations);

  const embedder = await loadTransformersEmbedder({ model: modelPath });
  let index: MemoryIndex | null = null;
  let specificity: Specificity;
  if (passages) {
    index = new MemoryIndex(embedder.dims);
    index.addChunks(passages.map((p, key) => ({ key, docId: p.id, text: p.text, context: p.text, headingPath: [], start: 0, end: p.text.length })), await embedder.embed(passages.map((p) => p.text)));
    const words = [...new Set(turns.flatMap((c) => contentWords(c.turn.user)))];
    specificity = specificityFrom(index.termStats(words));
  } else {
    specificity = vocabularyPrior(modelPath);
  }

  const queries = new Map<Strategy, StrategyQuery[]>();
  for (const s of strategies) queries.set(s, await Promise.all(turns.map((c) => strategyQuery(s, c, specificity, options.llm, options.expand))));

  const ranks = new Map<Strategy, number[]>();
  const report: EvalReport['strategies'] = {};
  for (const s of strategies) {
    const qs = queries.get(s) ?? [];
    const nonFirst = turns.map((c, i) => [c, i] as const).filter(([c]) => c.turn.kind !== 'first');
    const terms = termScore(nonFirst.map(([c, i]) => termCounts(qs[i]?.question ?? qs[i]?.query.text ?? c.turn.user, c.turn.rewrite, c.turn.user)));
    const changed = { first: share(turns, 'first', (_, i) => !!qs[i]?.changed), standalone: share(turns, 'standalone', (_, i) => !!qs[i]?.changed), followup: share(turns, 'followup', (_, i) => !!qs[i]?.changed) };
    const entry: StrategyReport = { gapClosure: null, regression: 0, terms, changed };
    report[s] = entry;
    if (!index || !passages) continue;
    const vectors = retrieval === 'lexical' ? null : await embedder.embed(qs.map((q) => q.query.text));
    const hedges = qs.map((q) => q.query.hedge);
    const hedgeVectors = retrieval === 'lexical' || !hedges.some(Boolean) ? null : await embedder.embed(hedges.map((h) => h ?? ''));
    const rankings = qs.map((q, i) => rankQuery(index, q, i, vectors, hedgeVectors, embedder.dims, depth, retrieval).map((key) => passages[key]?.id ?? ''));
    ranks.set(s, rankings.map((ids, i) => 1 + ids.findIndex((id) => turns[i]?.turn.gold.includes(id))));
    entry.kinds = summarize(turns.map((c, i) => ({ kind: c.turn.kind, scores: scoreRanking(rankings[i] ?? [], c.turn.gold) })));
  }
  gapAndRegression(report, strategies);

  const rulesGate = queries.get('rules');
  const expand = queries.get('expand');
  return {
    data: options.data, retrieval, k, depth, corpus: !!passages, specificity: passages ? 'corpus' : 'vocabulary-prior', strategies: report, skipped, model: embedder.modelId,
    gate: {
      keptFirst: share(turns, 'first', (_, i) => !expand?.[i]?.changed),
      keptStandalone: share(turns, 'standalone', (_, i) => !expand?.[i]?.changed),
      condensedFollowup: share(turns, 'followup', (_, i) => !!expand?.[i]?.changed),
      changedStandalone: share(turns, 'standalone', (_, i) => !!expand?.[i]?.changed),
    },
    gateRules: {
      keptFirst: share(turns, 'first', (_, i) => !rulesGate?.[i]?.changed),
      keptStandalone: share(turns, 'standalone', (_, i) => !rulesGate?.[i]?.changed),
      condensedFollowup: share(turns, 'followup', (_, i) => !!rulesGate?.[i]?.changed),
    },
    turns: turns.map((c, i) => ({
      id: c.turn.id, kind: c.turn.kind, user: c.turn.user, rewrite: c.turn.rewrite,
      gate: expand?.[i]?.changed ? 'condensed' : 'kept', question: expand?.[i]?.question ?? expand?.[i]?.query.text ?? c.turn.user, terms: [...(expand?.[i]?.query.terms ?? [])],
      rank: Object.fromEntries([...ranks].map(([s, r]) => [s, r[i] ?? 0])),
    })),
    ms: performance.now() - started,
  };
}

function rankQuery(index: MemoryIndex, q: StrategyQuery, i: number, vectors: Float32Array | null, hedgeVectors: Float32Array | null, dims: number, depth: number, mode: SearchMode): number[] {
  const row = (v: Float32Array | null) => (v ? v.subarray(i * dims, (i + 1) * dims) : null);
  const main = index.search(q.query, row(vectors), { k: depth, mode });
  if (!q.query.hedge) return main.map((h) => h.chunkKey);
  const plain = index.search({ text: q.query.hedge }, row(hedgeVectors), { k: depth, mode });
  const keyed = (hits: typeof main) => hits.map((h) => ({ key: h.chunkKey, score: h.score }));
  return hedgedFusion(keyed(main), keyed(plain), depth).map((h) => h.key);
}


function gapAndRegression(report: EvalReport['strategies'], strategies: readonly Strategy[]): void {
  const raw = report.raw?.kinds;
  const oracle = report.oracle?.kinds;
  const keptMrr = (kinds: Record<KindKey, KindMetrics>) => {
    const { first, standalone } = kinds;
    return first.n + standalone.n ? (first.mrr * first.n + standalone.mrr * standalone.n) / (first.n + standalone.n) : 0;
  };
  for (const s of strategies) {
    const r = report[s] as StrategyReport;
    if (!r.kinds) continue;
    if (raw && oracle && oracle.followup.mrr !== raw.followup.mrr) r.gapClosure = (r.kinds.followup.mrr - raw.followup.mrr) / (oracle.followup.mrr - raw.followup.mrr);
    if (raw) r.regression = keptMrr(raw) - keptMrr(r.kinds);
  }
}
