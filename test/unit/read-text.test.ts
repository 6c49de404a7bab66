import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDocuments } from '../../demo/ui/files';
import { indexFiles } from '../../src/cli/index-files';
import { readText } from '../../src/ingest/read-text';
import { decodePrebuilt } from '../../src/prebuilt/format';

const bytes = (...parts: (string | number[])[]) => new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...new TextEncoder().encode(p)] : p)));
const utf16 = (text: string, bigEndian: boolean) => [...text].flatMap((c) => { const code = c.charCodeAt(0); return bigEndian ? [code >> 8, code & 0xff] : [code & 0xff, code >> 8]; });

describe('a text file as threadline index and threadline/vite read it (src/ingest/read-text.ts)', () => {
  it('UTF-8 with or without a byte-order mark, and UTF-16 with one', () => {
    expect(readText(bytes('# Café\nRefunds.'))).toEqual({ text: '# Café\nRefunds.' });
    expect(readText(bytes([0xef, 0xbb, 0xbf], '# Café'))).toEqual({ text: '# Café' });
    expect(readText(new Uint8Array([0xff, 0xfe, ...utf16('# Café', false)]))).toEqual({ text: '# Café' });
    expect(readText(new Uint8Array([0xfe, 0xff, ...utf16('# Café', true)]))).toEqual({ text: '# Café' });
  });

  it('leaves out a file with NUL bytes (an image named .md), and reads bytes that are not UTF-8 as Windows-1252, saying so', () => {
    expect(readText(bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]))).toEqual({ unreadable: 'binary content (NUL bytes), not text' });
    expect(readText(bytes('Caf', [0xe9], ' au lait, 5 ', [0x80]))).toEqual({ text: 'Café au lait, 5 €', note: 'not valid UTF-8; read as Windows-1252 (save it as UTF-8 to be sure)' });
  });

  it("an HTML page's own <meta charset> is honoured, as a browser reads it; Markdown and text declare nothing", () => {
    const cyrillic = [0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]; // "Привет" in Windows-1251
    expect(readText(bytes('<html><head><meta charset="windows-1251"><title>', cyrillic, '</title>'), 'html')).toEqual({ text: '<html><head><meta charset="windows-1251"><title>Привет</title>' });
    expect(readText(bytes('<meta http-equiv="Content-Type" content="text/html; charset=windows-1251"><p>', cyrillic), 'html')).toEqual({ text: '<meta http-equiv="Content-Type" content="text/html; charset=windows-1251"><p>Привет' });
    // A label no decoder knows, or one that says UTF-8 of bytes that are not, falls back with the warning.
    for (const label of ['x-unknown', 'utf-8']) expect(readText(bytes(`<meta charset="${label}"><p>Caf`, [0xe9]), 'html')).toMatchObject({ text: `<meta charset="${label}"><p>Café`, note: expect.stringContaining('not valid UTF-8') as string });
    expect(readText(bytes('<meta charset="windows-1251"> Caf', [0xe9]), 'markdown')).toMatchObject({ text: '<meta charset="windows-1251"> Café', note: expect.stringContaining('Windows-1252') as string });
  });

  it('indexFiles builds what it can read, reports what it leaves out or reads with a caveat, and walks a folder that links to itself once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tl-read-text-'));
    mkdirSync(join(dir, 'docs'));
    writeFileSync(join(dir, 'docs', 'refunds.md'), '# Refunds\n\nReturns are accepted within 30 days of delivery.');
    writeFileSync(join(dir, 'docs', 'logo.md'), bytes([0x89], 'PNG', [0, 0, 0, 0x0d], 'IHDR'));
    writeFileSync(join(dir, 'docs', 'menu.txt'), bytes('Caf', [0xe9], ' au lait costs 5 euros.'));
    symlinkSync('..', join(dir, 'docs', 'up'));
    symlinkSync(join(dir, 'nowhere.md'), join(dir, 'docs', 'dangling.md'));
    const skipped: string[] = [];
    const warnings: string[] = [];
    const built = await indexFiles(['docs'], {
      cwd: dir, model: `${resolve(import.meta.dirname, '../../.models/threadline-glove-30k')}/`,
      onSkipped: (file, reason) => skipped.push(`${file}: ${reason}`), onWarning: (file, message) => warnings.push(`${file}: ${message}`),
    });
    expect(skipped).toEqual(['logo.md: binary content (NUL bytes), not text']);
    expect(warnings).toEqual(['menu.txt: not valid UTF-8; read as Windows-1252 (save it as UTF-8 to be sure)']);
    const index = await decodePrebuilt(built.bytes);
    // Through the link back up, docs/ is met once more as up/docs/: a folder is read once, whatever its path.
    expect(index.docs.map((d) => d.id).sort()).toEqual(['menu.txt', 'refunds.md']);
    expect(index.chunks.find((c) => c.docId === 'menu.txt')?.text).toContain('Café au lait');
    // Nothing readable at all is an error that says so.
    await expect(indexFiles(['docs/logo.md'], { cwd: dir, model: `${resolve(import.meta.dirname, '../../.models/threadline-glove-30k')}/` })).rejects.toThrow('no readable documents in docs/logo.md');
  });

  it('the playground reads dropped files the same way: an image named .md is listed as skipped, a Latin-1 file read right', async () => {
    const read = await readDocuments([
      new File([bytes([0x89], 'PNG', [0, 0, 0, 0x0d])], 'logo.md'),
      new File([bytes('Caf', [0xe9], ' au lait.')], 'menu.txt'),
      new File(['# Refunds\n\nWithin 30 days.'], 'refunds.md'),
    ]);
    expect(read.skipped).toEqual([{ name: 'logo.md', reason: 'binary content (NUL bytes), not text' }]);
    expect(read.docs.map((d) => [d.id, 'text' in d ? d.text : ''])).toEqual([['menu.txt', 'Café au lait.'], ['refunds.md', '# Refunds\n\nWithin 30 days.']]);
  });
});
