/**
 * The condensed event of a question searched exactly as typed, as the chat session emits it where the
 * condenser's code is not here (a first turn while it downloads, or it could not be fetched) and as the
 * condenser does with condensation off. A module of its own, so the session builds it without that code.
 */
import type { GateReason } from './rules/gate';
import type { TurnEvent } from './types';

export type CondensedEvent = Extract<TurnEvent, { type: 'condensed' }>;

export function keptAsTyped(text: string, gate: GateReason, reason: string): CondensedEvent {
  return { type: 'condensed', original: text, question: text, query: { text, terms: [] }, method: 'kept', gate, reason };
}
