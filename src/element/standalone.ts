/**
 * `threadline-chat.js`, the script a static site loads (`threadline element <dir>`
 * copies it with its chunks, workers and the offline model): registers
 * <threadline-chat>. The same code as `threadline/element`, under the name the
 * README's three lines use.
 *
 * Before it imports the element (and with it the library), it starts the
 * retrieval worker for the page's first <threadline-chat> that will start at
 * once (not a closed launcher) with the default model, and has it fetch the
 * element's `index` file, so the worker, its model load and the index request
 * overlap the download of the rest of the code.
 */
import { prestartRetrievalWorker } from '../client/prestart';

const first = typeof document === 'undefined' ? null : document.querySelector('threadline-chat');
// Only for the default embedder options: a spare warmed with other ones would not be adopted.
if (first && !first.hasAttribute('embedder') && !first.hasAttribute('dtype') && !(first.getAttribute('mode') === 'launcher' && !first.hasAttribute('open'))) {
  const index = first.getAttribute('index');
  prestartRetrievalWorker({}, index ? [index] : []);
}

const element = await import('./threadline-chat');
element.defineThreadlineChat();

export const ThreadlineChat = element.ThreadlineChat;
export type ThreadlineChat = InstanceType<typeof element.ThreadlineChat>;
export const defineThreadlineChat = element.defineThreadlineChat;
