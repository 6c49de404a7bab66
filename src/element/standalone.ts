/**
 * `threadline-chat.js`, the script a static site loads (`threadline element <dir>`
 * copies it with its chunks, workers and the offline model): registers
 * <threadline-chat>. The same code as `threadline/element`, under the name the
 * README's three lines use.
 */
import { ThreadlineChat, defineThreadlineChat } from './threadline-chat';

defineThreadlineChat();

export { ThreadlineChat, defineThreadlineChat };
