/**
 * Verb-phrase anaphora: "can I do it from the command line?" after "How do I
 * convert a docx file to HTML with mammoth?" asks to do the same action; "it"
 * stands for no thing named before. "do it", "do that", "do this", "do so"
 * with "do" as a main verb (after a subject, a modal or "to") take the
 * previous question's action: what follows its subject after do-support or a
 * modal ("How do I …", "Can I …"), or its infinitive ("Is it possible to …",
 * "I want to …").
 */
import { lastQuestionClause } from './rules-condenser';

/** "do it" with "do" as a main verb: after a subject pronoun, a modal or an infinitive's "to" ("how do I do it?", "can I do that", "to do so"). */
const DO_IT = /\b(?:I|we|you|to|can|could|should|would|will|may|might|must)\s+(do\s+(?:it|that|this|so))\b(?!['’])/i;

/** The action of a question: its verb phrase after the subject ("How can I <convert …>", "Can we <run it …>") or after "to". */
const ACTIONS: readonly RegExp[] = [
  /^(?:how|why|when|where)\s+(?:do|does|did|can|could|should|would|will|may|might|must)\s+(?:I|we|you|one)\s+(.+)$/i,
  /^(?:can|could|should|would|will|may|might|must|do|did)\s+(?:I|we|you|one)\s+(.+)$/i,
  /^(?:is\s+it\s+possible|is\s+there\s+a\s+way|what(?:'s|’s|\s+is)\s+the\s+(?:best|easiest|simplest|right|recommended)\s+way|how|where)\s+to\s+(.+)$/i,
  /^I\s+(?:want|need|would\s+like|'d\s+like|’d\s+like|am\s+trying|'m\s+trying|’m\s+trying)\s+to\s+(.+)$/i,
];

/** A verb phrase that is no action to repeat: a copula or "do" itself ("Can I be …", "How do I do it"). */
const NO_ACTION = /^(?:be|do|have|get)\b(?!\s+\p{L}{3,})|^(?:do\s+(?:it|that|this|so))\b/iu;

/**
 * The question with its "do it" replaced by the previous question's action,
 * or undefined when it has none or the previous question names no action.
 */
export function repeatedAction(ask: string, previousQuestion: string): { question: string; evidence: string; action: string } | undefined {
  const found = DO_IT.exec(ask);
  if (!found?.[1]) return undefined;
  const clause = lastQuestionClause(previousQuestion).trim().replace(/[?.!\s]+$/, '');
  const action = ACTIONS.map((pattern) => pattern.exec(clause)?.[1]?.trim()).find((a) => !!a && !NO_ACTION.test(a));
  if (!action) return undefined;
  const at = found.index + found[0].length - found[1].length;
  return { question: ask.slice(0, at) + action + ask.slice(at + found[1].length), evidence: found[1], action };
}
