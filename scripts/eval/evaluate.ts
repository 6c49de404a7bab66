/**
 * `npm run eval`'s engine: the offline model (or `model`) and an in-process
 * index over the set's passages; sets without a corpus use the vocabulary prior.
 */
import { resolve } from 'node:path';
import { CHAT_DEFAULTS } from '../../src/chat/session';
import { specificityFrom } from '../../src/chat/specificity';
import type { Embedder } from '../../src/embedding/embedder';
import { loadEmbedder } from '../../src/embedding/load-embedder';
import { hedgedFusion } from '../../src/retrieval/fusion';
import { contentWords } from '../../src/text/tokens';
import { MemoryIndex, type SearchHit, type SearchMode } from '../../src/retrieval/memory-index';
import { runEval, type EvalEngine, type EvalOptions, type EvalReport } from './core';
import type { Passage } from './parse';
import { loadEvalSet } from './data';
import { vocabularyPrior } from './prior';
import { contexts, type StrategyQuery } from './strategies';

export { ALL_STRATEGIES, runEval } from './core';
export type { EvalEngine, EvalOptions, EvalReport, KindKey, Strategy, StrategyReport, TurnRow } from './core';

export async function evaluate(options: EvalOptions): Promise<EvalReport> {
  const retrieval = options.retrieval ?? 'hybrid';
  const modelPath = options.model ?? resolve(import.meta.dirname, '../../.models/threadline-glove-30k') + '/';
  const set = loadEvalSet(options.data);
  const embedder = await loadEmbedder({ model: modelPath });
  let engine: EvalEngine;
  let index: MemoryIndex | null = null;
  if (set.passages) {
    const passages = set.passages;
    const built = new MemoryIndex(embedder.dims);
    index = built;
    built.addChunks(passages.map((p, key) => ({ key, docId: p.id, text: p.text, context: p.text, headingPath: [], start: 0, end: p.text.length })), await embedder.embed(passages.map((p) => p.text)));
    const words = [...new Set(contexts(set.conversations).flatMap((c) => contentWords(c.turn.user)))];
    engine = {
      model: embedder.modelId,
      specificity: specificityFrom(built.termStats(words)),
      rank: async (qs, depth) => {
        const vectors = retrieval === 'lexical' ? null : await embedder.embed(qs.map((q) => q.query.text));
        const hedges = qs.map((q) => q.query.hedge);
        const hedgeVectors = retrieval === 'lexical' || !hedges.some(Boolean) ? null : await embedder.embed(hedges.map((h) => h ?? ''));
        return qs.map((q, i) => rankQuery(built, q, i, vectors, hedgeVectors, embedder.dims, depth, retrieval).map((key) => passages[key]?.id ?? ''));
      },
    };
  } else {
    engine = { model: embedder.modelId, specificity: vocabularyPrior(modelPath), rank: () => Promise.resolve([]) };
  }
  const report = await runEval(set, engine, options);
  if (index && set.passages && retrieval === 'hybrid') report.abstention = await abstention(index, embedder, report, set.passages, new Map(contexts(set.conversations).map((c) => [c.turn.id, c.turn.gold])));
  return report;
}

/** The answer step's abstention rule with and without the gold passages (removed by skipping them in the ranking). */
async function abstention(index: MemoryIndex, embedder: Embedder, report: EvalReport, passages: readonly Passage[], gold: Map<string, string[]>): Promise<EvalReport['abstention']> {
  const k = CHAT_DEFAULTS.k;
  const minDense = CHAT_DEFAULTS.minDense;
  const turns = report.turns.filter((t) => t.kind === 'followup' && (gold.get(t.id)?.length ?? 0) > 0);
  if (!turns.length) return undefined;
  const vectors = await embedder.embed(turns.map((t) => t.question));
  const fires = (hits: SearchHit[]) => !hits[0] || (hits.every((h) => h.lexical === undefined) && (hits[0].dense ?? 0) < minDense);
  const signals: { present: boolean; dense: number; lexical: number }[] = [];
  let withGold = 0;
  let removed = 0;
  turns.forEach((t, i) => {
    const golds = gold.get(t.id) ?? [];
    const hits = index.search({ text: t.question, terms: t.terms }, vectors.subarray(i * embedder.dims, (i + 1) * embedder.dims), { k: k + golds.length, mode: 'hybrid' });
    const present = hits.slice(0, k);
    const without = hits.filter((h) => !golds.includes(passages[h.chunkKey]?.id ?? '')).slice(0, k);
    if (fires(present)) withGold++;
    if (fires(without)) removed++;
    const best = (hs: SearchHit[], f: (h: SearchHit) => number | undefined) => Math.max(0, ...hs.map((h) => f(h) ?? 0));
    signals.push({ present: true, dense: best(present, (h) => h.dense), lexical: best(present, (h) => h.lexical) });
    signals.push({ present: false, dense: best(without, (h) => h.dense), lexical: best(without, (h) => h.lexical) });
  });
  return { k, minDense, withGold: withGold / turns.length, goldRemoved: removed / turns.length, aucDense: auc(signals, (s) => s.dense), aucLexical: auc(signals, (s) => s.lexical) };
}

/** Probability that a gold-present turn's signal exceeds a gold-removed turn's (ties count half). */
function auc<T extends { present: boolean }>(rows: readonly T[], signal: (r: T) => number): number {
  const pos = rows.filter((r) => r.present).map(signal);
  const neg = rows.filter((r) => !r.present).map(signal);
  let wins = 0;
  for (const p of pos) for (const n of neg) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return pos.length && neg.length ? wins / (pos.length * neg.length) : 0.5;
}

function rankQuery(index: MemoryIndex, q: StrategyQuery, i: number, vectors: Float32Array | null, hedgeVectors: Float32Array | null, dims: number, depth: number, mode: SearchMode): number[] {
  const row = (v: Float32Array | null) => (v ? v.subarray(i * dims, (i + 1) * dims) : null);
  const main = index.search(q.query, row(vectors), { k: depth, mode });
  if (!q.query.hedge) return main.map((h) => h.chunkKey);
  const plain = index.search({ text: q.query.hedge }, row(hedgeVectors), { k: depth, mode });
  const keyed = (hits: typeof main) => hits.map((h) => ({ key: h.chunkKey, score: h.score }));
  return hedgedFusion(keyed(main), keyed(plain), depth).map((h) => h.key);
}


