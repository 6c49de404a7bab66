/**
 * A resumed conversation put back in its log: the latest turns at once, the earlier ones behind a button that
 * shows them a batch at a time. Rendering every stored turn (Markdown, sanitizing, citations) cost about half a
 * millisecond each before the chat was ready, and a conversation only grows: 200 turns added about 100 ms to
 * every reload. Reading them did too (1,000 stored turns: a reload 1.5× a new conversation's), so a session opened
 * with `latestTurns` holds only the latest, and the button reads the rest from the store (`stored`).
 */
import type { Turn } from '../chat/types';
import { markLongLog } from './long-log';

export interface RestoreOptions {
  /** Turns shown at once, the latest. @default 30 */
  atOnce?: number;
  /** Earlier turns shown by each press of the button. @default 50 */
  batch?: number;
  /**
   * Turns stored before `turns` and not read yet, for a session opened with `latestTurns`: how many
   * (`ChatSession.earlierCount`) and how to read them (`ChatSession.earlier`). The button shows them, a batch a
   * press, after the earlier ones of `turns`.
   */
  stored?: { count: () => number; read: (count: number) => Promise<readonly Turn[]> };
}

/**
 * Replaces the log's content with the last `atOnce` of `turns` (each made into an element by `render`), and, when
 * there are more (in `turns` or still stored), a first item with a "Show earlier turns" button (part `earlier-button`).
 */
export function restoreTurns(log: HTMLElement, turns: readonly Turn[], render: (turn: Turn) => HTMLElement, options: RestoreOptions = {}): void {
  const atOnce = Math.max(1, options.atOnce ?? 30);
  const batch = Math.max(1, options.batch ?? 50);
  const stored = options.stored;
  const storedCount = () => Math.max(0, stored?.count() ?? 0);
  let shown = Math.max(0, turns.length - atOnce);
  log.replaceChildren(...turns.slice(shown).map(render));
  markLongLog(log);
  if (shown === 0 && storedCount() === 0) return;
  const item = document.createElement('li');
  item.className = 'tl-earlier';
  const button = Object.assign(document.createElement('button'), { type: 'button', className: 'secondary' });
  button.setAttribute('part', 'earlier-button');
  const label = () => {
    const left = shown + storedCount();
    button.textContent = `Show ${Math.min(batch, shown || left)} earlier of ${left} turns`;
  };
  label();
  // Inserted above the turn that was first: it stays where the reader saw it (whatever the browser's own scroll
  // anchoring did), and the earlier turns are above it, to scroll up to.
  const insert = (older: readonly Turn[]) => {
    const first = item.nextElementSibling;
    const top = first?.getBoundingClientRect().top ?? 0;
    item.after(...older.map(render));
    markLongLog(log);
    if (first) log.scrollTop += first.getBoundingClientRect().top - top;
  };
  const settle = () => {
    if (shown === 0 && storedCount() === 0) item.remove();
    else label();
  };
  button.addEventListener('click', () => {
    if (shown > 0) {
      const from = Math.max(0, shown - batch);
      insert(turns.slice(from, shown));
      shown = from;
      return settle();
    }
    if (!stored || button.disabled) return;
    button.disabled = true;
    button.textContent = 'Reading earlier turns…';
    stored.read(batch).then((older) => {
      if (!item.isConnected) return; // the log was given another conversation meanwhile
      button.disabled = false;
      insert(older);
      // None read while some were counted: the conversation changed elsewhere, and there is nothing more to show here.
      if (older.length === 0) return item.remove();
      settle();
    }, () => {
      button.disabled = false;
      button.textContent = 'Could not read the earlier turns: try again';
    });
  });
  item.append(button);
  log.prepend(item);
}
