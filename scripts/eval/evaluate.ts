/**
 * `npm run eval`'s engine: the offline model (or `model`) and an in-process
 * index over the set's passages; sets without a corpus use the vocabulary prior.
 */
import { resolve } from 'node:path';
import { CHAT_DEFAULTS } from '../../src/chat/session';
import { shouldAbstain } from '../../src/chat/answer';
import { specificityFrom } from '../../src/chat/specificity';
import { writtenFormsFrom } from '../../src/chat/written-forms';
import type { Embedder } from '../../src/embedding/embedder';
import { loadEmbedder } from '../../src/embedding/load-embedder';
import { hedgeQuery, hedgedFusion } from '../../src/retrieval/fusion';
import { contentWords } from '../../src/text/tokens';
import { MemoryIndex, type SearchHit, type SearchMode } from '../../src/retrieval/memory-index';
import { runEval, type EvalEngine, type EvalOptions, type EvalReport } from './core';
import type { Conversation, Passage } from './parse';
import { loadEvalSet, withGoldAnswers } from './data';
import { vocabularyPrior } from './prior';
import { withTyping } from './typing';
import { contexts, type StrategyQuery } from './strategies';

export { ALL_STRATEGIES, runEval } from './core';
export type { EvalEngine, EvalOptions, EvalReport, KindKey, Strategy, StrategyReport, TurnRow } from './core';

export async function evaluate(options: EvalOptions): Promise<EvalReport> {
  const retrieval = options.retrieval ?? 'hybrid';
  const modelPath = options.model ?? resolve(import.meta.dirname, '../../.models/threadline-glove-30k') + '/';
  const loaded = loadEvalSet(options.data);
  const answers = options.answers ?? 'as-given';
  const set = withTyping(answers === 'as-given' ? loaded : withGoldAnswers(loaded, answers), options.typing ?? 'as-given');
  const embedder = await loadEmbedder({ model: modelPath });
  let engine: EvalEngine;
  let index: MemoryIndex | null = null;
  if (set.passages) {
    const passages = set.passages;
    const built = new MemoryIndex(embedder.dims);
    index = built;
    built.addChunks(passages.map((p, key) => ({ key, docId: p.id, text: p.text, context: p.text, headingPath: [], start: 0, end: p.text.length })), await embedder.embed(passages.map((p) => p.text)));
    const words = [...new Set(contexts(set.conversations).flatMap((c) => contentWords(c.turn.user)))];
    const stats = built.termStats(words, { forms: true });
    engine = {
      model: embedder.modelId,
      specificity: specificityFrom(stats),
      forms: writtenFormsFrom(stats),
      rank: async (qs, depth, part) => {
        const mode = part ?? retrieval;
        const vectors = mode === 'lexical' ? null : await embedder.embed(qs.map((q) => q.query.text));
        const hedges = qs.map((q) => q.query.hedge);
        const hedgeVectors = mode === 'lexical' || !hedges.some(Boolean) ? null : await embedder.embed(hedges.map((h) => h ?? ''));
        return qs.map((q, i) => rankQuery(built, q, i, vectors, hedgeVectors, embedder.dims, depth, mode).map((key) => passages[key]?.id ?? ''));
      },
    };
  } else {
    engine = { model: embedder.modelId, specificity: vocabularyPrior(modelPath), rank: () => Promise.resolve([]) };
  }
  const report = await runEval(set, engine, options);
  if (index && set.passages && retrieval === 'hybrid' && report.strategies.expand) report.abstention = await abstention(index, embedder, report, set.passages, set);
  return report;
}

/**
 * The answer step's abstention rule on follow-ups, three ways: the gold
 * passages in the index; the turn's gold passages removed (skipped in the
 * ranking; the rest of its topic stays, which is CAsT's hard case); and its
 * conversation's topic removed (every gold passage of the conversation
 * skipped: a forgotten document). Plus how well single scores separate
 * present from removed (AUC).
 */
async function abstention(index: MemoryIndex, embedder: Embedder, report: EvalReport, passages: readonly Passage[], set: { conversations: Conversation[] }): Promise<EvalReport['abstention']> {
  const k = CHAT_DEFAULTS.k;
  const gold = new Map(contexts(set.conversations).map((c) => [c.turn.id, { turn: c.turn.gold, topic: c.conversation.turns.flatMap((t) => t.gold) }]));
  const turns = report.turns.filter((t) => t.kind === 'followup' && (gold.get(t.id)?.turn.length ?? 0) > 0);
  if (!turns.length) return undefined;
  const vectors = await embedder.embed(turns.map((t) => t.question));
  const rule = { minDense: CHAT_DEFAULTS.minDense, minCoverage: CHAT_DEFAULTS.minCoverage };
  type Signals = { present: boolean; dense: number; lexical: number; coverage: number };
  const goldSignals: Signals[] = [];
  const topicSignals: Signals[] = [];
  const fired = { present: 0, goldRemoved: 0, topicRemoved: 0 };
  const best = (hs: SearchHit[], f: (h: SearchHit) => number | undefined) => Math.max(0, ...hs.map((h) => f(h) ?? 0));
  const signals = (hs: SearchHit[], present: boolean): Signals => ({ present, dense: best(hs, (h) => h.dense), lexical: best(hs, (h) => h.lexical), coverage: best(hs, (h) => h.coverage) });
  turns.forEach((t, i) => {
    const { turn: golds, topic } = gold.get(t.id) ?? { turn: [], topic: [] };
    const search = (skip: readonly string[]) => index.search({ text: t.question, terms: t.terms }, vectors.subarray(i * embedder.dims, (i + 1) * embedder.dims), {
      k, mode: 'hybrid', filter: { docIds: passages.filter((p) => !skip.includes(p.id)).map((p) => p.id) },
    });
    const present = search([]);
    const withoutGold = search(golds);
    const withoutTopic = search(topic);
    if (shouldAbstain(present, rule)) fired.present++;
    if (shouldAbstain(withoutGold, rule)) fired.goldRemoved++;
    if (shouldAbstain(withoutTopic, rule)) fired.topicRemoved++;
    goldSignals.push(signals(present, true), signals(withoutGold, false));
    topicSignals.push(signals(present, true), signals(withoutTopic, false));
  });
  const aucs = (rows: Signals[]) => ({ dense: auc(rows, (s) => s.dense), lexical: auc(rows, (s) => s.lexical), coverage: auc(rows, (s) => s.coverage) });
  return {
    k, ...rule, turns: turns.length,
    withGold: fired.present / turns.length, goldRemoved: fired.goldRemoved / turns.length, topicRemoved: fired.topicRemoved / turns.length,
    aucGold: aucs(goldSignals), aucTopic: aucs(topicSignals),
  };
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
  const plain = index.search(hedgeQuery(q.query.hedge, q.query), row(hedgeVectors), { k: depth, mode });
  const keyed = (hits: typeof main) => hits.map((h) => ({ key: h.chunkKey, score: h.score }));
  return hedgedFusion(keyed(main), keyed(plain), depth, q.query.hedgeWeight).map((h) => h.key);
}


