/**
 * The zero-model condenser's code, in one module that a chat session imports
 * when its first turn (or `warm()`) needs it, not with the page: the English
 * rules and their word lists are about 105 KB of the element's 230 KB of
 * page code (38 KB compressed), which a first visit on a slow connection
 * fetched and ran before the chat was ready (session.ts `turnRules`).
 */
export { condenseTurn } from './condense';
export { resolveAndExpand } from './expand';
export { decide } from './rules/gate';
