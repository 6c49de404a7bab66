import { describe, expect, it } from 'vitest';

describe('threadline/element imported where there is no DOM (a server render: SvelteKit, Astro frontmatter, VitePress build)', () => {
  it('imports without throwing and defines nothing (it threw "HTMLElement is not defined")', async () => {
    expect(typeof (globalThis as { HTMLElement?: unknown }).HTMLElement).toBe('undefined');
    const element = await import('../../src/element');
    expect(typeof element.ThreadlineChat).toBe('function');
    expect(() => element.defineThreadlineChat('threadline-chat')).not.toThrow();
  });
});
