/**
 * Condensation through the Llm seam: the standard rewrite prompt at
 * temperature 0 with a short output limit, then the guards. Any rejection or
 * model error falls back to the zero-model condenser (`fallback`; the English
 * rules by default), and the result says why.
 */
import { complete, type Llm } from '../llm/llm';
import { isThreadlineError } from '../errors';
import type { GateDecision } from './rules/gate';
import { guardRewrite, type GuardProblem } from './guards';
import { condenseMessages } from './prompts';
import { condenseWithRules } from './rules/rules-condenser';
import type { HistoryTurn } from './rules/topics';

export interface LlmCondensation {
  question: string;
  method: 'llm' | 'rules';
  reason: string;
  /** Why the LLM's rewrite was not used, when it was not. */
  fallback?: GuardProblem | 'llm-error';
}

export async function condenseWithLlm(
  llm: Llm, question: string, history: readonly HistoryTurn[], decision: GateDecision,
  options: { signal?: AbortSignal; summary?: string; fallback?: () => { question: string; reason: string } } = {},
): Promise<LlmCondensation> {
  const zeroModel = options.fallback ?? (() => condenseWithRules(question, history, decision));
  let raw: string;
  try {
    raw = await complete(llm, condenseMessages(question, history, options.summary), { purpose: 'condense', temperature: 0, maxTokens: 96, ...(options.signal ? { signal: options.signal } : {}) });
  } catch (error) {
    if (isThreadlineError(error, 'ABORTED') || options.signal?.aborted) throw error;
    const rules = zeroModel();
    const why = error instanceof Error ? error.message : String(error);
    return { question: rules.question, method: 'rules', fallback: 'llm-error', reason: `LLM failed (${why.slice(0, 120)}); rules: ${rules.reason}` };
  }
  const recent = history.slice(-2).flatMap((t) => [t.user, t.assistant]).join(' ');
  const guarded = guardRewrite(raw, question, recent);
  if (guarded.ok) {
    return { question: guarded.question, method: 'llm', reason: `${decision.reason}: rewritten by ${llm.id}${guarded.cleaned ? ' (output cleaned)' : ''}` };
  }
  const rules = zeroModel();
  return { question: rules.question, method: 'rules', fallback: guarded.problem, reason: `LLM rewrite rejected (${guarded.problem}); rules: ${rules.reason}` };
}
