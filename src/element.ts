/**
 * `threadline/element`: importing this module registers <threadline-chat>.
 * See src/element/threadline-chat.ts for its attributes and events.
 */
import { bundleTurnRules } from './chat/turn-rules-bundled';
import { defineThreadlineChat } from './element/threadline-chat';

// The condenser's code comes with the element: an app's bundler packs it, with no chunk of ours to load at run time.
bundleTurnRules();

defineThreadlineChat();

export { ThreadlineChat, defineThreadlineChat } from './element/threadline-chat';
export { TurnView } from './render/turn-view';
export type { TurnViewOptions } from './render/turn-view';
