/** Loads an evaluation set from a folder (Node): see parse.ts for the format and its checks. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEvalSet, type Conversation, type Passage } from './parse';

export type { Conversation, EvalTurn, Passage, TurnKind } from './parse';

/** `passages` is null for a set without corpus.jsonl (conversations only: gate and term resolution). */
export function loadEvalSet(dir: string): { passages: Passage[] | null; conversations: Conversation[] } {
  const corpus = join(dir, 'corpus.jsonl');
  return parseEvalSet(existsSync(corpus) ? readFileSync(corpus, 'utf8') : null, readFileSync(join(dir, 'conversations.jsonl'), 'utf8'));
}

/** The set with each empty assistant turn filled with its first gold passage's text (EvalOptions.answers = 'gold'). */
export function withGoldAnswers(set: { passages: Passage[] | null; conversations: Conversation[] }): { passages: Passage[] | null; conversations: Conversation[] } {
  if (!set.passages) throw new Error('--answers gold needs a corpus (corpus.jsonl): the answers are its gold passages');
  const text = new Map(set.passages.map((p) => [p.id, p.text]));
  const conversations = set.conversations.map((c) => ({ ...c, turns: c.turns.map((t) => (t.assistant ? t : { ...t, assistant: text.get(t.gold[0] ?? '') ?? '' })) }));
  return { passages: set.passages, conversations };
}
