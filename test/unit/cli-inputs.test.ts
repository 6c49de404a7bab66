import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandInput, globToRegExp } from '../../src/cli/inputs';

describe('CLI inputs: files, folders and globs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tl-inputs-'));
  for (const f of ['a.md', 'b.txt', 'sub/c.md', 'sub/deep/d.md', 'sub/deep/e.html', '.hidden/x.md', 'node_modules/y.md']) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), 'x');
  }
  const rel = (files: string[]) => files.map((f) => relative(dir, f));

  it('walks folders, skipping dot-folders and node_modules', () => {
    expect(rel(expandInput('.', dir))).toEqual(['a.md', 'b.txt', 'sub/c.md', 'sub/deep/d.md', 'sub/deep/e.html']);
    expect(rel(expandInput('sub/c.md', dir))).toEqual(['sub/c.md']);
  });

  it('expands *, ? and ** like a shell with globstar', () => {
    expect(rel(expandInput('*.md', dir))).toEqual(['a.md']);
    expect(rel(expandInput('**/*.md', dir))).toEqual(['a.md', 'sub/c.md', 'sub/deep/d.md']);
    expect(rel(expandInput('sub/**', dir))).toEqual(['sub/c.md', 'sub/deep/d.md', 'sub/deep/e.html']);
    expect(rel(expandInput('sub/deep/?.*', dir))).toEqual(['sub/deep/d.md', 'sub/deep/e.html']);
    expect(expandInput('nowhere/*.md', dir)).toEqual([]);
    expect(globToRegExp('a.(b)+*.md').test('a.(b)+x.md')).toBe(true);
  });

  it('follows symbolic links, reads each folder once (a link back up is no endless walk) and leaves out a link to nothing', () => {
    const linked = mkdtempSync(join(tmpdir(), 'tl-inputs-links-'));
    mkdirSync(join(linked, 'site'));
    writeFileSync(join(linked, 'site', 'a.md'), 'x');
    writeFileSync(join(linked, 'shared.md'), 'x');
    symlinkSync('..', join(linked, 'site', 'up'));
    symlinkSync(join(linked, 'gone.md'), join(linked, 'site', 'gone.md'));
    // Before, the walk followed site/up/site/up/… until the system refused the path (ELOOP).
    expect(expandInput('site', linked).map((f) => relative(linked, f))).toEqual(['site/a.md', 'site/up/shared.md']);
  });

  it('refuses a literal path that does not exist', () => {
    expect(() => expandInput('missing.md', dir)).toThrow('missing.md: no such file or folder');
  });
});
