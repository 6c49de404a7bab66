/**
 * The rules condenser: turns a follow-up into a standalone question with no
 * model. It splices the fragment of an ellipsis into the previous question
 * (itself resolved the same way), replaces a dangling pronoun or demonstrative
 * with the conversation's most salient topic, and otherwise adds that topic as
 * context. Deterministic, and it always says what it did.
 */
import { decide, isContentWord, tokenize, type GateDecision } from './gate';
import { stemsOf, trackTopics, type HistoryTurn, type Topic } from './topics';
import { COMMON_VERBS, ELLIPSIS_OPENERS } from './word-lists';

export interface Condensation {
  question: string;
  /** What was done, for traces ("replaced “it” with “breast cancer”"). */
  reason: string;
}

const POSSESSIVES = new Set(['its', 'their', 'theirs', 'his', 'her', 'hers']);
const MAX_DEPTH = 4;

const strip = (q: string) => q.trim().replace(/[\s?.!]+$/, '');

/** The previous user question, itself resolved to a standalone form. */
export function resolvedQuestion(history: readonly HistoryTurn[], depth = 0): string | undefined {
  const last = history.at(-1);
  if (!last) return undefined;
  const earlier = history.slice(0, -1);
  const decision = decide(last.user, earlier.length > 0);
  if (decision.action !== 'condense' || depth >= MAX_DEPTH) return last.user;
  return condenseWithRules(last.user, earlier, decision, depth + 1).question;
}

export function condenseWithRules(question: string, history: readonly HistoryTurn[], decision: GateDecision, depth = 0): Condensation {
  const topics = trackTopics(history);
  const top = topics[0];
  if (!top) return { question, reason: 'no topic in the history; kept as typed' };
  switch (decision.reason) {
    case 'ellipsis': return spliceEllipsis(question, history, top, depth);
    case 'dangling-pronoun':
    case 'demonstrative': return replaceReference(question, decision.evidence[0] ?? '', topics);
    case 'which-one':
    case 'comparative': return appendTopics(question, topics.slice(0, 2));
    default: return appendTopics(question, [top]);
  }
}

function spliceEllipsis(question: string, history: readonly HistoryTurn[], top: Topic, depth: number): Condensation {
  const base = resolvedQuestion(history, depth);
  const body = strip(question);
  const opener = ELLIPSIS_OPENERS.exec(body);
  const fragment = opener ? body.slice(opener[0].length).trim().replace(/^[,:;-]\s*/, '') : '';
  if (!base) return appendTopics(question, [top]);
  if (!fragment) return { question: `${body}? (${strip(base)})`, reason: `attached the previous question “${strip(base)}”` };
  const glue = /^(?:for|in|on|at|with|without|from|during|after|before|to|of|by|about|if|when)\b/i.test(fragment) ? ' ' : ', for ';
  return { question: `${strip(base)}${glue}${fragment}?`, reason: `spliced “${fragment}” into the previous question “${strip(base)}”` };
}

function replaceReference(question: string, word: string, topics: Topic[]): Condensation {
  const tokens = tokenize(question);
  const at = tokens.findIndex((t) => t.word === word);
  const token = tokens[at];
  const top = topics[0] as Topic;
  if (!token) return appendTopics(question, [top]);
  const next = tokens[at + 1];
  // "that plan" → "the Plus plan": only a topic whose head (last word) is that noun; "that refund"
  // must not become "the refund window", where refund is a mere modifier of another head.
  const nounStem = next ? stemsOf(next.word)[0] ?? '' : '';
  const nounTopic = next ? topics.find((t) => t.stems.at(-1) === nounStem) : undefined;
  const determiner = next !== undefined && /^[\p{L}]/u.test(next.word) && isContentWord(next.word) && !COMMON_VERBS.has(next.word) && !/ly$/.test(next.word);
  if (['this', 'that', 'these', 'those'].includes(word) && determiner) {
    if (nounTopic && nounTopic.stems.length > 1) {
      return { question: splice(question, token.index, next.index + next.word.length, `the ${nounTopic.phrase}`), reason: `read “${word} ${next.word}” as “${nounTopic.phrase}”` };
    }
    const rewritten = splice(question, token.index, token.index + word.length, 'the');
    return nounTopic ? { question: rewritten, reason: `“${word} ${next.word}” names its topic; determiner made definite` }
      : { question: `${strip(rewritten)} (${top.phrase})?`, reason: `“${word} ${next.word}” read in the context of “${top.phrase}”` };
  }
  const replacement = POSSESSIVES.has(word) ? `${top.phrase}'s` : top.phrase;
  return { question: splice(question, token.index, token.index + word.length, replacement), reason: `replaced “${word}” with “${top.phrase}”` };
}

function appendTopics(question: string, topics: Topic[]): Condensation {
  const phrases = topics.map((t) => t.phrase);
  return { question: `${strip(question)} (${phrases.join(', ')})?`, reason: `added the topic${phrases.length > 1 ? 's' : ''} “${phrases.join('”, “')}”` };
}

function splice(text: string, from: number, to: number, insert: string): string {
  return text.slice(0, from) + insert + text.slice(to);
}
