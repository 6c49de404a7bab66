/**
 * How specific a word is in the corpus being searched: its importance (the
 * best BM25 score it reaches alone, see TermStats) over the index's reference
 * (a word found once in one chunk of average length), capped at 1. Every
 * statistic comes from the user's own index: no word lists, no evaluation data.
 */
import type { TermStats } from '../retriever';
import { contentWords } from '../text/tokens';
import { COMMON_WORDS } from './rules/common-words';

/** A word's specificity in [0, 1]; 0 for a word the index does not have. */
export type Specificity = (word: string) => number;

/** A word at least this specific names something in this corpus by itself. */
export const SPECIFIC = 0.5;

/**
 * A word's specificity in a notional general collection, from its frequency
 * rank in general English (Zipf): a word of rank r appears in about N·L/(H·r)
 * of N passages of L words (H ≈ ln V + 0.58 for a V-word vocabulary), so its
 * idf is about ln(r·H/L) against ln N for a word found once. N = 10⁶ passages
 * of L = 100 words, V = 30,000: a mid-size collection. Everyday words
 * (rank below about 9,000) come out under SPECIFIC.
 */
export function zipfSpecificity(rank: number): number {
  const harmonic = Math.log(30_000) + 0.58;
  return Math.max(0, Math.min(1, Math.log(Math.max(1, (rank * harmonic) / 100)) / Math.log(1e6)));
}

const COMMON_RANK = new Map(COMMON_WORDS.map((w, i) => [w, i + 1]));

/**
 * A word and the singular it may be the plural of: a plural is rarer than its
 * singular but no more specific ("advantages" names what "advantage" does).
 */
export function singularForms(word: string): string[] {
  const w = word.toLowerCase();
  if (!/s$/.test(w) || w.length < 4 || /ss$/.test(w)) return [w];
  return [w, w.slice(0, -1), ...(/(?:ch|sh|x|s|z|o)es$/.test(w) ? [w.slice(0, -2)] : []), ...(/ies$/.test(w) ? [`${w.slice(0, -3)}y`] : [])];
}

/** The commonest rank among a word's forms, given a rank lookup. */
export function commonestRank(word: string, rank: (w: string) => number | undefined): number | undefined {
  const ranks = singularForms(word).map(rank).filter((r): r is number => r !== undefined);
  return ranks.length ? Math.min(...ranks) : undefined;
}

/** General-English specificity from the library's own list of the commonest words; 1 (no evidence) beyond it. */
export function generalSpecificity(word: string): number {
  const rank = commonestRank(word, (w) => COMMON_RANK.get(w));
  return rank === undefined ? 1 : zipfSpecificity(rank);
}

/**
 * Specificity in the user's index, capped by general English: a small index
 * makes everyday words look rare ("defined" in two chunks of two hundred), and
 * the cap keeps them what they are. A word the index lacks is 0: it cannot
 * help retrieval here.
 */
export function specificityFrom(stats: TermStats, general: Specificity = generalSpecificity): Specificity {
  const byWord = new Map<string, number>();
  const reference = stats.reference;
  for (const { word, importance } of stats.terms) byWord.set(word.toLowerCase(), reference > 0 ? Math.min(1, importance / reference, general(word)) : 0);
  return (word) => byWord.get(word.toLowerCase()) ?? 0;
}

/** The distinct words whose specificity the condenser may ask for: the question's and the user's earlier turns'. */
export function wordsToScore(question: string, history: readonly { user: string }[]): string[] {
  return [...new Set([question, ...history.map((h) => h.user)].flatMap((t) => contentWords(t)))].slice(0, 1000);
}
