/**
 * Term resolution (Voskarides et al., SIGIR 2020): the content words
 * (lower-cased, stop words removed, stemmed: the index's own terms) that the
 * human rewrite adds to what the user typed are the terms a condenser must
 * add. Precision and recall are micro-averaged over turns.
 */
import { lexicalTerms } from '../../src/text/tokens';

export interface TermCounts { tp: number; added: number; gold: number }
export interface TermScore { p: number; r: number; f1: number }

/** Index terms of `text` that are not in `typed`. */
export function addedTerms(text: string, typed: string): Set<string> {
  const own = new Set(lexicalTerms(typed));
  return new Set(lexicalTerms(text).filter((t) => !own.has(t)));
}

/** Counts for one turn: the condenser's question against the human rewrite. */
export function termCounts(question: string, rewrite: string, typed: string): TermCounts {
  const added = addedTerms(question, typed);
  const gold = addedTerms(rewrite, typed);
  let tp = 0;
  for (const t of added) if (gold.has(t)) tp++;
  return { tp, added: added.size, gold: gold.size };
}

export function termScore(rows: readonly TermCounts[]): TermScore {
  const sum = rows.reduce((s, r) => ({ tp: s.tp + r.tp, added: s.added + r.added, gold: s.gold + r.gold }), { tp: 0, added: 0, gold: 0 });
  const p = sum.added ? sum.tp / sum.added : 0;
  const r = sum.gold ? sum.tp / sum.gold : 0;
  return { p, r, f1: p + r ? (2 * p * r) / (p + r) : 0 };
}
