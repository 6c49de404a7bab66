/**
 * A noun left to the conversation: substitution by "one"/"ones" and ellipsis
 * after a quantifier (Halliday & Hasan 1976, *Cohesion in English*, ch. 3–4).
 * "How are devices used in Islamic ones?" (Islamic poetry), "is the static one
 * slower?", "Can any go over 300 mph?" (any supercar), "How many do I need to
 * eat?" (how many eggs): the head noun is said by an earlier turn, as a
 * pronoun's antecedent is, whatever else the question names. Gate reason
 * `substitution` ("which one" and "the other" are the gate's `which-one`).
 */
import { AUXILIARIES, DETERMINERS } from './word-lists';
import type { Token } from './tokenize';
import { isContentWord, isNoun } from './words';

/** "ones" that names people, not a noun said before: "loved ones", "the little ones". */
const IDIOMATIC_ONES: ReadonlySet<string> = new Set(['loved', 'little', 'young', 'dear']);
/** Words before "one" that make it a pronoun of its own ("no one", "every one", "the one and only") or a numeral ("at one", "than one"). */
const NOT_MODIFIERS: ReadonlySet<string> = new Set([...DETERMINERS, 'which', 'what', 'than', 'at', 'only', 'just', 'more', 'other', 'same', 'first', 'second', 'last', 'next', 'previous']);
/** Quantifiers that can head a noun phrase whose noun is left out: "Can any go …?", "several are idle". */
const QUANTIFIERS: ReadonlySet<string> = new Set(['any', 'many', 'few', 'several', 'most']);

/**
 * The substitute or elliptical quantifier that leaves a noun to the conversation, as written lower-case, or
 * undefined when the question has none.
 * - "ones" after a modifier ("Islamic ones", "air-source ones"); not "loved ones", nor "which ones" and
 *   "the other ones", which the gate's which-one pattern reads.
 * - "one" after a determiner and a modifier ("the static one", "a smart one", "a standing one"); not "a one
 *   week diet" or "with one tap" (a numeral: no modifier before it) nor "no one", "the one".
 * - a quantifier standing as a subject ("Can any go over 300 mph?", "a few have been reported", "when several
 *   are idle") or after "how" ("How many do I need?"): with an auxiliary after it, or a verb after it when an
 *   auxiliary opens the question. Not before a noun ("any cars") or "of" ("many of them": the partitive names it).
 */
export function nominalEllipsis(tokens: readonly Token[]): string | undefined {
  for (let i = 0; i < tokens.length; i++) {
    const word = (tokens[i] as Token).word;
    const prev = tokens[i - 1]?.word ?? '';
    const next = tokens[i + 1]?.word;
    if (word === 'ones' && isContentWord(prev) && !NOT_MODIFIERS.has(prev) && !IDIOMATIC_ONES.has(prev)) return `${prev} ones`;
    if (word === 'one' && isContentWord(prev) && !NOT_MODIFIERS.has(prev) && !IDIOMATIC_ONES.has(prev) && DETERMINERS.has(tokens[i - 2]?.word ?? '')) return `${prev} one`;
    if (!QUANTIFIERS.has(word) || next === undefined || next === 'of' || isNoun(next)) continue;
    const head = prev === 'how' ? word === 'many' : prev === 'a' ? word === 'few' : !isContentWord(prev) || i === 0;
    const subject = AUXILIARIES.has(next) || (AUXILIARIES.has(tokens[0]?.word ?? '') && i === 1);
    if (head && subject) return prev === 'how' || prev === 'a' ? `${prev} ${word}` : word;
  }
  return undefined;
}
