/** Loads an evaluation set from a folder (Node): see parse.ts for the format and its checks. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEvalSet, type Conversation, type Passage } from './parse';

export type { Conversation, EvalTurn, Passage, TurnKind } from './parse';
export { withGoldAnswers } from './answers';

/** `passages` is null for a set without corpus.jsonl (conversations only: gate and term resolution). */
export function loadEvalSet(dir: string): { passages: Passage[] | null; conversations: Conversation[] } {
  const corpus = join(dir, 'corpus.jsonl');
  const conversations = join(dir, 'conversations.jsonl');
  if (!existsSync(conversations)) throw new Error(`${dir} holds no conversations.jsonl: an evaluation set is a folder with conversations.jsonl and, optionally, corpus.jsonl (shared/eval/README.md)`);
  return parseEvalSet(existsSync(corpus) ? readFileSync(corpus, 'utf8') : null, readFileSync(conversations, 'utf8'));
}
