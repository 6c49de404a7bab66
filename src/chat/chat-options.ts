/**
 * Checks a chat()'s options when the session opens, so a bad value is an
 * INVALID_INPUT naming it there, not a failure of the first turn (a `k` of
 * "5" used to reach the worker's search) or a silent odd behaviour (a
 * condense mode of "Off" used to condense as 'auto' does).
 */
import { ThreadlineError } from '../errors';
import type { ChatOptions } from './types';
import { shown } from '../util/shown';

const CONDENSE_MODES = ['auto', 'rules', 'llm', 'off'];
const LAYOUTS = ['kv-stable', 'compact'];
const MEMORY_KINDS = ['window', 'summary'];
const MODEL_PENDING = ['lexical', 'wait'];

export function validateChatOptions(options: ChatOptions): void {
  const bad = (name: string, expected: string, value: unknown): never => {
    throw new ThreadlineError('INVALID_INPUT', `chat option ${name} must be ${expected} (got ${shown(value)})`);
  };
  const oneOf = (name: string, value: unknown, allowed: readonly string[]) => {
    if (value !== undefined && !allowed.includes(value as string)) bad(name, `one of ${allowed.map((a) => `'${a}'`).join(', ')}`, value);
  };
  const flag = (name: string, value: unknown) => { if (value !== undefined && typeof value !== 'boolean') bad(name, 'true or false', value); };
  const integer = (name: string, value: unknown, min: number, max: number) => {
    if (value !== undefined && (!Number.isInteger(value) || (value as number) < min || (value as number) > max)) bad(name, `an integer from ${min} to ${max}`, value);
  };
  const fraction = (name: string, value: unknown, min: number) => {
    if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > 1)) bad(name, `a number from ${min} to 1`, value);
  };
  if (options === null || typeof options !== 'object') bad('object', 'an object', options);
  oneOf('condense', options.condense, CONDENSE_MODES);
  oneOf('promptLayout', options.promptLayout, LAYOUTS);
  oneOf('modelPending', options.modelPending, MODEL_PENDING);
  flag('llmExpansion', options.llmExpansion);
  flag('hedge', options.hedge);
  // The worker's own bound on k, checked here before any turn runs.
  integer('k', options.k, 1, 1000);
  integer('latestTurns', options.latestTurns, 1, Number.MAX_SAFE_INTEGER);
  if (options.abstain !== undefined) {
    if (options.abstain === null || typeof options.abstain !== 'object') bad('abstain', 'an object', options.abstain);
    fraction('abstain.minDense', options.abstain.minDense, -1);
    fraction('abstain.minCoverage', options.abstain.minCoverage, 0);
  }
  if (options.memory !== undefined) {
    if (options.memory === null || typeof options.memory !== 'object') bad('memory', 'an object', options.memory);
    oneOf('memory.kind', options.memory.kind, MEMORY_KINDS);
    integer('memory.turns', options.memory.turns, 0, 1000);
    integer('memory.maxTokens', options.memory.maxTokens, 1, 1_000_000);
  }
}
