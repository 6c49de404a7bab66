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
