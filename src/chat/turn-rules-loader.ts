/**
 * Where a chat session gets the condenser's code (turn-rules.ts). An entry
 * that bundles it hands it over with the page (`provideTurnRules`, from
 * turn-rules-bundled.ts: the library and `threadline/element`, whose apps'
 * bundlers must never have to load a chunk of ours, which under Trusted Types
 * webpack cannot); otherwise it is imported when first asked for, which only
 * the standalone `threadline-chat.js` does, the one build whose chunks are
 * ours to load. A failed import is tried again by the next call, though
 * Chromium answers an import that failed from its module map for the rest of
 * the page's life: there, reloading the page fetches it again.
 */
import type * as TurnRulesModule from './turn-rules';

export type TurnRules = typeof TurnRulesModule;

let rulesModule: Promise<TurnRules> | null = null;
let loadedRules: TurnRules | undefined;

/** Hands the condenser's code over, loaded: every later call has it at once. */
export function provideTurnRules(rules: TurnRules): void {
  loadedRules = rules;
  rulesModule = Promise.resolve(rules);
}

/** The condenser's code, imported on the first call unless an entry provided it. */
export function turnRules(): Promise<TurnRules> {
  return (rulesModule ??= import('./turn-rules').then((rules) => (loadedRules = rules), (error: unknown) => {
    rulesModule = null;
    throw error;
  }));
}

/** The condenser's code if it is here already; undefined while it is still to be fetched. */
export function loadedTurnRules(): TurnRules | undefined {
  return loadedRules;
}
