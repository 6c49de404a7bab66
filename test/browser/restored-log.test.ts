import { afterEach, describe, expect, it } from 'vitest';
import { ChatSession } from '../../src/chat/session';
import type { Turn } from '../../src/chat/types';
import { SessionStore, type SessionInfo } from '../../src/storage/session-store';
import { LONG_LOG } from '../../src/render/long-log';
import { restoreTurns } from '../../src/render/restored-log';
import { TurnView } from '../../src/render/turn-view';

const turns: Turn[] = Array.from({ length: 75 }, (_, i) => ({ user: `question ${i + 1}`, assistant: `Answer ${i + 1}, with **Markdown**.`, mode: 'extractive', citations: [], at: i }));
const render = (turn: Turn) => TurnView.restored(turn).element;
const questions = (log: HTMLElement) => [...log.querySelectorAll('.tl-turn .tl-user')].map((q) => q.textContent);

afterEach(() => document.body.replaceChildren());

describe('restoreTurns: a resumed conversation, latest turns first, the rest on demand (real DOM, Chromium)', () => {
  it(`a log of more than ${LONG_LOG} turns is marked long, so its turns out of view skip layout; a short one is not`, () => {
    const log = document.body.appendChild(document.createElement('ol'));
    const many: Turn[] = Array.from({ length: 150 }, (_, i) => ({ ...turns[0] as Turn, user: `q${i}`, at: i }));
    restoreTurns(log, many, render, { atOnce: 30, batch: 50 });
    expect(log.classList.contains('tl-long')).toBe(false);
    log.querySelector<HTMLButtonElement>('.tl-earlier button')?.click();
    expect(log.classList.contains('tl-long')).toBe(false); // 80 turns and the button
    log.querySelector<HTMLButtonElement>('.tl-earlier button')?.click();
    expect(log.classList.contains('tl-long')).toBe(true);
    restoreTurns(log, many.slice(0, 10), render);
    expect(log.classList.contains('tl-long')).toBe(false);
  });

  it('shows the latest turns at once and the earlier ones a batch a press, in order, until the button goes', () => {
    const log = document.body.appendChild(document.createElement('ol'));
    log.append(document.createElement('li')); // whatever was there before is replaced
    restoreTurns(log, turns, render, { atOnce: 30, batch: 20 });
    expect(questions(log)).toEqual(turns.slice(45).map((t) => t.user));
    const button = () => log.querySelector<HTMLButtonElement>('.tl-earlier button');
    expect(log.firstElementChild?.className).toBe('tl-earlier');
    expect(button()?.textContent).toBe('Show 20 earlier of 45 turns');
    expect(button()?.getAttribute('part')).toBe('earlier-button');
    button()?.click();
    expect(questions(log)).toEqual(turns.slice(25).map((t) => t.user));
    expect(button()?.textContent).toBe('Show 20 earlier of 25 turns');
    button()?.click();
    button()?.click();
    expect(questions(log)).toEqual(turns.map((t) => t.user));
    expect(button()).toBeNull();
  });

  it('a conversation no longer than atOnce is shown whole, with no button', () => {
    const log = document.body.appendChild(document.createElement('ol'));
    restoreTurns(log, turns.slice(0, 30), render);
    expect(questions(log)).toHaveLength(30);
    expect(log.querySelector('.tl-earlier')).toBeNull();
    restoreTurns(log, [], render);
    expect(log.children).toHaveLength(0);
  });

  it('keeps the reader\'s place: the turn that was first stays where it was on screen', () => {
    const log = document.body.appendChild(document.createElement('ol'));
    Object.assign(log.style, { height: '300px', overflowY: 'auto', margin: '0', padding: '0' });
    restoreTurns(log, turns, render, { atOnce: 10, batch: 10 });
    log.scrollTop = 0; // the reader scrolled up to the button
    const first = log.querySelector('.tl-earlier')?.nextElementSibling as HTMLElement;
    const before = first.getBoundingClientRect().top;
    log.querySelector<HTMLButtonElement>('.tl-earlier button')?.click();
    expect(Math.abs(first.getBoundingClientRect().top - before)).toBeLessThan(1);
    expect(log.scrollTop).toBeGreaterThan(0); // the ten earlier turns are above, to scroll up to
  });
});

/** Stores `n` turns of session `id` as a chat would, without running them. */
async function stored(name: string, id: string, n: number): Promise<SessionStore> {
  const store = await SessionStore.open(name);
  let info: SessionInfo = { id, title: '', createdAt: 1, updatedAt: 1, turnCount: 0 };
  for (let i = 0; i < n; i++) {
    ({ info } = await store.append(info, { sessionId: id, user: `question ${i + 1}`, assistant: `Answer ${i + 1}.`, mode: 'extractive', citations: [], at: i }));
  }
  return store;
}

/** The session only reads its store here: a retriever that no turn reaches. */
const noRetriever = {
  search: () => Promise.reject(new Error('no search in this test')),
  termStats: () => Promise.reject(new Error('no search in this test')),
};

describe('restoreTurns with a session opened with latestTurns: earlier turns read from IndexedDB on demand (real IndexedDB, Chromium)', () => {
  it('shows the latest turns, then reads a batch a press from the store, in order, until the button goes', async () => {
    const name = `restored-${crypto.randomUUID()}`;
    const store = await stored(name, 's', 120);
    const session = await ChatSession.open(store, noRetriever, undefined, { sessionId: 's', latestTurns: 30 });
    const log = document.body.appendChild(document.createElement('ol'));
    restoreTurns(log, session.history(), render, { atOnce: 30, batch: 50, stored: { count: () => session.earlierCount, read: (n) => session.earlier(n) } });
    const button = () => log.querySelector<HTMLButtonElement>('.tl-earlier button');
    expect(questions(log)).toEqual(Array.from({ length: 30 }, (_, i) => `question ${i + 91}`));
    expect(button()?.textContent).toBe('Show 50 earlier of 90 turns');
    button()?.click();
    expect(button()?.disabled).toBe(true);
    await expect.poll(() => questions(log).length).toBe(80);
    expect(questions(log)).toEqual(Array.from({ length: 80 }, (_, i) => `question ${i + 41}`));
    expect(button()?.textContent).toBe('Show 40 earlier of 40 turns');
    button()?.click();
    await expect.poll(() => questions(log).length).toBe(120);
    expect(questions(log)).toEqual(Array.from({ length: 120 }, (_, i) => `question ${i + 1}`));
    expect(button()).toBeNull();
    store.close();
  });

  it('a read that fails says so and can be tried again; a conversation cleared elsewhere removes the button', async () => {
    const name = `restored-${crypto.randomUUID()}`;
    const store = await stored(name, 's', 60);
    const session = await ChatSession.open(store, noRetriever, undefined, { sessionId: 's', latestTurns: 30 });
    const log = document.body.appendChild(document.createElement('ol'));
    let fail = true;
    const read = (n: number) => (fail ? Promise.reject(new Error('disk full')) : session.earlier(n));
    restoreTurns(log, session.history(), render, { stored: { count: () => session.earlierCount, read } });
    const button = () => log.querySelector<HTMLButtonElement>('.tl-earlier button');
    button()?.click();
    await expect.poll(() => button()?.textContent).toBe('Could not read the earlier turns: try again');
    expect(button()?.disabled).toBe(false);
    fail = false;
    // Cleared by another handle (another tab): what this log shows is no longer stored, and nothing is added to it.
    const other = await ChatSession.open(store, noRetriever, undefined, { sessionId: 's' });
    await other.reset();
    button()?.click();
    await expect.poll(() => button()).toBeNull();
    expect(questions(log)).toHaveLength(30);
    store.close();
  });
});
