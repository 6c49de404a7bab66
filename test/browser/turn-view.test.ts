import { describe, expect, it } from 'vitest';
import { TurnView } from '../../src/render/turn-view';

const answer = 'See [the docs](https://docs.example.com/a) or [this](https://evil.example.net/x) [1].';

describe('TurnView linkHosts', () => {
  it('keeps links to the listed hosts clickable and renders the others as text', () => {
    const view = new TurnView('q', { linkHosts: ['docs.example.com'] });
    view.update({ type: 'token', text: answer });
    const links = [...view.element.querySelectorAll('.tl-answer a')].map((a) => (a as HTMLAnchorElement).href);
    expect(links).toEqual(['https://docs.example.com/a']);
    expect(view.element.querySelector('.tl-answer')?.textContent).toContain('this');
  });

  it('without linkHosts, any http(s) link stays clickable', () => {
    const view = new TurnView('q');
    view.update({ type: 'token', text: answer });
    expect(view.element.querySelectorAll('.tl-answer a')).toHaveLength(2);
  });
});

describe('TurnView extractive answers', () => {
  const hit = (n: number, text: string) => ({ chunkKey: n, docId: `d${n}`, text, title: `Doc ${n}`, headingPath: [], start: 0, end: text.length, score: 1 });
  const sources = { type: 'sources' as const, chunks: [hit(1, 'Returns take 30 days. Damaged items get 60 days.'), hit(2, '<img src=x onerror="window.pwned=1"> Warranty covers misuse? No.')] };
  const done = (mode: 'extractive' | 'generated') => ({
    type: 'done' as const, mode, answer: mode === 'extractive' ? 'Damaged items get 60 days. [1]' : 'Sixty days [1].', citations: [{ n: 1, docId: 'd1', chunkKey: 1, label: 'Doc 1', start: 0, end: 10 }], invalidCitations: [],
    timings: { condenseMs: 0, retrieveMs: 0, firstTokenMs: 0, totalMs: 0 },
    ...(mode === 'extractive' ? { extractive: [
      { n: 1, label: 'Doc 1', sentences: [{ text: 'Returns take 30 days.', highlight: false }, { text: 'Damaged items get 60 days.', highlight: true }] },
      { n: 2, label: 'Doc 2', sentences: [{ text: '<img src=x onerror="window.pwned=1">', highlight: true }, { text: 'Warranty covers misuse? No.', highlight: false }] },
    ] } : {}),
  });

  it('shows the snippet alone, and the passages (their sentence marked) behind one "Show passages" button', () => {
    const view = new TurnView('what about damaged items?');
    view.update(sources);
    view.update(done('extractive'));
    const bodies = [...view.element.querySelectorAll<HTMLElement>('.tl-passage')];
    expect(view.element.querySelector('.tl-answer')?.textContent).toBe('Damaged items get 60 days. [1]');
    expect(bodies.every((b) => b.hidden)).toBe(true);
    // Only the source the short answer cites is listed until the passages are shown.
    const listed = () => [...view.element.querySelectorAll<HTMLLIElement>('.tl-source')].filter((li) => !li.hidden).map((li) => li.dataset.n);
    expect(listed()).toEqual(['1']);
    const button = view.element.querySelector<HTMLButtonElement>('button.tl-show-passages');
    expect(button?.textContent).toBe('Show passages (2)');
    expect(button?.getAttribute('aria-controls')?.split(' ')).toEqual(bodies.map((b) => b.id));
    button?.click();
    expect(bodies.every((b) => !b.hidden)).toBe(true);
    expect(listed()).toEqual(['1', '2']);
    expect(button?.getAttribute('aria-expanded')).toBe('true');
    expect(button?.textContent).toBe('Hide passages');
    expect([...view.element.querySelectorAll('mark.tl-highlight')].map((m) => m.textContent)).toEqual(['Damaged items get 60 days.', '<img src=x onerror="window.pwned=1">']);
    expect(view.element.querySelector('.tl-passage img')).toBeNull(); // passage text stays text
    expect(view.element.querySelector('.tl-passage-text')?.textContent).toBe('Returns take 30 days. Damaged items get 60 days.');
    button?.click();
    expect(bodies.every((b) => b.hidden)).toBe(true);
    expect(listed()).toEqual(['1']);
  });

  it('adds no passages button to a generated answer', () => {
    const view = new TurnView('q');
    view.update(sources);
    view.update(done('generated'));
    expect(view.element.querySelector('.tl-show-passages')).toBeNull();
    expect(view.element.querySelector('mark')).toBeNull();
  });
});
