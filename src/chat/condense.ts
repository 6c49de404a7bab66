/**
 * Steps 1 and 2 of a turn: the gate, then condensation. Without an LLM (or
 * with `condense: 'rules'`), resolve-then-expand on the index's own
 * statistics (expand.ts); with one, the LLM's rewrite behind guards, the
 * zero-model condensation standing in when it is rejected or fails.
 */
import type { Llm } from '../llm/llm';
import type { Retriever } from '../retriever';
import { raced } from '../util/abort';
import { expansionTerms, resolveAndExpand, type ExpandOptions } from './expand';
import { decide } from './rules/gate';
import { condenseWithLlm } from './llm-condenser';
import { specificityFrom, wordsToScore, type Specificity } from './specificity';
import { readableHistory } from './rules/read-bounds';
import { NO_FORMS, writtenFormsFrom, type WrittenForm } from './written-forms';
import type { HistoryTurn } from './rules/topics';
import { keptAsTyped, type CondensedEvent } from './kept-as-typed';
import type { CondenseMode } from './types';

export type { CondensedEvent } from './kept-as-typed';

export interface CondenseContext {
  retriever: Pick<Retriever, 'termStats'>;
  llm: Llm | undefined;
  mode: CondenseMode;
  /** The running summary of older turns, for the LLM. */
  summary?: string | undefined;
  /** Add the conversation's weighted history words below an accepted LLM rewrite (ChatOptions.llmExpansion). */
  llmExpansion?: boolean | undefined;
  signal?: AbortSignal | undefined;
}

export async function condenseTurn(text: string, history: readonly HistoryTurn[], window: readonly HistoryTurn[], ctx: CondenseContext): Promise<CondensedEvent> {
  if (ctx.mode === 'off') return keptAsTyped(text, decide(text, history.length > 0).reason, 'condensation is off');
  // One round trip: how specific the turn's and the history's words are in the user's own index, and, for a
  // conversation with a message typed all in lower case, how the index writes them (written-forms.ts).
  const readable = readableHistory(history);
  const forms = [text, ...readable.map((h) => h.user)].some((t) => !/\p{Lu}/u.test(t));
  const stats = history.length ? await raced(ctx.retriever.termStats(wordsToScore(text, readable), { forms, ...(ctx.signal ? { signal: ctx.signal } : {}) }), ctx.signal) : undefined;
  return condenseWithSpecificity(text, history, window, stats ? specificityFrom(stats) : () => 0, { ...ctx, forms: stats ? writtenFormsFrom(stats) : NO_FORMS });
}

/**
 * Steps 1 and 2 once the words' specificity is known: what a chat session
 * does, and what the evaluation's llm strategies run (scripts/eval/strategies.ts),
 * so both measure and ship the same code. `expand` tunes the zero-model expansion (the eval's --expand).
 */
export async function condenseWithSpecificity(
  text: string, history: readonly HistoryTurn[], window: readonly HistoryTurn[], specificity: Specificity,
  ctx: Omit<CondenseContext, 'retriever'> & { expand?: ExpandOptions; forms?: WrittenForm },
): Promise<CondensedEvent> {
  const zero = resolveAndExpand(text, history, specificity, ctx.expand, ctx.forms);
  const kept = keptAsTyped(text, zero.decision.reason, zero.reason);
  // Kept as typed; its query may rank the previous question beside it (expand.ts, besidePrevious).
  if (zero.decision.action !== 'condense') return { ...kept, query: zero.query };
  if (ctx.llm && ctx.mode !== 'rules') {
    const out = await raced(condenseWithLlm(ctx.llm, text, window, zero.decision, {
      ...(ctx.signal ? { signal: ctx.signal } : {}), ...(ctx.summary ? { summary: ctx.summary } : {}), fallback: () => zero,
    }), ctx.signal);
    const query = out.method === 'rules' ? zero.query : { text: out.question, terms: ctx.llmExpansion ? expansionTerms(out.question, history, specificity, ctx.expand) : [] };
    return { ...kept, question: out.question, query, method: out.method, reason: out.reason, ...(out.fallback ? { fallback: out.fallback } : {}) };
  }
  return { ...kept, question: zero.question, query: zero.query, method: 'rules' };
}
