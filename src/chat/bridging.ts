/**
 * Bridging definites: "What makes the batteries unique?" after questions about
 * a car. A definite noun phrase presents its referent as known; when nothing in
 * the question says which one it is (no "of …" after it, no name, no word
 * specific in this corpus) and it is not unique by itself ("the environment",
 * "the best time"), the listener finds it through what the conversation is
 * about (Clark 1975, "Bridging"; Poesio and Vieira 1998 count such uses among
 * the common kinds of definite descriptions in running text). Whatever else the
 * question names ("What is the relationship of Spider-Man to the team?"), the
 * phrase still needs the conversation.
 */
import { escapeRegExp } from '../util/escape-regexp';
import { candidatePhrases, stemsOf } from './rules/topics';
import { isEverydayWord, isNoun } from './rules/words';
import { SPECIFIC, type Specificity } from './specificity';

/** Words after a noun phrase that anchor it in the question itself: "the cost of …", "the museum that …", "the pros and cons". */
const ANCHORS: ReadonlySet<string> = new Set(['of', 'in', 'for', 'from', 'about', 'on', 'to', 'with', 'that', 'which', 'who', 'whose', 'at', 'between', 'among', 'by', 'during', 'after', 'before', 'around', 'near', 'as', 'than', 'and', 'or', 'like', 'across', 'within', 'without', 'under', 'over', 'behind', 'against', 'per']);

/**
 * Nouns whose definite form names the one thing a speaker's world has (situational uniqueness: "better for the
 * environment", "on the internet"), and times of the speaker's own day ("the morning").
 */
const UNIQUE_NOUNS: ReadonlySet<string> = new Set(['world', 'environment', 'earth', 'sun', 'moon', 'sky', 'sea', 'ocean', 'planet', 'universe', 'internet', 'web', 'economy', 'government', 'public', 'weather', 'climate', 'past', 'future', 'present', 'military', 'police', 'media', 'news', 'market', 'wild', 'morning', 'afternoon', 'evening', 'night', 'day', 'time', 'moment', 'weekend']);

/**
 * First words that make a definite phrase unique by its own description: superlatives, ordinals, "same", "whole",
 * and adjectives of renown or rank, which pick out a subset of a kind as a superlative does ("the influential pop
 * bands", "the famous paintings": those that are influential, whoever's they are).
 */
const SELF_IDENTIFYING = /^(?:most|least|best|worst|first|second|third|last|next|previous|same|whole|entire|only|main|following|above|other|famous|influential|popular|important|major|key|notable|leading|prominent|top|well-known|best-known|\S{3,}est)$/;

/**
 * Prepositional idioms whose definite noun names no thing ("out of the box": as shipped; "under the hood": inside;
 * "on the fly": while running): nothing for the conversation to supply.
 */
const IDIOMS = /\b(?:out of the box|under the hood|on the fly|behind the scenes|off the shelf|in the (?:long|short) run|in the meantime|on the whole|at the end of the day|in the wild)\b/gi;

/** Cardinal numbers as words, which the phrase reader leaves out of a phrase. */
const CARDINALS = '(?:two|three|four|five|six|seven|eight|nine|ten|twelve)';

/** The bridging definite phrase of the question `typed` (its words as the phrase reader found them), or undefined. */
export function bridgingDefinite(typed: string, specificity: Specificity): string | undefined {
  const ask = typed.replace(IDIOMS, '');
  for (const phrase of candidatePhrases(ask)) {
    // A name ("the Spy Museum", "the A380") says which one it is (one of everyday words still needs a setting: descriptiveName).
    if (/[\p{Lu}\p{N}]/u.test(phrase)) continue;
    // A number between ("the three periods", "the two types") presupposes a set the conversation introduced, as "the" does.
    const found = new RegExp(`\\bthe\\s+(?:${CARDINALS}\\s+)?${escapeRegExp(phrase)}\\b([^\\p{L}]*)(\\p{L}+)?`, 'iu').exec(ask);
    if (!found) continue;
    const words = phrase.toLowerCase().split(/\s+/);
    if (SELF_IDENTIFYING.test(words[0] ?? '')) continue;
    const head = words.at(-1) ?? '';
    if (UNIQUE_NOUNS.has(head) || UNIQUE_NOUNS.has(head.replace(/s$/, ''))) continue;
    const next = found[2]?.toLowerCase();
    if (!/[,;:.!?]/.test(found[1] ?? '') && next !== undefined && ANCHORS.has(next)) continue;
    // A word specific in this corpus says which one ("the electors", "the phenylalanine").
    if (words.some((w) => specificity(w) >= SPECIFIC)) continue;
    // Named earlier in the same question ("a cat … the cat"): its antecedent is there.
    const before = ask.slice(0, found.index).toLowerCase();
    if (stemsOf(head).some((stem) => before.includes(stem))) continue;
    return phrase;
  }
  return undefined;
}

/**
 * "Describe the 321 method.", "Does the Museum of Art have any special collections?", "Do we pay the First Lady?":
 * a name made of everyday words and numbers describes its bearer (a museum of art, a method in three steps) and
 * names one thing only within a setting: many cities have a Museum of Art, many countries a First Lady. The
 * conversation's topic is that setting. A name with a word of its own ("the Milgram experiment", "the Firebase
 * DB") needs none, nor does a long one, which spells its setting out ("the National Air and Space Museum", "the
 * Black Lives Matter movement"; a noun after the name counts as one of its words). One capitalized word alone
 * ("the College", "the Dead") is a definite noun or a short name, which the other rules read.
 */
export function descriptiveName(ask: string): string | undefined {
  for (const m of ask.matchAll(NAME_AFTER_THE)) {
    const name = (m[1] ?? '').replace(/[.]+$/, '');
    const words = name.split(/\s+/).filter((w) => !NAME_JOINERS.has(w.toLowerCase()));
    const head = m[2] !== undefined && isNoun(m[2].toLowerCase()) ? m[2] : undefined;
    if (words.length + (head ? 1 : 0) > MAX_DESCRIPTIVE_WORDS) continue;
    // A number is a description too ("the 321 method", "Model 3"); a code mixing letters and digits ("the A380") is a word of its own.
    const letters = words.filter((w) => !NUMBER.test(w));
    if (letters.length === words.length && words.length < 2) continue;
    if (letters.every((w) => isEverydayWord(w.toLowerCase()))) return head ? `${name} ${head}` : name;
  }
  return undefined;
}

/** "the" and a run of capitalized or numeric words, joined by "of"/"and"; then the word after it, if any. */
const NAME_AFTER_THE = /\bthe\s+((?:[\p{Lu}\p{N}][\p{L}\p{N}/.-]*)(?:\s+(?:(?:of|and|&)\s+)?[\p{Lu}\p{N}][\p{L}\p{N}/.-]*)*)(?:\s+(\p{Ll}[\p{L}-]*))?/gu;
const NAME_JOINERS: ReadonlySet<string> = new Set(['of', 'and', '&']);
const NUMBER = /^\p{N}+(?:[/.,:-]\p{N}+)*$/u;
/** A descriptive name longer than this spells out its own setting. */
const MAX_DESCRIPTIVE_WORDS = 3;
