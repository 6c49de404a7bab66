/**
 * Hybrid search against each of its parts alone, on the same queries: #13's "fusion that never loses to its
 * parts" (with the offline model, hybrid no worse than lexical alone; with a strong model, no worse than dense
 * alone), measured on every set with a corpus, turn by turn. A set has a dozen first turns or a few hundred
 * follow-ups, so one turn moves a mean by points: each difference comes with a paired bootstrap interval, and
 * with how many turns hybrid ranks the gold passage higher and lower than the part does. The parts rank
 * exactly as `--retrieval lexical|dense` does (the reading context is a hybrid prior, so they go without it).
 */
import type { SearchMode } from '../../src/retrieval/memory-index';
import { pairedDifference, reciprocalRank as rr, type PairedDifference } from './metrics';
import type { TurnContext } from './strategies';

/** The rankings fused by hybrid search. */
export const PARTS = ['lexical', 'dense'] as const satisfies readonly SearchMode[];
export type Part = (typeof PARTS)[number];

/** The strategies compared: the question as typed, and the default condenser. */
export const PART_STRATEGIES = ['raw', 'expand'] as const;
export type PartStrategy = (typeof PART_STRATEGIES)[number];

/**
 * Hybrid's MRR less the part's (`delta`: below 0, hybrid loses to it), its 95% paired bootstrap interval (turns
 * resampled 2,000 times; null without turns), and the turns where hybrid ranks the first gold passage higher
 * than the part does, and lower.
 */
export interface PartComparison extends PairedDifference {
  /** The part's MRR alone on these turns. */
  mrr: number;
}

export interface PartsGroup {
  n: number;
  /** Hybrid's MRR on these turns. */
  hybrid: number;
  lexical: PartComparison;
  dense: PartComparison;
}

/** Turns searched as typed (first and standalone) apart from follow-ups: the two fail for different reasons. */
export interface PartsReport { firstStandalone: PartsGroup; followup: PartsGroup }

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);

function compare(hybrid: readonly number[], part: readonly number[]): PartComparison {
  const b = part.map(rr);
  return { mrr: mean(b), ...pairedDifference(hybrid.map(rr), b) };
}

/** One strategy's comparison, from the gold passage's rank per turn under hybrid search and under each part alone. */
export function partsReport(turns: readonly TurnContext[], hybrid: readonly number[], parts: Readonly<Record<Part, readonly number[]>>): PartsReport {
  const group = (test: (c: TurnContext) => boolean): PartsGroup => {
    const at = turns.map((c, i) => [c, i] as const).filter(([c]) => test(c)).map(([, i]) => i);
    const pick = (ranks: readonly number[]) => at.map((i) => ranks[i] ?? 0);
    return { n: at.length, hybrid: mean(pick(hybrid).map(rr)), lexical: compare(pick(hybrid), pick(parts.lexical)), dense: compare(pick(hybrid), pick(parts.dense)) };
  };
  return { firstStandalone: group((c) => c.turn.kind !== 'followup'), followup: group((c) => c.turn.kind === 'followup') };
}
