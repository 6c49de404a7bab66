/**
 * The evaluation core, shared by the Node CLI (evaluate.ts) and the
 * playground's Evaluate panel. Follow-up retrieval, measured per turn kind and strategy against strategy,
 * through the library's own code: the same gate, condensers, expansion,
 * hedged fusion and index as in the browser, the offline embedding model,
 * passages indexed as given (no re-chunking). A set without a corpus is
 * measured on what needs no retrieval: the gate and term resolution.
 * Deterministic: two runs give identical numbers.
 */
import type { ExpandOptions } from '../../src/chat/expand';
import type { Specificity } from '../../src/chat/specificity';
import type { WrittenForm } from '../../src/chat/written-forms';
import type { Typing } from './typing';
import type { Answers } from './answers';
import type { Ablation } from './ablation';
import type { Llm } from '../../src/llm/llm';
import type { SearchMode } from '../../src/retrieval/memory-index';
import type { Conversation, Passage, TurnKind } from './parse';
import { average, closureInterval, reciprocalRank, scoreRanking, type KindMetrics } from './metrics';
import { ALL_STRATEGIES, LLM_STRATEGIES, contexts, strategyQuery, type Strategy, type StrategyQuery, type TurnContext } from './strategies';
import { termCounts, termScore, type TermScore } from './terms';
import { pickSnippet, type SnippetPassage } from '../../src/chat/snippet';
import { READING_WEIGHT } from '../../src/chat/session';
import { PARTS, PART_STRATEGIES, partsReport, type Part, type PartStrategy, type PartsReport } from './parts';

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
  /**
   * `gold`: an assistant turn the set leaves empty says its first gold passage (an answer that
   * quotes the right passage, as the element's extractive answer does when retrieval succeeds),
   * so rules that read the last answer are measured; `passages`: every assistant turn with a gold
   * passage says it, written answers too (answers.ts). @default 'as-given'
   */
  answers?: Answers;
  /**
   * A changed follow-up also searches near the document of the previous turn's first passage, as a chat
   * session searches near its previous answer's main source (READING_WEIGHT). `false`: every turn alone. @default true
   */
  reading?: boolean;
  /** Parts of the expand strategy taken out (ablation.ts; `npm run eval:ablation`). @default none */
  ablate?: Ablation;
  /** `phone`: user turns in lower case, without apostrophes or a closing question mark (typing.ts). @default 'as-given' */
  typing?: Typing;
  /**
   * With hybrid retrieval and a corpus, also rank `raw` and `expand` with each part of the fusion alone and
   * compare (parts.ts; EvalReport.parts). `false` skips those rankings (ablation runs). @default true
   */
  parts?: boolean;
}

export interface StrategyReport {
  /** Ranking metrics per turn kind; absent for a set without a corpus. */
  kinds?: Record<KindKey, KindMetrics>;
  gapClosure: number | null;
  /** 95% bootstrap interval of gapClosure over follow-up turns (metrics.ts closureInterval). */
  gapClosureCI?: [number, number] | null;
  regression: number;
  /** Term resolution of the resolved question against the human rewrite, non-first turns. */
  terms: TermScore;
  /** Share of turns of each kind the strategy changed (condensed or expanded). */
  changed: Record<TurnKind, number>;
  /**
   * The extractive answer's snippet (src/chat/snippet.ts, from the top 3 passages), follow-up turns:
   * how often its sentence comes from a gold passage, against how often the first passage is gold
   * (what the answer quoted first before there was a snippet).
   */
  snippet?: { fromGold: number; firstPassageGold: number; none: number };
}

/** One turn, for reading failures one by one (`--turns FILE`). */
export interface TurnRow {
  id: string;
  kind: TurnKind;
  user: string;
  rewrite: string;
  /** The expand strategy's gate, its reason (gate.ts GateReason), question and added words. */
  gate: string;
  reason?: string;
  question: string;
  terms: { term: string; weight: number }[];
  /** 1-based rank of the first gold passage (0: not in the ranking), per strategy. */
  rank: Partial<Record<Strategy, number>>;
  /** The same rank with each part of hybrid search alone (EvalReport.parts), where those were ranked. */
  partRank?: Partial<Record<PartStrategy, Record<Part, number>>>;
}

export interface EvalReport {
  data: string;
  retrieval: SearchMode;
  k: number;
  /** Ranking depth: MRR is MRR@depth; depth = max(k, 10) so that R@10 and nDCG@10 are defined. */
  depth: number;
  /** Whether the set has a corpus (ranking metrics) or conversations only. */
  corpus: boolean;
  /** What the history's assistant turns said: the set's own text, gold passages where it had none, or gold passages throughout (EvalOptions.answers). */
  answers: Answers;
  /** How the user turns were typed (EvalOptions.typing). */
  typing: Typing;
  /** Whether changed follow-ups searched near the previous turn's document (EvalOptions.reading). */
  reading: boolean;
  /** Where specificity came from: the corpus's own BM25 statistics, or the vocabulary prior. */
  specificity: 'corpus' | 'vocabulary-prior';
  strategies: Partial<Record<Strategy, StrategyReport>>;
  /** The default condenser's gate (expand), against the turn kinds; absent when expand was not run. */
  gate?: { keptFirst: number; keptStandalone: number; condensedFollowup: number; changedStandalone: number };
  /** The English-only gate (rules), for comparison; absent when rules was not run. */
  gateRules?: { keptFirst: number; keptStandalone: number; condensedFollowup: number };
  skipped: Strategy[];
  model: string;
  /**
   * Hybrid search against each of its parts alone (lexical, dense), on the same queries of `raw` and
   * `expand`: hybrid's MRR less the part's, with a paired 95% interval and the turns it ranks higher and
   * lower (parts.ts). Present with hybrid retrieval and a corpus.
   */
  parts?: Partial<Record<PartStrategy, PartsReport>>;
  turns: TurnRow[];
  /**
   * The answer step's abstention rule (src/chat/answer.ts) on follow-ups with the expand query, top `k`
   * passages: how often it fires with the gold passages in the index, with the turn's gold passages
   * removed, and with the conversation's whole topic removed (a forgotten document); and how well the
   * best cosine, BM25 score or query coverage alone tells present from removed (AUC, 0.5 = not at all).
   */
  abstention?: {
    k: number; minDense: number; minCoverage: number; turns: number;
    withGold: number; goldRemoved: number; topicRemoved: number;
    aucGold: { dense: number; lexical: number; coverage: number };
    aucTopic: { dense: number; lexical: number; coverage: number };
  };
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

/** What a run needs besides the set: how to rank a query, and how specific words are. */
export interface EvalEngine {
  /** The passage ids for each query, best first, `depth` of them at most; `mode` (one part of hybrid search) overrides the run's retrieval. */
  rank(queries: readonly StrategyQuery[], depth: number, mode?: SearchMode): Promise<string[][]>;
  specificity: Specificity;
  /** How the corpus writes words that are names (TermStats' form), for messages typed in lower case. */
  forms?: WrittenForm;
  model: string;
}

/**
 * The evaluation itself, independent of where it runs: the Node CLI ranks
 * with an in-process index (evaluate below), the playground's Evaluate panel
 * with the page's own threadline instance.
 */
export async function runEval(set: { passages: readonly Passage[] | null; conversations: Conversation[] }, engine: EvalEngine | null, options: Omit<EvalOptions, 'data' | 'model'> & { data: string }): Promise<EvalReport> {
  const started = performance.now();
  const retrieval = options.retrieval ?? 'hybrid';
  const k = options.k ?? 10;
  if (!Number.isInteger(k) || k < 1) throw new Error(`--k must be a positive integer, got ${k}`);
  const depth = Math.max(k, 10);
  const wanted = options.strategies ?? ALL_STRATEGIES;
  const skipped = wanted.filter((s) => LLM_STRATEGIES.includes(s) && !options.llm);
  const strategies = wanted.filter((s) => !skipped.includes(s));
  const { passages, conversations } = set;
  const turns = contexts(conversations);
  const specificity = engine?.specificity ?? (() => 0);

  const queries = new Map<Strategy, StrategyQuery[]>();
  for (const s of strategies) queries.set(s, await Promise.all(turns.map((c) => strategyQuery(s, c, specificity, options.llm, options.expand, engine?.forms, options.ablate))));

  const ranks = new Map<Strategy, number[]>();
  const report: EvalReport['strategies'] = {};
  for (const s of strategies) {
    const qs = queries.get(s) ?? [];
    const nonFirst = turns.map((c, i) => [c, i] as const).filter(([c]) => c.turn.kind !== 'first');
    const terms = termScore(nonFirst.map(([c, i]) => termCounts(qs[i]?.question ?? qs[i]?.query.text ?? c.turn.user, c.turn.rewrite, c.turn.user)));
    const changed = { first: share(turns, 'first', (_, i) => !!qs[i]?.changed), standalone: share(turns, 'standalone', (_, i) => !!qs[i]?.changed), followup: share(turns, 'followup', (_, i) => !!qs[i]?.changed) };
    const entry: StrategyReport = { gapClosure: null, regression: 0, terms, changed };
    report[s] = entry;
    if (!engine || !passages) continue;
    const rankings = options.reading === false ? await engine.rank(qs, depth) : await rankAsRead(engine, qs, turns, passages, depth);
    ranks.set(s, goldRanks(rankings, turns));
    entry.kinds = summarize(turns.map((c, i) => ({ kind: c.turn.kind, scores: scoreRanking(rankings[i] ?? [], c.turn.gold) })));
    entry.snippet = snippetScore(turns, qs, rankings, new Map(passages.map((p) => [p.id, p.text])));
  }
  gapAndRegression(report, strategies);
  closureIntervals(report, strategies, turns, ranks);

  // Each part of hybrid search alone, on the same queries: does the fusion lose to one of them?
  const partRanks = new Map<PartStrategy, Record<Part, number[]>>();
  if (engine && passages && retrieval === 'hybrid' && options.parts !== false) {
    for (const s of PART_STRATEGIES) {
      const qs = queries.get(s);
      if (!qs) continue;
      const byPart = {} as Record<Part, number[]>;
      for (const part of PARTS) {
        const rankings = options.reading === false ? await engine.rank(qs, depth, part) : await rankAsRead(engine, qs, turns, passages, depth, part);
        byPart[part] = goldRanks(rankings, turns);
      }
      partRanks.set(s, byPart);
    }
  }
  const parts = partRanks.size ? Object.fromEntries([...partRanks].map(([s, byPart]) => [s, partsReport(turns, ranks.get(s) ?? [], byPart)])) : undefined;

  const rulesGate = queries.get('rules');
  const expand = queries.get('expand');
  return {
    data: options.data, answers: options.answers ?? 'as-given', typing: options.typing ?? 'as-given', reading: options.reading !== false, retrieval, k, depth, corpus: !!passages && !!engine, specificity: passages ? 'corpus' : 'vocabulary-prior', strategies: report, skipped, model: engine?.model ?? '', ...(parts ? { parts } : {}),
    // A strategy that was not run has no gate to report (an absent one read as "keeps every turn").
    ...(expand ? { gate: {
      keptFirst: share(turns, 'first', (_, i) => !expand[i]?.changed),
      keptStandalone: share(turns, 'standalone', (_, i) => !expand[i]?.changed),
      condensedFollowup: share(turns, 'followup', (_, i) => !!expand[i]?.changed),
      changedStandalone: share(turns, 'standalone', (_, i) => !!expand[i]?.changed),
    } } : {}),
    ...(rulesGate ? { gateRules: {
      keptFirst: share(turns, 'first', (_, i) => !rulesGate[i]?.changed),
      keptStandalone: share(turns, 'standalone', (_, i) => !rulesGate[i]?.changed),
      condensedFollowup: share(turns, 'followup', (_, i) => !!rulesGate[i]?.changed),
    } } : {}),
    turns: turns.map((c, i) => ({
      id: c.turn.id, kind: c.turn.kind, user: c.turn.user, rewrite: c.turn.rewrite,
      gate: expand?.[i]?.changed ? 'condensed' : 'kept', ...(expand?.[i]?.reason ? { reason: expand[i]?.reason } : {}), question: expand?.[i]?.question ?? expand?.[i]?.query.text ?? c.turn.user, terms: [...(expand?.[i]?.query.terms ?? [])],
      rank: Object.fromEntries([...ranks].map(([s, r]) => [s, r[i] ?? 0])),
      ...(partRanks.size ? { partRank: Object.fromEntries([...partRanks].map(([s, byPart]) => [s, { lexical: byPart.lexical[i] ?? 0, dense: byPart.dense[i] ?? 0 }])) } : {}),
    })),
    ms: performance.now() - started,
  };
}

/**
 * Ranks the turns as a chat session meets them: a turn the strategy changed (condensed, expanded, rewritten)
 * also searches near the document (passages of one `source`) of the previous turn's first passage under the
 * same strategy, that passage excepted, at READING_WEIGHT, as session.ts does with its previous answer's main
 * source and quoted chunk. A turn needs the previous turn's ranking, so turns are ranked position by position
 * across conversations.
 */
async function rankAsRead(engine: EvalEngine, qs: readonly StrategyQuery[], turns: readonly TurnContext[], passages: readonly Passage[], depth: number, mode?: SearchMode): Promise<string[][]> {
  const documentOf = new Map(passages.map((p) => [p.id, p.source ?? p.id]));
  const members = new Map<string, string[]>();
  for (const [id, doc] of documentOf) members.set(doc, [...(members.get(doc) ?? []), id]);
  const position = turns.map((c) => c.conversation.turns.indexOf(c.turn));
  const rankings: string[][] = turns.map(() => []);
  for (let at = 0; position.some((p) => p >= at); at++) {
    const batch = turns.map((_, i) => i).filter((i) => position[i] === at);
    const queries = batch.map((i) => {
      const q = qs[i] as StrategyQuery;
      const shown = at > 0 && q.changed ? rankings[i - 1]?.[0] : undefined;
      // The shown passage's document but for that passage (each passage is its own document in the index).
      const docIds = shown !== undefined ? members.get(documentOf.get(shown) ?? '')?.filter((id) => id !== shown) : undefined;
      return docIds?.length ? { ...q, query: { ...q.query, context: { docIds, weight: READING_WEIGHT } } } : q;
    });
    const ranked = await engine.rank(queries, depth, mode);
    batch.forEach((i, j) => { rankings[i] = ranked[j] ?? []; });
  }
  return rankings;
}

/**
 * A passage as a chat session hands it to pickSnippet: our sets write a section's heading path before its text
 * ("Refund policy › Refund window. You can return …"), which the library keeps apart (the chunk's text, and its
 * title and heading path as the heading), so that the path is never quoted as an answer's sentence.
 */
export function asChunk(passage: string): SnippetPassage {
  const heading = /^([^\n]*? › [^\n]*?)\. (?=\S)/.exec(passage)?.[1];
  return heading === undefined ? { text: passage } : { text: passage.slice(heading.length + 2), heading: heading.replaceAll(' › ', ' ') };
}

function snippetScore(turns: TurnContext[], qs: readonly StrategyQuery[], rankings: string[][], text: Map<string, string>): StrategyReport['snippet'] {
  let fromGold = 0;
  let first = 0;
  let none = 0;
  let n = 0;
  turns.forEach((c, i) => {
    if (c.turn.kind !== 'followup') return;
    n++;
    const top = (rankings[i] ?? []).slice(0, 3);
    const q = qs[i];
    const snippet = pickSnippet(c.turn.user, q?.question ?? q?.query.text ?? c.turn.user, top.map((id) => asChunk(text.get(id) ?? '')));
    if (!snippet) none++;
    else if (c.turn.gold.includes(top[snippet.passage] ?? '')) fromGold++;
    if (c.turn.gold.includes(top[0] ?? '')) first++;
  });
  return n ? { fromGold: fromGold / n, firstPassageGold: first / n, none: none / n } : undefined;
}

/** The 1-based rank of each turn's first gold passage in its ranking (0: not in it). */
function goldRanks(rankings: readonly string[][], turns: readonly TurnContext[]): number[] {
  return rankings.map((ids, i) => 1 + ids.findIndex((id) => turns[i]?.turn.gold.includes(id)));
}

/** Each strategy's closure interval, from the follow-ups' reciprocal ranks (raw, strategy, oracle on the same turns). */
function closureIntervals(report: EvalReport['strategies'], strategies: readonly Strategy[], turns: readonly TurnContext[], ranks: ReadonlyMap<Strategy, number[]>): void {
  const followups = turns.map((c, i) => [c, i] as const).filter(([c]) => c.turn.kind === 'followup').map(([, i]) => i);
  const rr = (s: Strategy) => { const r = ranks.get(s); return r ? followups.map((i) => reciprocalRank(r[i] ?? 0)) : null; };
  const raw = rr('raw');
  const oracle = rr('oracle');
  if (!raw || !oracle) return;
  for (const s of strategies) {
    const own = rr(s);
    const entry = report[s];
    if (own && entry?.gapClosure !== null && entry?.gapClosure !== undefined) entry.gapClosureCI = closureInterval(raw, own, oracle);
  }
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
