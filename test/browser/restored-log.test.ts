import { afterEach, describe, expect, it } from 'vitest';
import type { Turn } from '../../src/chat/types';
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
