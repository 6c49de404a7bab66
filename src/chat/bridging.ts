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

/** The bridging definite phrase of `ask` (its words as the phrase reader found them), or undefined. */
export function bridgingDefinite(ask: string, specificity: Specificity): string | undefined {
  for (const phrase of candidatePhrases(ask)) {
    // A name ("the Spy Museum", "the A380") says which one it is.
    if (/[\p{Lu}\p{N}]/u.test(phrase)) continue;
    const found = new RegExp(`\\bthe\\s+${escapeRegExp(phrase)}\\b([^\\p{L}]*)(\\p{L}+)?`, 'iu').exec(ask);
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
