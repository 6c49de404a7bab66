/**
 * Conversation memory for prompts: the last N turns, newest first, inside a
 * token budget (the LLM's tokenizer when loaded, ~4 characters a token
 * otherwise), plus an optional running summary of the turns that fell out.
 * Whatever the conversation's length, each prompt's history is at most
 * `maxTokens` (+ the summary's own cap).
 */
import type { HistoryTurn } from './rules/topics';

export interface MemoryOptions {
  /** `'window'`: last turns only. `'summary'`: also a running LLM summary of older turns (window without an LLM). @default 'window' */
  kind?: 'window' | 'summary';
  /** Turns kept verbatim. @default 6 */
  turns?: number;
  /** History budget per prompt, in tokens. @default 1024 */
  maxTokens?: number;
}

export const MEMORY_DEFAULTS = Object.freeze({ kind: 'window', turns: 6, maxTokens: 1024 } satisfies Required<MemoryOptions>);
/** Longest summary kept, in tokens. */
export const SUMMARY_MAX_TOKENS = 200;

export type CountTokens = (text: string) => number;

export const estimateTokens: CountTokens = (text) => Math.ceil(text.length / 4);

/** Cuts `text` to about `tokens` tokens at a word boundary. */
export function truncateToTokens(text: string, tokens: number, count: CountTokens): string {
  if (count(text) <= tokens) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (count(text.slice(0, mid)) <= tokens) lo = mid; else hi = mid - 1;
  }
  const cut = text.slice(0, lo);
  const space = cut.lastIndexOf(' ');
  return `${(space > lo * 0.6 ? cut.slice(0, space) : cut).trimEnd()} …`;
}

/** The newest turns that fit the budget, oldest first; an oversized turn keeps a truncated answer. */
export function windowTurns(turns: readonly HistoryTurn[], options: MemoryOptions = {}, count: CountTokens = estimateTokens): HistoryTurn[] {
  const { turns: n, maxTokens } = { ...MEMORY_DEFAULTS, ...options };
  const picked: HistoryTurn[] = [];
  let used = 0;
  for (const turn of turns.slice(-n).reverse()) {
    const cost = count(turn.user) + count(turn.assistant) + 8;
    if (used + cost <= maxTokens) {
      picked.push(turn);
      used += cost;
      continue;
    }
    const room = maxTokens - used - count(turn.user) - 8;
    if (picked.length === 0 && room > 32) picked.push({ user: turn.user, assistant: truncateToTokens(turn.assistant, room, count) });
    break;
  }
  return picked.reverse();
}
