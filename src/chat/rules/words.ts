/**
 * Words as the gate and the phrase reader see them (tokens: tokenize.ts):
 * content words, nouns, plurals, and the everyday vocabulary that names no
 * specific topic alone. Shared by the gate and the rules that decide
 * with it (missing-argument.ts, topics.ts, bridging).
 */
import { STOPWORDS } from '../../text/stopwords';
import { COMMON_WORDS } from './common-words';
import type { Token } from './tokenize';
import { AUXILIARIES, COMMON_VERBS, WH_WORDS } from './word-lists';

/**
 * A word among the this-many most frequent English content words names no
 * specific topic by itself. Chosen on general grounds (roughly the everyday
 * vocabulary of a newspaper reader) and reported in the evaluation note.
 */
export const EVERYDAY_VOCABULARY = 3000;
const EVERYDAY = new Set(COMMON_WORDS.slice(0, EVERYDAY_VOCABULARY));

/** True for a word of everyday vocabulary (plural folded), which names no specific topic alone. */
export function isEverydayWord(word: string): boolean {
  return EVERYDAY.has(word) || EVERYDAY.has(word.replace(/s$/, ''));
}


export function isContentWord(word: string): boolean {
  return !STOPWORDS.has(word) && !AUXILIARIES.has(word) && !WH_WORDS.has(word) && !/^\d+$/.test(word);
}

/** Content words that are never nouns ("What else should I consider when …"). */
export const NOT_NOUNS = new Set(['else', 'besides', 'instead', 'otherwise', 'anyway', 'together', 'ever']);

/** A regular English plural: "flavors", "policies"; not "glass", "virus", "analysis", "physics". */
export function looksPlural(word: string): boolean {
  return /[^su']s$/.test(word) && !/(?:is|ics|ous)$/.test(word);
}

/** A content word that may be a noun: not a frequent verb, not an adverb (-ly, or one of the few content words never nouns). */
export function isNoun(word: string): boolean {
  return isContentWord(word) && !COMMON_VERBS.has(word) && !/ly$/.test(word) && !NOT_NOUNS.has(word);
}

/** Possessive pronouns: "its", "their", "his", "her". */
export const POSSESSIVE_PRONOUNS = new Set(['its', 'their', 'his', 'her']);

/** The token as typed starts with a capital (tokens themselves are lower-cased). */
export function writtenCapitalized(token: Token, text: string): boolean {
  return /^\p{Lu}/u.test(text.slice(token.index, token.index + 2));
}
