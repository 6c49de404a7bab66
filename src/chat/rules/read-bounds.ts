/**
 * How much of a conversation the zero-model condenser reads. Its rules scan
 * each turn's phrases against the others, so their cost grows faster than a
 * turn's length, and they run on the page's main thread: a pasted 20,000-
 * character message repeated over a few turns once took seconds there (a
 * hostile mix of pronouns and articles, 18 s), with nothing to abort it.
 *
 * The bounds are far above what a conversational turn needs (the CAsT turns
 * the evaluation reads are under 170 characters, their answers under 1,500,
 * their conversations under 14 turns), so within them nothing changes:
 * - a later turn reads only the latest 2,000 characters a user typed (where
 *   a message with a pasted preamble asks its question) and the first 4,000
 *   of an answer (where an answer names what it is about);
 * - of a long session, the first turn (which names the conversation's topic)
 *   and the latest 15; older turns weigh at most 0.7¹⁵ of the newest anyway;
 * - a question longer than 2,000 characters is kept as typed: a message that
 *   long states its own subject (the gate already keeps a long preamble's
 *   question), and no rewrite of it would be read by anyone.
 */
import type { HistoryTurn } from './topics';

export const MAX_READ_QUESTION = 2_000;
export const MAX_READ_USER = 2_000;
export const MAX_READ_ANSWER = 4_000;
export const MAX_READ_TURNS = 16;

/** The part of `history` the condenser reads (the same array when it is all within bounds). */
export function readableHistory(history: readonly HistoryTurn[]): readonly HistoryTurn[] {
  const turns = history.length > MAX_READ_TURNS ? [history[0] as HistoryTurn, ...history.slice(-(MAX_READ_TURNS - 1))] : history;
  const within = (text: string, max: number) => text.length <= max && !LONG_SPACE.test(text);
  if (turns === history && history.every((t) => within(t.user, MAX_READ_USER) && within(t.assistant, MAX_READ_ANSWER))) return history;
  return turns.map((t) => ({ user: compactSpace(lastChars(t.user, MAX_READ_USER)), assistant: compactSpace(firstChars(t.assistant, MAX_READ_ANSWER)) }));
}

/** A run of more than 8 white-space characters. */
const LONG_SPACE = /\s{9}/;

/**
 * `text` with each run of white space as one space (one line break where the
 * run holds one). A long run costs the rules' patterns that end in white
 * space the run's length at every position of it (2,000 spaces: tens of ms).
 */
export function compactSpace(text: string): string {
  return LONG_SPACE.test(text) ? text.replace(/\s{2,}/g, (run) => (run.includes('\n') ? '\n' : ' ')) : text;
}

/** The last `max` characters of `text`, starting at a word. */
function lastChars(text: string, max: number): string {
  if (text.length <= max) return text;
  const tail = text.slice(-max);
  const space = tail.search(/\s/);
  return space < 0 ? tail : tail.slice(space + 1);
}

/** The first `max` characters of `text`, ending at a word. */
function firstChars(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const space = head.search(/\s\S*$/);
  return space < 0 ? head : head.slice(0, space);
}
