/**
 * Ablations of the default condenser (expand): one part taken out at a time, so that what each part adds can be
 * measured on every set, the held-out ones included. Only the evaluation applies them; a chat session has no
 * such switch.
 */
import { besidePrevious } from '../../src/chat/hedge';
import { EXPAND_DEFAULTS, lastQuestion, type ExpandOptions, type ResolvedQuery } from '../../src/chat/expand';
import { compactSpace } from '../../src/chat/rules/read-bounds';
import type { GateReason } from '../../src/chat/rules/gate';
import type { HistoryTurn } from '../../src/chat/rules/topics';

export interface Ablation {
  /** Turns the gate condensed for one of these reasons are searched as a kept question is (as typed, the previous question ranked beside it). */
  keep?: readonly GateReason[];
  /** `false`: no weighted history words (the resolved question and its hedge only). */
  terms?: false;
  /** `false`: no second ranking fused below (neither a resolved guess's hedge nor a kept question's). */
  hedge?: false;
  /** `false`: a condensed turn searches its words as typed, not as resolved (its weighted words and hedge stay): expansion without resolution. */
  resolve?: false;
}

/** The default condenser's query with `ablation`'s parts taken out. */
export function ablated(r: ResolvedQuery, typed: string, history: readonly HistoryTurn[], ablation: Ablation, expand: ExpandOptions = {}): ResolvedQuery {
  let out = r;
  if (out.decision.action === 'condense' && ablation.keep?.includes(out.decision.reason)) {
    const text = compactSpace(typed);
    const kept: ResolvedQuery = { decision: { action: 'keep', reason: 'self-contained', evidence: [] }, question: text, query: { text, terms: [] }, reason: 'kept as typed (ablation)', antecedents: [] };
    out = besidePrevious(kept, text, lastQuestion(history), Math.min(1, expand.previousWordWeight ?? EXPAND_DEFAULTS.previousWordWeight));
  }
  if (ablation.resolve === false && out.decision.action === 'condense') {
    const text = compactSpace(typed);
    out = { ...out, question: text, query: { ...out.query, text } };
  }
  if (ablation.terms === false) out = { ...out, query: { ...out.query, terms: [] } };
  if (ablation.hedge === false) out = { ...out, query: { text: out.query.text, terms: out.query.terms } };
  return out;
}
