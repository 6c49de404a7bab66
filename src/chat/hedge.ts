/**
 * The second ranking a turn's search is fused with, below its own: the resolved question's guess hedged with a
 * reading in the user's own words, and a question kept as typed ranked beside the previous one. `previous` is the
 * previous user question (small talk skipped); the weights are expand.ts's (EXPAND_DEFAULTS).
 */
import type { GateReason } from './rules/gate';
import type { ResolvedQuery } from './expand';

/**
 * A later question that names its own topic is searched exactly as typed, and the previous question with it is
 * ranked too, fused below at `previousWordWeight` (0.15, half the previous turn's history weight, as that
 * question's words are for a condensed turn). It decides nothing where the typed question finds its passage
 * clearly; where several passages score alike, the one the conversation is about comes first ("is there a
 * smaller build for browsers?" in a conversation about lru-cache; docs/quality-log.md, session 41). Not after
 * a topic switch ("now, …"), which says the conversation before it is no context.
 */
export function besidePrevious(kept: ResolvedQuery, text: string, previous: string | undefined, weight: number): ResolvedQuery {
  if (kept.decision.reason !== 'self-contained' || previous === undefined || !(weight > 0)) return kept;
  return { ...kept, query: { ...kept.query, hedge: `${previous} ${text}`, hedgeWeight: weight }, reason: `${kept.reason}; the previous question ranked beside it at ${weight}` };
}

/** References resolved by a guess: a pronoun's antecedent, an ellipsis spliced into a question, the topic a bridging definite belongs to or a comparative compares within. */
const GUESSED_REASONS: ReadonlyMap<GateReason, 'previous question' | 'fragment' | 'question'> = new Map([
  ['dangling-pronoun', 'previous question'],
  // A fragment's, a bridging definite's or a comparative's own words say what it asks about; the topic beside them is the guess.
  ['ellipsis', 'fragment'], ['bridging', 'question'], ['comparative', 'question'], ['substitution', 'question'],
] as const);

/**
 * A reference's antecedent is a guess, and a wrong one searched at full weight buries the passage. So a second
 * reading, in the user's own words (read as written: written-forms.ts), unresolved, is ranked too and fused below
 * the resolved question's ranking at the previous turn's history weight (0.3): where the guess is right the two
 * agree, where it is wrong the conversation's own words still surface the passage. For a pronoun that reading is
 * the previous question with this one (no set down, fourth README set 0.662 → 0.704, held-out fifth 0.625 →
 * 0.654). An ellipsis already searches the previous question, spliced: its other reading is the fragment as a
 * question of its own ("and comments?"), near the same documents (docs/quality-log.md, session 26: ellipses 0.833 → 0.860 on
 * the README sets and samples, 0.329 → 0.349 on CAsT 2021). A bridging definite ("the batteries") is searched with the
 * topic appended; its other reading is the question as typed (session 38: CAsT 2021 0.546 → 0.547, fourth README set
 * 0.678 → 0.684). So is a comparative ("Which is healthiest?", "What is the best in my morning latte?"), whose one topic
 * appended is the same kind of guess (session 39: CAsT 2021 0.546 → 0.548; no README set has one). Small talk is no
 * question to pair with.
 */
export function hedged(resolved: ResolvedQuery, text: string, previous: string | undefined, weight: number): ResolvedQuery {
  const reading = GUESSED_REASONS.get(resolved.decision.reason);
  if (reading === undefined || previous === undefined || !(weight > 0)) return resolved;
  const hedge = reading === 'previous question' ? `${previous} ${text}` : text;
  const what = reading === 'previous question' ? 'the previous question' : `the ${reading} as typed`;
  return { ...resolved, query: { ...resolved.query, hedge, hedgeWeight: weight }, reason: `${resolved.reason}; hedged with ${what} at ${weight}` };
}
