import { createThreadline } from 'threadline';
import { ChatController } from 'threadline/render';

// Your own markup: a log, and a form with an input, an Ask and a Stop button.
const form = document.querySelector('form')!;
const input = form.querySelector('input')!;
const [ask, stop] = form.querySelectorAll('button');
const log = document.querySelector('ol')!;

const tl = await createThreadline({ name: 'handbook' });
const session = await tl.chat();
const chat = new ChatController({ form, input, ask: ask!, stop: stop!, log }, {
  session: () => session,
  event: (event) => { if (event.type === 'done') console.log(event.mode, event.citations); },
  failed: (error) => console.warn(error.code, error.message),
});
chat.enable(true); // Enter asks; Stop or Escape stops; each turn renders with TurnView, untrusted text kept safe
