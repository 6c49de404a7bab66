/** `--answers gold` (and the playground's switch): a set's empty answers filled with its gold passages. Browser-safe, unlike data.ts. */
import type { Conversation, Passage } from './parse';

/** The set with each empty assistant turn filled with its first gold passage's text (EvalOptions.answers = 'gold'). */
export function withGoldAnswers(set: { passages: Passage[] | null; conversations: Conversation[] }): { passages: Passage[] | null; conversations: Conversation[] } {
  if (!set.passages) throw new Error('--answers gold needs a corpus (corpus.jsonl): the answers are its gold passages');
  const text = new Map(set.passages.map((p) => [p.id, p.text]));
  const conversations = set.conversations.map((c) => ({ ...c, turns: c.turns.map((t) => (t.assistant ? t : { ...t, assistant: text.get(t.gold[0] ?? '') ?? '' })) }));
  return { passages: set.passages, conversations };
}
