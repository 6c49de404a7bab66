/**
 * Discourse deixis: "how do I stop that?", "how do I turn that off?", "can I change that?". A demonstrative
 * standing alone as the object of what the user wants to do points at what the previous question described
 * (a behaviour: "will it find eslint from my node_modules?", "does it escape HTML?"), not at a thing that
 * question named; read as a noun phrase it becomes "how do I stop grep?". So the previous question is put
 * before it, as a person would restate it ("Does mustache.js escape HTML? how do I turn that off?"), and the
 * two are searched together (docs/quality-log.md, session 44).
 *
 * Only as an object after I/we/you or an infinitive's "to": as a subject ("Did that help?", "how long does
 * that take?") or after a preposition ("Tell me more about that.") it names a thing as often as a behaviour.
 * Not after "do" (verb-phrase.ts repeats the previous action), nor after be/have/get.
 */
import { determinesNext } from './gate';
import { tokenize } from './tokenize';
import { isContentWord } from './words';
import { PREPOSITIONS } from './word-lists';

const ACTORS: ReadonlySet<string> = new Set(['i', 'we', 'you', 'to']);
const NO_ACTION: ReadonlySet<string> = new Set(['do', 'does', 'did', 'be', 'have', 'has', 'get', 'like', 'about', 'with', 'for', 'of', 'on', 'in', 'at', 'from', 'into', 'by', 'than']);

/** The demonstrative ("that", "this") `question` points back with as an action's object, or undefined. */
export function pointsAtPrevious(question: string): string | undefined {
  const tokens = tokenize(question);
  // "long strings get wrapped, how do I stop that?": a clause before it in the same sentence is what it points at.
  const clauseBreak = question.search(/[,;:]/);
  for (let i = 2; i < tokens.length; i++) {
    const word = (tokens[i] as { word: string }).word;
    if (word !== 'that' && word !== 'this') continue;
    if (clauseBreak >= 0 && clauseBreak < (tokens[i] as { index: number }).index) return undefined;
    const verb = (tokens[i - 1] as { word: string }).word;
    const actor = (tokens[i - 2] as { word: string }).word;
    if (!ACTORS.has(actor) || NO_ACTION.has(verb) || PREPOSITIONS.has(verb) || !isContentWord(verb)) continue;
    // Standing alone ("stop that?"), not a noun's determiner ("stop that process").
    if (!determinesNext(question, tokens, i)) return word;
  }
  return undefined;
}
