import { describe, expect, it } from 'vitest';
import { purifyInPlace, renderMarkdown } from '../../src/render/markdown-dom';

/**
 * The renderer builds safe DOM by construction; DOMPurify runs over its output
 * as a second layer. These tests hand it DOM the renderer never makes, to show
 * the layer works on its own (real Chromium, real DOMPurify).
 */
describe('DOMPurify second layer (in place, over rendered nodes)', () => {
  it('removes live markup that a renderer bug could produce', () => {
    const box = document.createElement('div');
    const add = (tag: string, attrs: Record<string, string>, text = '') => {
      const el = tag === 'svg' ? document.createElementNS('http://www.w3.org/2000/svg', 'svg') : document.createElement(tag);
      for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
      el.textContent = text;
      box.append(el);
      return el;
    };
    add('a', { href: 'javascript:alert(1)' }, 'js link');
    add('a', { href: 'data:text/html,<script>alert(1)</script>' }, 'data link');
    add('a', { href: 'https://example.org/ok', rel: 'noopener noreferrer nofollow', target: '_blank' }, 'ok link');
    add('img', { src: 'https://evil.example/leak.png?c=secret' });
    add('button', { type: 'button', onclick: 'alert(1)', 'data-cite': '2' }, '[2]');
    add('iframe', { src: 'https://evil.example/' });
    add('form', { action: 'https://evil.example/steal' }, 'form');
    add('svg', { onload: 'alert(1)' });
    add('p', { style: 'background:url(https://evil.example/x)', onmouseover: 'alert(1)' }, 'styled');
    purifyInPlace(box);
    const html = box.innerHTML;
    expect(html).not.toMatch(/javascript:|data:|<img|<iframe|<form|<svg|onclick|onload|onmouseover|style=|evil\.example/);
    expect(box.querySelector('a[href="https://example.org/ok"]')?.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(box.querySelector('a[href="https://example.org/ok"]')?.getAttribute('target')).toBe('_blank');
    expect(box.querySelector('button[data-cite="2"]')?.getAttribute('type')).toBe('button');
  });

  it('leaves the renderer\'s own output unchanged', () => {
    const text = 'See [docs](https://example.org/docs) and ![chart](https://x.example/c.png), per [1].\n\n- **bold** and `code`\n\n> quote';
    const box = document.createElement('div');
    box.append(renderMarkdown(text));
    const before = box.innerHTML;
    purifyInPlace(box);
    expect(box.innerHTML).toBe(before);
    expect(before).toContain('<a href="https://example.org/docs" rel="noopener noreferrer nofollow" target="_blank">docs</a>');
  });
});

// A hang guard, not a speed goal: the renderer runs on the page's main thread, once per streamed token, over
// untrusted text (the model's, and passages quoted in extractive answers). Before, the first case froze the page
// for 18 s at 4,000 spaces (its cost grew with the cube of the run), and each of the others took 6 s to over a
// minute at these sizes (the old pattern timed alone in Node); now each takes milliseconds.
describe('hostile answers render in linear time', { timeout: 5_000 }, () => {
  const n = 100_000;
  const answers: Record<string, string> = {
    'a heading with a run of spaces': `# a${' '.repeat(20_000)}b`,
    'unclosed brackets and images': '['.repeat(n / 2) + '!['.repeat(n / 4),
    'unclosed link targets': '[a]('.repeat(n / 4),
    'unpaired emphasis': '*a '.repeat(n / 3) + ' _a'.repeat(n / 3),
    'runs of backticks': `a ${'`'.repeat(n / 2)} b ${'``a'.repeat(n / 6)}`,
  };
  for (const [name, text] of Object.entries(answers)) {
    it(name, () => {
      const box = document.createElement('div');
      box.append(renderMarkdown(text));
      expect(box.textContent?.length).toBeGreaterThan(0);
      expect(box.querySelector('script, img, iframe')).toBeNull();
    });
  }

  it('the usual markup renders as it did', () => {
    const box = document.createElement('div');
    box.append(renderMarkdown('## Setup ##\n# C#\nA `code` span, ``a `tick` inside``, **bold**, *em*, _em_, [link](https://example.org/a_(b)) and [2].'));
    expect(box.querySelector('h4')?.textContent).toBe('Setup');
    expect(box.querySelector('h3')?.textContent).toBe('C#');
    expect([...box.querySelectorAll('code')].map((c) => c.textContent)).toEqual(['code', 'a `tick` inside']);
    expect(box.querySelector('strong')?.textContent).toBe('bold');
    expect([...box.querySelectorAll('em')].map((e) => e.textContent)).toEqual(['em', 'em']);
    expect(box.querySelector('a')?.textContent).toBe('link');
  });
});
