/**
 * The standalone build of <threadline-chat> (`threadline element <dir>` copies
 * it to a site): every dependency bundled, the offline model in
 * ./threadline-glove-30k/ next to this file, so a static page needs one tag.
 */
import { ThreadlineChat, defineThreadlineChat } from './threadline-chat';

ThreadlineChat.defaultEmbedder = new URL(/* @vite-ignore */ './threadline-glove-30k/', import.meta.url).href;
defineThreadlineChat();

export { ThreadlineChat, defineThreadlineChat };
