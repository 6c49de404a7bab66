/**
 * Guards on an LLM rewrite before it is used for retrieval. A model asked for
 * "only the question" still says "Sure! The standalone question is: …",
 * writes several lines, answers instead of rewriting, or wanders off; each of
 * these is caught here and the caller falls back to the rules condenser.
 */
import { lexicalTerms } from '../text/tokens';

/** Longer rewrites are rejected: they cannot be a question, and would overrun the embedder. */
export const MAX_REWRITE_CHARS = 400;

export type GuardProblem = 'empty' | 'overlong' | 'drift' | 'answer-leak';

export type GuardResult = { ok: true; question: string; cleaned: boolean } | { ok: false; problem: GuardProblem; raw: string };

const PREAMBLE = /^(?:(?:sure|okay|ok|certainly|of course|here you go)[!,.:]?\s*)?(?:(?:here(?:'s| is) )?(?:the |a |your )?(?:standalone|rewritten|reformulated|rephrased|clarified|self-contained)?\s*(?:question|query|rewrite)(?: would be| is)?\s*[:\-–—]\s*)/i;
const QUOTES = /^["'“”‘’«»`]+|["'“”‘’«»`]+$/g;

export function cleanRewrite(raw: string): string {
  const line = raw.split(/\r?\n/).map((l) => l.trim()).find((l) => l.length > 0) ?? '';
  let text = line.replace(/^(?:[-*•]\s+|\d+[.)]\s+)/, '');
  for (let i = 0; i < 3; i++) {
    const before = text;
    text = text.replace(PREAMBLE, '').replace(QUOTES, '').replace(/^\*\*|\*\*$/g, '').trim();
    if (text === before) break;
  }
  return text;
}

/**
 * A rewrite's sentences: a new one only where a capital or a digit follows, stricter on purpose than the
 * condenser's sentencesOf (rules/sentences.ts), so a one-question rewrite with "e.g. broken ones" or "vs. the
 * Pro plan" in it is not taken for an answer of two sentences.
 */
function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}])/u).filter((s) => s.trim().length > 0);
}

/**
 * Checks a rewrite of `question` given the recent conversation text.
 * Drift: the rewrite shares no content word with the question or the history.
 * Answer leak: the rewrite reads as statements, not one question.
 */
export function guardRewrite(raw: string, question: string, recentHistory: string): GuardResult {
  const rewrite = cleanRewrite(raw);
  if (!rewrite) return { ok: false, problem: 'empty', raw };
  if (rewrite.length > MAX_REWRITE_CHARS) return { ok: false, problem: 'overlong', raw };
  const asked = /[?？]\s*$/.test(question.trim());
  if (sentences(rewrite).length > 1 || (asked && !/[?？]\s*$/.test(rewrite))) return { ok: false, problem: 'answer-leak', raw };
  const known = new Set([...lexicalTerms(question), ...lexicalTerms(recentHistory)]);
  const terms = lexicalTerms(rewrite);
  if (terms.length > 0 && known.size > 0 && !terms.some((t) => known.has(t))) return { ok: false, problem: 'drift', raw };
  return { ok: true, question: rewrite, cleaned: rewrite !== raw.trim() };
}
