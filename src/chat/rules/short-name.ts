/**
 * A name said short: "Did Bench make it into Cooperstown?" after an answer about Johnny Bench, "What happened to
 * Anne?" after "Who was Anne Bonny?". A name the conversation wrote in full and the user now writes by its first
 * or last word alone is that name (a definite description, as "the College" is the Electoral College); spelled in
 * full it finds what the short form, often an everyday word ("bench"), cannot.
 */
import type { HistoryTurn } from './topics';
import { ANSWERS_READ } from './answer-person';
import { nameRuns } from './name-runs';
import { NO_PERSON_HEADS } from './word-lists';
import { isNoun } from './words';

export interface ShortName {
  /** The short form as typed ("Bench"). */
  short: string;
  /** The name in full ("Johnny Bench"). */
  full: string;
  /** Where the short form starts in the question. */
  index: number;
}

/**
 * The one-word names of `ask`, not opening a sentence (where any word is capitalized) nor modifying a noun, that
 * a name of two or three words in the conversation begins or ends with: the user's turns first, newest first, then
 * the last answers, where the name they write most often wins. A name headed by a place or an institution ("Salt
 * Lake City") is left alone: "Lake" is no short form of it.
 */
export function shortNames(ask: string, history: readonly HistoryTurn[]): ShortName[] {
  const found: ShortName[] = [];
  for (const run of nameRuns(ask)) {
    const short = run.words[0] as string;
    if (run.words.length !== 1 || run.opensSentence) continue;
    // Before a noun it modifies, a capitalized word is an adjective or a classifier ("Biblical poetry", "Yakiniku
    // restaurants"), no name of its own; a participle after it is its predicate ("was Bench married?").
    const next = /^[^\S\n]+(\p{Ll}+)/u.exec(ask.slice(run.index + short.length))?.[1];
    if (next !== undefined && isNoun(next) && !/ed$/.test(next)) continue;
    const full = fullName(short, history);
    if (full) found.push({ short, full, index: run.index });
  }
  return found;
}

function fullName(short: string, history: readonly HistoryTurn[]): string | undefined {
  const names = (text: string) => nameRuns(text).map((r) => r.words).filter((w) => w.length >= 2 && w.length <= 3 && (w[0] === short || w.at(-1) === short) && !NO_PERSON_HEADS.has((w.at(-1) as string).toLowerCase()));
  for (let t = history.length - 1; t >= 0; t--) {
    const own = names((history[t] as HistoryTurn).user)[0];
    if (own) return own.join(' ');
  }
  for (const turn of history.slice(-ANSWERS_READ).reverse()) {
    const counts = new Map<string, number>();
    for (const words of names(turn.assistant)) counts.set(words.join(' '), (counts.get(words.join(' ')) ?? 0) + 1);
    let best: [string, number] | undefined;
    for (const entry of counts) if (!best || entry[1] > best[1]) best = entry;
    if (best) return best[0];
  }
  return undefined;
}
