/**
 * A resumed conversation put back in its log: the latest turns at once, the earlier ones behind a button that
 * shows them a batch at a time. Rendering every stored turn (Markdown, sanitizing, citations) cost about half a
 * millisecond each before the chat was ready, and a conversation only grows: 200 turns added about 100 ms to
 * every reload.
 */
import type { Turn } from '../chat/types';
import { markLongLog } from './long-log';

export interface RestoreOptions {
  /** Turns shown at once, the latest. @default 30 */
  atOnce?: number;
  /** Earlier turns shown by each press of the button. @default 50 */
  batch?: number;
}

/**
 * Replaces the log's content with the last `atOnce` of `turns` (each made into an element by `render`), and, when
 * there are more, a first item with a "Show earlier turns" button (part `earlier-button`).
 */
export function restoreTurns(log: HTMLElement, turns: readonly Turn[], render: (turn: Turn) => HTMLElement, options: RestoreOptions = {}): void {
  const atOnce = Math.max(1, options.atOnce ?? 30);
  const batch = Math.max(1, options.batch ?? 50);
  let shown = Math.max(0, turns.length - atOnce);
  log.replaceChildren(...turns.slice(shown).map(render));
  markLongLog(log);
  if (shown === 0) return;
  const item = document.createElement('li');
  item.className = 'tl-earlier';
  const button = Object.assign(document.createElement('button'), { type: 'button', className: 'secondary' });
  button.setAttribute('part', 'earlier-button');
  const label = () => { button.textContent = `Show ${Math.min(batch, shown)} earlier of ${shown} turns`; };
  label();
  button.addEventListener('click', () => {
    const from = Math.max(0, shown - batch);
    // Inserted above the turn that was first: it stays where the reader saw it (whatever the browser's own scroll
    // anchoring did), and the earlier turns are above it, to scroll up to.
    const first = item.nextElementSibling;
    const top = first?.getBoundingClientRect().top ?? 0;
    item.after(...turns.slice(from, shown).map(render));
    markLongLog(log);
    if (first) log.scrollTop += first.getBoundingClientRect().top - top;
    shown = from;
    if (shown === 0) item.remove();
    else label();
  });
  item.append(button);
  log.prepend(item);
}
