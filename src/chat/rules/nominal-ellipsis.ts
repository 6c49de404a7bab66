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
  const words = tokens.map((t) => t.word);
  for (let i = 0; i < tokens.length; i++) {
    const word = words[i] as string;
    const prev = words[i - 1] ?? '';
    const next = words[i + 1];
    if (substituteAt(words, i)) return `${prev} ${word}`;
    if (!QUANTIFIERS.has(word) || next === undefined || next === 'of' || isNoun(next)) continue;
    const head = prev === 'how' ? word === 'many' : prev === 'a' ? word === 'few' : !isContentWord(prev) || i === 0;
    const subject = AUXILIARIES.has(next) || (AUXILIARIES.has(tokens[0]?.word ?? '') && i === 1);
    if (head && subject) return prev === 'how' || prev === 'a' ? `${prev} ${word}` : word;
  }
  return undefined;
}

/**
 * Whether `words[i]` (lower-case) is "ones" after a modifier ("Islamic ones") or "one" after a determiner and a
 * modifier ("the static one"): a substitute for a noun said before. The gate reads it as a reference; the
 * topic reader drops the modifier before it, which names no thing of its own ("the vegan ones" gives no topic).
 */
export function substituteAt(words: readonly string[], i: number): boolean {
  const word = words[i];
  const prev = words[i - 1] ?? '';
  if ((word !== 'ones' && word !== 'one') || !isContentWord(prev) || NOT_MODIFIERS.has(prev) || IDIOMATIC_ONES.has(prev)) return false;
  return word === 'ones' || DETERMINERS.has(words[i - 2] ?? '');
}
