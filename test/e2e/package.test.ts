import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { readPrebuiltHeader } from '../../src/prebuilt/format';
import { writeDocx } from '../fixtures/docx-writer';
import { harborManual } from '../fixtures/pdf-writer';
import { installPacked, requireBuild, root } from './built';

const run = promisify(execFile);

beforeAll(() => requireBuild());

describe('the published package (npm pack, installed into an empty project)', () => {
  it('gives a working `npx threadline` and importable entry points', async () => {
    const dir = join(root, 'test-results/package');
    await installPacked(dir);
    mkdirSync(join(dir, 'docs'));
    writeFileSync(join(dir, 'docs/refunds.md'), '# Refunds\n\n## Window\nReturns within 30 days.\n');
    // The bin reads PDF and Word through the package's own threadline/build (a self-reference by name), not a copy of the readers.
    writeFileSync(join(dir, 'docs/manual.pdf'), harborManual());
    writeFileSync(join(dir, 'docs/returns.docx'), writeDocx([{ heading: 1, text: 'Returns' }, { text: 'Return any item within 30 days.' }]));
    await run('npx', ['threadline', 'index', 'docs', '-o', 'public/site.tlix'], { cwd: dir, timeout: 60_000 });
    await run('npx', ['threadline', 'element', 'public/threadline'], { cwd: dir, timeout: 60_000 });
    expect(readPrebuiltHeader(new Uint8Array(readFileSync(join(dir, 'public/site.tlix')))).header).toMatchObject({ docs: 3, modelId: 'threadline-glove-30k#int8-v2' });
    for (const file of ['threadline-chat.js', 'threadline-glove-30k/model.safetensors']) expect(existsSync(join(dir, 'public/threadline', file)), file).toBe(true);
    expect(readdirSync(join(dir, 'public/threadline')).some((f) => /^retrieval\.worker-.*\.js$/.test(f))).toBe(true);
    // threadline/element too: a server render (SvelteKit, Astro, VitePress) imports it in Node, where it must define nothing and throw nothing.
    const imported = await run(process.execPath, ['-e', "Promise.all([import('threadline'), import('threadline/render'), import('threadline/build'), import('threadline/element')]).then(([m, r, b, e]) => console.log(typeof m.createThreadline, typeof r.renderMarkdown, typeof b.buildPrebuiltIndex, typeof e.ThreadlineChat))"], { cwd: dir, timeout: 60_000 });
    expect(imported.stdout.trim()).toBe('function function function function');
    // threadline/build reads PDF and Word files in Node from the installed package (pdf.js and mammoth bundled in it).
    writeFileSync(join(dir, 'manual.pdf'), harborManual());
    writeFileSync(join(dir, 'returns.docx'), writeDocx([{ heading: 1, text: 'Returns' }, { text: 'Return any item within 30 days.' }]));
    const read = await run(process.execPath, ['--input-type=module', '-e', [
      "import { readFileSync } from 'node:fs'; import { readInProcess } from 'threadline/build';",
      "const pdf = await readInProcess({ id: 'manual.pdf', format: 'pdf' }, new Uint8Array(readFileSync('manual.pdf')), {});",
      "const docx = await readInProcess({ id: 'returns.docx', format: 'docx' }, new Uint8Array(readFileSync('returns.docx')), {});",
      "console.log(JSON.stringify({ pages: pdf.pages, headings: pdf.sections.map((s) => s.headingPath[0]), docx: docx.text }));",
    ].join(' ')], { cwd: dir, timeout: 60_000 });
    expect(JSON.parse(read.stdout.trim())).toEqual({ pages: 3, headings: ['Installation', 'Backups', 'Troubleshooting'], docx: 'Return any item within 30 days.' });
  }, 300_000);
});
