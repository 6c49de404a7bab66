import { describe, expect, it } from 'vitest';
import { ELEMENT_CSS } from '../../src/element/style';

/** The element's default colours (`--_name: var(--threadline-name, #hex)`) in one `:host` block of its stylesheet. */
function palette(block: string): Record<string, string> {
  return Object.fromEntries([...block.matchAll(/--_([a-z-]+): var\(--threadline-[a-z-]+, (#[0-9a-f]{6})\)/g)].map((m) => [m[1] as string, m[2] as string]));
}

/** WCAG 2 contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (bl ?? 0);
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
}

describe('<threadline-chat> default colours (src/element/style.ts)', () => {
  const light = palette(ELEMENT_CSS.slice(0, ELEMENT_CSS.indexOf('@media (prefers-color-scheme: dark)')));
  const dark = { ...light, ...palette(ELEMENT_CSS.slice(ELEMENT_CSS.indexOf('@media (prefers-color-scheme: dark)'))) };

  it('reads both palettes whole', () => {
    for (const p of [light, dark]) expect(Object.keys(p).sort()).toEqual(['accent', 'accent-fg', 'bg', 'border', 'danger', 'fg', 'muted', 'user-bg']);
    expect(dark.bg).not.toBe(light.bg);
    expect(dark.danger).not.toBe(light.danger);
  });

  // Text at its normal size needs 4.5:1 (WCAG 2.1 AA). The error red of the light palette read 2.7:1 on the dark background.
  for (const [name, p] of [['light', light], ['dark', dark]] as const) {
    it(`every text colour reads at 4.5:1 or more in the ${name} palette`, () => {
      const pairs: [string, string, string][] = [
        ['fg', 'bg', 'text'], ['muted', 'bg', 'status, answer line, Copy'], ['accent', 'bg', 'citations and sources'], ['danger', 'bg', 'errors'],
        ['accent-fg', 'accent', 'Ask and the launcher'], ['fg', 'user-bg', 'the question'], ['muted', 'user-bg', 'muted text in a question'],
      ];
      for (const [fg, bg, what] of pairs) expect(contrast(p[fg] ?? '', p[bg] ?? ''), `${what}: ${fg} on ${bg}`).toBeGreaterThanOrEqual(4.5);
    });
  }
});
