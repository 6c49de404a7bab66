/**
 * `threadline/render`: the safe Markdown renderer (model and document text is
 * untrusted) and TurnView, one chat turn's DOM, for pages that build their own
 * chat UI instead of using <threadline-chat>.
 */
export { renderMarkdown, renderInto, safeHref } from './render/markdown-dom';
export type { RenderOptions } from './render/markdown-dom';
export { TurnView } from './render/turn-view';
export type { TurnViewOptions } from './render/turn-view';
export { conversationJson, conversationMarkdown } from './render/export-conversation';
export type { ExportOptions } from './render/export-conversation';
export { followTurn } from './render/follow-turn';
export { ChatController } from './render/chat-controller';
export { restoreTurns } from './render/restored-log';
export type { RestoreOptions } from './render/restored-log';
export type { ChatControls, ChatHooks } from './render/chat-controller';
