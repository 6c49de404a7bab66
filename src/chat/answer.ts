/**
 * Step 4 of a turn: abstain when nothing relevant was found; otherwise the
 * LLM's grounded answer, streamed, its citations checked; without an LLM (or
 * when it fails before its first token) the extractive answer, labelled.
 * Every await races the turn's signal: a model that ignores abort cannot
 * hold a turn.
 */
import { isThreadlineError, throwIfAborted, toThreadlineError } from '../errors';
import type { ChatMessage, Llm } from '../llm/llm';
import type { SearchHit } from '../retrieval/memory-index';
import { racedIterable } from '../util/abort';
import { checkCitations } from './citations';
import { extractiveAnswer } from './extractive';
import type { TurnEvent } from './types';

export type DoneEvent = Extract<TurnEvent, { type: 'done' }>;

/** Tokens an answer may generate. */
const ANSWER_MAX_TOKENS = 768;
export const ABSTAIN_TEXT = 'I could not find this in the documents.';

export interface AnswerContext {
  llm: Llm | undefined;
  /** The question as the user typed it (the extractive snippet weighs its words above the condensed question's). */
  typed: string;
  /** When the retrieved passages count as evidence (shouldAbstain). */
  abstain: AbstainRule;
  /** The LLM prompt for these passages (PromptLayout.build). */
  prompt: (hits: readonly SearchHit[]) => ChatMessage[];
  /** Called with the prompt and the full reply once an LLM answer completes. */
  completed: (prompt: ChatMessage[], answer: string) => void;
  started: number;
  signal?: AbortSignal | undefined;
}

const zeroTimings = () => ({ condenseMs: 0, retrieveMs: 0, firstTokenMs: 0, totalMs: 0 });

export interface AbstainRule {
  /** Without any lexical match, the best cosine must reach this. */
  minDense: number;
  /** With terms to match, some passage must hold this share of the query's information (SearchHit.coverage). */
  minCoverage: number;
}

/**
 * No evidence: nothing retrieved; or no passage shares a word with the query
 * and the best cosine is low; or no passage holds `minCoverage` of the
 * query's information (a question about a forgotten document keeps its
 * telling word, which no passage has).
 */
export function shouldAbstain(hits: readonly SearchHit[], rule: AbstainRule): boolean {
  const best = hits[0];
  if (!best) return true;
  if (hits.every((h) => h.lexical === undefined) && (best.dense ?? 0) < rule.minDense) return true;
  const coverage = hits.map((h) => h.coverage).filter((c) => c !== undefined);
  return coverage.length > 0 && Math.max(...coverage) < rule.minCoverage;
}

export async function* answerTurn(condensed: string, hits: SearchHit[], ctx: AnswerContext): AsyncGenerator<TurnEvent, DoneEvent> {
  if (shouldAbstain(hits, ctx.abstain)) {
    yield { type: 'token', text: ABSTAIN_TEXT };
    return { type: 'done', answer: ABSTAIN_TEXT, mode: 'abstained', citations: [], invalidCitations: [], timings: { ...zeroTimings(), firstTokenMs: performance.now() - ctx.started } };
  }
  if (!ctx.llm) {
    const done = extractive(ctx.typed, condensed, hits, ctx.started);
    yield { type: 'token', text: done.answer };
    return done;
  }
  const prompt = ctx.prompt(hits);
  const timings = zeroTimings();
  let answer = '';
  try {
    for await (const piece of racedIterable(ctx.llm.stream(prompt, { purpose: 'answer', maxTokens: ANSWER_MAX_TOKENS, ...(ctx.signal ? { signal: ctx.signal } : {}) }), ctx.signal)) {
      throwIfAborted(ctx.signal);
      if (!answer) timings.firstTokenMs = performance.now() - ctx.started;
      answer += piece;
      yield { type: 'token', text: piece };
    }
    throwIfAborted(ctx.signal);
  } catch (error) {
    if (isThreadlineError(error, 'ABORTED') || ctx.signal?.aborted) throw toThreadlineError(error, 'ABORTED');
    if (answer) throw toThreadlineError(error, 'LLM_FAILED', 'The language model failed mid-answer');
    return { ...extractive(ctx.typed, condensed, hits, ctx.started), fallback: 'llm-error' };
  }
  ctx.completed(prompt, answer);
  const checked = checkCitations(answer, hits);
  return { type: 'done', answer: checked.answer, mode: 'generated', citations: checked.citations, invalidCitations: checked.invalid, timings };
}

function extractive(typed: string, condensed: string, hits: SearchHit[], started: number): DoneEvent {
  const { text, passages } = extractiveAnswer(typed, condensed, hits);
  const { citations } = checkCitations(passages.map((p) => `[${p.n}]`).join(' '), hits);
  return { type: 'done', answer: text, mode: 'extractive', citations, invalidCitations: [], extractive: passages, timings: { ...zeroTimings(), firstTokenMs: performance.now() - started } };
}
