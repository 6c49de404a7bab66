/**
 * Small talk ("thanks", "hello", "ok 👍"), answered without retrieval. Kept out
 * of the condenser's code (turn-rules.ts) and its word lists, so a first
 * message is told apart while the standalone element still fetches them.
 */
import { tokenize } from './tokenize';
import { SMALLTALK } from './word-lists';

export function isSmalltalk(text: string): boolean {
  const words = tokenize(text).map((t) => t.word);
  if (words.length === 0) return /^[\p{Emoji}\s!.?]+$/u.test(text.trim()) && text.trim().length > 0;
  return words.length <= 6 && words.every((w) => SMALLTALK.has(w));
}
