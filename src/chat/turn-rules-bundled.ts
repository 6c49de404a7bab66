/**
 * For the entries whose code an app's bundler packs (the library,
 * `threadline/element`): the condenser's code comes with them, so chat
 * sessions have it from the start and no chunk of ours is loaded at run time
 * (under Trusted Types, webpack cannot load one unless the app configures it).
 * Each entry calls this at its top level, so a bundler that skips modules it
 * deems free of side effects still runs the call with the entry.
 */
import * as rules from './turn-rules';
import { provideTurnRules } from './turn-rules-loader';

export function bundleTurnRules(): void {
  provideTurnRules(rules);
}
