/**
 * The zero-model condenser's code in one module: the English rules, the
 * commonest English words (common-words.ts) and the condensers built on
 * them, 112 KB of the element's page code. The library and `threadline/element` load it
 * with the page (turn-rules-bundled.ts); the standalone `threadline-chat.js`
 * fetches it when it is first needed (turn-rules-loader.ts), so a first visit
 * on a slow connection is ready without it.
 */
export { condenseTurn } from './condense';
export { resolveAndExpand } from './expand';
