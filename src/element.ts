/**
 * `threadline/element`: importing this module registers <threadline-chat>.
 * See src/element/threadline-chat.ts for its attributes and events.
 */
import { defineThreadlineChat } from './element/threadline-chat';

defineThreadlineChat();

export { ThreadlineChat, defineThreadlineChat } from './element/threadline-chat';
export { TurnView } from './render/turn-view';
export type { TurnViewOptions } from './render/turn-view';
