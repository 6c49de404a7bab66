import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

describe('README', () => {
  it('shows docs/examples/quick-start.ts verbatim (that file is type-checked)', () => {
    const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
    const example = readFileSync(resolve(root, 'docs/examples/quick-start.ts'), 'utf8').trimEnd();
    expect(readme).toContain('```ts\n' + example + '\n```');
  });

  it('shows docs/examples/own-chat-ui.ts verbatim (that file is type-checked)', () => {
    const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
    const example = readFileSync(resolve(root, 'docs/examples/own-chat-ui.ts'), 'utf8').trimEnd();
    expect(readme).toContain('```ts\n' + example + '\n```');
  });

  it('names every ThreadlineError code', () => {
    const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
    const codes = [...readFileSync(resolve(root, 'src/errors.ts'), 'utf8').matchAll(/\| '([A-Z_]+)'/g)].map((m) => m[1]);
    expect(codes.length).toBeGreaterThan(10);
    for (const code of codes) expect(readme).toContain(`\`${code}\``);
  });

  it('names every progress phase', () => {
    const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
    const phases = [...readFileSync(resolve(root, 'src/progress.ts'), 'utf8').matchAll(/phase: '([a-z-]+)'/g)].map((m) => m[1]);
    expect(phases.length).toBeGreaterThan(8);
    for (const phase of phases) expect(readme).toContain(`\`${phase}\``);
  });
});
