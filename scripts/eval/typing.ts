/**
 * `--typing phone`: every user turn as many visitors type it on a phone, in
 * lower case, without apostrophes and without a closing question mark. The
 * human rewrites and gold passages stay as they are, so the same figures
 * measure how much of the condenser's reading survives such typing. Browser-safe.
 */
import type { Conversation, Passage } from './parse';

export type Typing = 'as-given' | 'phone';

export function isTyping(value: string): value is Typing {
  return value === 'as-given' || value === 'phone';
}

/** A message as typed on a phone: "What's the refund window?" → "whats the refund window". */
export function typedOnPhone(text: string): string {
  return text.toLowerCase().replace(/['’]/g, '').replace(/\s*\?+\s*$/, '');
}

export function withTyping<T extends { passages: Passage[] | null; conversations: Conversation[] }>(set: T, typing: Typing): T {
  if (typing === 'as-given') return set;
  return { ...set, conversations: set.conversations.map((c) => ({ ...c, turns: c.turns.map((t) => ({ ...t, user: typedOnPhone(t.user) })) })) };
}
