/** `--answers gold|passages` (and the playground's switch): a set's answers from its gold passages. Browser-safe, unlike data.ts. */
import type { Conversation, Passage } from './parse';

/** What the history's assistant turns say (EvalOptions.answers). */
export type Answers = 'as-given' | 'gold' | 'passages';

export function isAnswers(value: string): value is Answers {
  return value === 'as-given' || value === 'gold' || value === 'passages';
}

/**
 * The set with each assistant turn's text from its first gold passage (what the element's extractive answer
 * quotes from when retrieval succeeds): `gold` fills only the answers the set leaves empty; `passages` replaces
 * every answer that has a gold passage, so sets with hand-written answers are also measured as a page without
 * a language model meets them (rules that read the last answer read a passage's words, not a summary's).
 */
export function withGoldAnswers(set: { passages: Passage[] | null; conversations: Conversation[] }, mode: Exclude<Answers, 'as-given'> = 'gold'): { passages: Passage[] | null; conversations: Conversation[] } {
  if (!set.passages) throw new Error(`--answers ${mode} needs a corpus (corpus.jsonl): the answers are its gold passages`);
  const text = new Map(set.passages.map((p) => [p.id, p.text]));
  const replaced = (t: Conversation['turns'][number]) => (mode === 'passages' ? text.get(t.gold[0] ?? '') : t.assistant ? undefined : text.get(t.gold[0] ?? '') ?? '');
  const conversations = set.conversations.map((c) => ({ ...c, turns: c.turns.map((t) => {
    const assistant = replaced(t);
    return assistant === undefined ? t : { ...t, assistant };
  }) }));
  return { passages: set.passages, conversations };
}
