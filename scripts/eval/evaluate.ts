/**
 * Follow-up retrieval, measured per turn kind and strategy against strategy,
 * through the library's own code: the same gate, condensers, hedged fusion
 * and index as in the browser, the offline embedding model, passages indexed
 * as given (no re-chunking). Deterministic: two runs give identical numbers.
 */
import { resolve } from 'node:path';
import { decide } from '../../src/chat/gate';
import { hedgedFusion } from '../../src/retrieval/fusion';
import { condenseWithLlm } from '../../src/chat/llm-condenser';
import { windowTurns } from '../../src/chat/memory';
import { condenseWithRules } from '../../src/chat/rules-condenser';
import type { HistoryTurn } from '../../src/chat/topics';
import { loadTransformersEmbedder } from '../../src/embedding/transformers-embedder';
import type { Llm } from '../../src/llm/llm';
import { MemoryIndex, type SearchMode } from '../../src/retrieval/memory-index';
import { loadEvalSet, type Conversation, type EvalTurn, type TurnKind } from './data';
import { average, scoreRanking, type KindMetrics } from './metrics';

export const ALL_STRATEGIES = ['raw', 'concat', 'window', 'rules', 'hedged', 'llm', 'oracle'] as const;
export type Strategy = (typeof ALL_STRATEGIES)[number];
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
}

export interface StrategyReport { kinds: Record<KindKey, KindMetrics>; gapClosure: number | null; regression: number }

export interface EvalReport {
  data: string;
  retrieval: SearchMode;
  k: number;
  /** Ranking depth: MRR is MRR@depth; depth = max(k, 10) so that R@10 and nDCG@10 are defined. */
  depth: number;
  strategies: Partial<Record<Strategy, StrategyReport>>;
  gate: { keptFirst: number; keptStandalone: number; condensedFollowup: number };
  skipped: Strategy[];
  model: string;
  ms: number;
}


interface TurnContext { turn: EvalTurn; history: HistoryTurn[]; conversation: Conversation }

function contexts(conversations: Conversation[]): TurnContext[] {
  return conversations.flatMap((conversation) => conversation.turns.map((turn, i) => ({
    turn, conversation, history: conversation.turns.slice(0, i).map((t) => ({ user: t.user, assistant: t.assistant })),
  })));
}

function rulesQuery({ turn, history }: TurnContext): string {
  const decision = decide(turn.user, history.length > 0);
  return decision.action === 'condense' ? condenseWithRules(turn.user, history, decision).question : turn.user;
}

async function llmQuery(llm: Llm, { turn, history }: TurnContext): Promise<string> {
  const decision = decide(turn.user, history.length > 0);
  if (decision.action !== 'condense') return turn.user;
  return (await condenseWithLlm(llm, turn.user, windowTurns(history), decision)).question;
}

function queryFor(strategy: Exclude<Strategy, 'hedged' | 'llm'>, c: TurnContext): string {
  const earlierUsers = c.history.map((h) => h.user);
  switch (strategy) {
    case 'raw': return c.turn.user;
    case 'concat': return [...earlierUsers, c.turn.user].join(' ');
    case 'window': return [...earlierUsers.slice(-1), c.turn.user].join(' ');
    case 'rules': return rulesQuery(c);
    case 'oracle': return c.turn.rewrite;
  }
}

function summarize(rows: { kind: TurnKind; scores: ReturnType<typeof scoreRanking> }[]): Record<KindKey, KindMetrics> {
  const of = (kind: KindKey) => average(rows.filter((r) => kind === 'all' || r.kind === kind).map((r) => r.scores));
  return { first: of('first'), standalone: of('standalone'), followup: of('followup'), all: of('all') };
}

export async function evaluate(options: EvalOptions): Promise<EvalReport> {
  const started = performance.now();
  const retrieval = options.retrieval ?? 'hybrid';
  const k = options.k ?? 10;
  if (!Number.isInteger(k) || k < 1) throw new Error(`--k must be a positive integer, got ${k}`);
  const DEPTH = Math.max(k, 10);
  const modelPath = options.model ?? resolve(import.meta.dirname, '../../.models/threadline-glove-30k') + '/';
  const wanted = options.strategies ?? ALL_STRATEGIES;
  const skipped = wanted.filter((s) => s === 'llm' && !options.llm);
  const strategies = wanted.filter((s) => !skipped.includes(s));
  const { passages, conversations } = loadEvalSet(options.data);

  const embedder = await loadTransformersEmbedder({ model: modelPath });
  const index = new MemoryIndex(embedder.dims);
  index.addChunks(passages.map((p, key) => ({ key, docId: p.id, text: p.text, context: p.text, headingPath: [], start: 0, end: p.text.length })), await embedder.embed(passages.map((p) => p.text)));
  const idOf = (key: number) => passages[key]?.id ?? '';

  const turns = contexts(conversations);
  const rank = async (queries: string[]) => {
    const vectors = retrieval === 'lexical' ? null : await embedder.embed(queries);
    return queries.map((q, i) => index.search(q, vectors ? vectors.subarray(i * embedder.dims, (i + 1) * embedder.dims) : null, { k: DEPTH, mode: retrieval })
      .map((h) => ({ key: h.chunkKey, score: h.score })));
  };
  const rankings = new Map<Strategy, { key: number; score: number }[][]>();
  const needed = new Set<Strategy>(strategies.flatMap((s) => (s === 'hedged' ? ['rules', 'raw'] as Strategy[] : [s])));
  for (const s of needed) {
    if (s === 'hedged') continue;
    const queries = s === 'llm' ? await Promise.all(turns.map((c) => llmQuery(options.llm as Llm, c))) : turns.map((c) => queryFor(s, c));
    rankings.set(s, await rank(queries));
  }
  if (strategies.includes('hedged')) {
    const rules = rankings.get('rules') ?? [];
    const raw = rankings.get('raw') ?? [];
    rankings.set('hedged', turns.map((c, i) => (rulesQuery(c) === c.turn.user ? raw[i] ?? [] : hedgedFusion(rules[i] ?? [], raw[i] ?? [], DEPTH))));
  }

  const report: EvalReport['strategies'] = {};
  for (const s of strategies) {
    const ranked = rankings.get(s) ?? [];
    report[s] = { kinds: summarize(turns.map((c, i) => ({ kind: c.turn.kind, scores: scoreRanking((ranked[i] ?? []).map((h) => idOf(h.key)), c.turn.gold) }))), gapClosure: null, regression: 0 };
  }
  const raw = report.raw;
  const oracle = report.oracle;
  const keptMrr = (r: StrategyReport) => {
    const { first, standalone } = r.kinds;
    return first.n + standalone.n ? (first.mrr * first.n + standalone.mrr * standalone.n) / (first.n + standalone.n) : 0;
  };
  for (const s of strategies) {
    const r = report[s] as StrategyReport;
    if (raw && oracle && oracle.kinds.followup.mrr !== raw.kinds.followup.mrr) {
      r.gapClosure = (r.kinds.followup.mrr - raw.kinds.followup.mrr) / (oracle.kinds.followup.mrr - raw.kinds.followup.mrr);
    }
    if (raw) r.regression = keptMrr(raw) - keptMrr(r);
  }

  const share = (kind: TurnKind, test: (c: TurnContext) => boolean) => {
    const of = turns.filter((c) => c.turn.kind === kind);
    return of.length ? of.filter(test).length / of.length : 0;
  };
  const action = (c: TurnContext) => decide(c.turn.user, c.history.length > 0).action;
  return {
    data: options.data, retrieval, k, depth: DEPTH, strategies: report, skipped, model: embedder.modelId,
    gate: {
      keptFirst: share('first', (c) => action(c) === 'keep'),
      keptStandalone: share('standalone', (c) => action(c) === 'keep'),
      condensedFollowup: share('followup', (c) => action(c) === 'condense'),
    },
    ms: performance.now() - started,
  };
}
