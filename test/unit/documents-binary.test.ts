import 'fake-indexeddb/auto';
import { createHash } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Embedder } from '../../src/embedding/embedder';
import { loadEmbedder } from '../../src/embedding/load-embedder';
import { loadMammoth, loadPdfjs } from '../../src/ingest/binary-parsers';
import { parseDocx } from '../../src/ingest/docx';
import { parsePdf } from '../../src/ingest/pdf';
import { checkZip } from '../../src/ingest/zip-guard';
import type { Progress } from '../../src/progress';
import { RetrievalEngine } from '../../src/worker/retrieval-engine';
import { MODEL, engineConfig } from '../fixtures/engine';
import { writeDocx, writeZip } from '../fixtures/docx-writer';
import { column, section, writePdf } from '../fixtures/pdf-writer';

const md5 = (bytes: Uint8Array) => new Uint8Array(createHash('md5').update(bytes).digest());

/** A 3-page manual with an outline, a running header and footer, and a word hyphenated across a line end. */
function manual(): Uint8Array {
  const page = (n: number, [heading, ...lines]: string[]) => ({ lines: [{ text: 'Harbor Manual', x: 72, y: 770 }, ...section(heading ?? '', lines), { text: `Page ${n} of 3`, x: 280, y: 40 }] });
  return writePdf({
    pages: [
      page(1, ['Installing Harbor', 'Download the installer and run it. The setup takes a few min-', 'utes on most machines.']),
      page(2, ['Backups', 'Harbor copies your library to the backup folder every night.']),
      page(3, ['Troubleshooting', 'If the sync stalls, restart the Harbor service from the tray icon.']),
    ],
    outline: [{ title: 'Installation', page: 1 }, { title: 'Backups', page: 2 }, { title: 'Troubleshooting', page: 3 }],
  });
}

let pdfjs: Awaited<ReturnType<typeof loadPdfjs>>;
let embedder: Embedder;
let unique = 0;
/** expect.stringMatching, typed (vitest types it as any). */
const stringMatching = (pattern: RegExp): unknown => expect.stringMatching(pattern) as unknown;

beforeAll(async () => {
  pdfjs = await loadPdfjs();
  embedder = await loadEmbedder({ model: MODEL });
});

describe('PDF parsing (pdf.js, files the test writes)', () => {
  it('text per page in order, hyphenation joined, running header and footer dropped, headings from the outline', async () => {
    const pages: number[] = [];
    const parsed = await parsePdf(manual(), pdfjs, 'manual.pdf', { onPage: (n) => pages.push(n) });
    expect(pages).toEqual([1, 2, 3]);
    expect(parsed.pages).toBe(3);
    expect(parsed.text).toContain('takes a few minutes on most machines.');
    expect(parsed.text).not.toMatch(/Harbor Manual|Page \d of 3/);
    expect(parsed.sections.map((s) => [s.page, s.headingPath])).toEqual([[1, ['Installation']], [2, ['Backups']], [3, ['Troubleshooting']]]);
    // The heading line (larger type) is a paragraph of its own.
    expect(parsed.text.slice(parsed.sections[1]?.start, parsed.sections[1]?.end)).toBe('Backups\n\nHarbor copies your library to the backup folder every night.');
  });

  it('a two-column page reads the left column, then the right, without merging lines that share a baseline', async () => {
    const left = column(['Left column first line', 'left column second line.']);
    const right = column(['Right column first line', 'right column second line.'], 330);
    const parsed = await parsePdf(writePdf({ pages: [{ lines: [...left, ...right] }] }), pdfjs, 'columns.pdf');
    expect(parsed.text).toBe('Left column first line left column second line.\n\nRight column first line right column second line.');
  });

  it('an encrypted file says it needs a password', async () => {
    const file = writePdf({ pages: [{ lines: column(['Secret plans.']) }], encrypt: { userPassword: 'hunter2', ownerPassword: 'owner', md5 } });
    await expect(parsePdf(file, pdfjs, 'secret.pdf')).rejects.toMatchObject({ code: 'UNREADABLE_DOCUMENT', details: { reason: 'encrypted' }, message: stringMatching(/needs a password/) });
  });

  it('a scan (pages of images, no text layer) says so, and that there is no OCR', async () => {
    await expect(parsePdf(writePdf({ pages: [{ image: true }, { image: true }] }), pdfjs, 'scan.pdf'))
      .rejects.toMatchObject({ code: 'UNREADABLE_DOCUMENT', details: { reason: 'no-text', pages: 2 }, message: stringMatching(/no text layer.*OCR/) });
  });

  it.each([
    ['not a PDF at all', new TextEncoder().encode('<html>definitely not a pdf</html>')],
    ['empty', new Uint8Array(0)],
    ['random bytes', Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919) & 0xff)],
  ])('%s: a typed error, not a crash', async (_label, bytes) => {
    await expect(parsePdf(bytes, pdfjs, 'bad.pdf')).rejects.toMatchObject({ code: 'UNREADABLE_DOCUMENT' });
  });

  it('a truncated file either yields the pages it still has or a typed error', async () => {
    const file = manual();
    for (const keep of [0.3, 0.6, 0.9]) {
      const cut = file.subarray(0, Math.floor(file.length * keep));
      const outcome = await parsePdf(cut, pdfjs, 'cut.pdf').then((p) => p.text, (e: unknown) => e);
      if (typeof outcome !== 'string') expect(outcome).toMatchObject({ code: 'UNREADABLE_DOCUMENT' });
    }
  });

  it('pages of one templated line each keep it: a page\'s only line is never taken for a running header', async () => {
    const pages = Array.from({ length: 12 }, (_, i) => ({ lines: column([`Step ${i + 1}: check the pump seal ${i + 1}.`]) }));
    const parsed = await parsePdf(writePdf({ pages }), pdfjs, 'steps.pdf');
    expect(parsed.sections).toHaveLength(12);
    expect(parsed.text).toContain('Step 12: check the pump seal 12.');
  });

  it('stops between pages when aborted', async () => {
    const controller = new AbortController();
    const pages = Array.from({ length: 20 }, (_, i) => ({ lines: column([`Page ${i + 1} talks about topic ${i}.`]) }));
    const parsing = parsePdf(writePdf({ pages }), pdfjs, 'long.pdf', { signal: controller.signal, onPage: (n) => { if (n === 3) controller.abort(); } });
    await expect(parsing).rejects.toMatchObject({ code: 'ABORTED' });
  });
});

describe('Word parsing (mammoth, files the test writes)', () => {
  it('headings become the heading path; lists and tables become text', async () => {
    const mammoth = await loadMammoth();
    const parsed = await parseDocx(writeDocx([
      { heading: 1, text: 'Returns' },
      { text: 'You can return any item within 30 days.' },
      { heading: 2, text: 'Damaged items' },
      { list: ['Take a photo of the damage', 'Contact support within 48 hours'] },
      { table: [['Plan', 'Price'], ['Pro', '12 EUR']] },
    ]), mammoth, 'policy.docx');
    const sectionOf = (needle: string) => parsed.sections.find((s) => parsed.text.slice(s.start, s.end).includes(needle));
    expect(sectionOf('30 days')?.headingPath).toEqual(['Returns']);
    expect(sectionOf('48 hours')?.headingPath).toEqual(['Returns', 'Damaged items']);
    expect(parsed.text).toMatch(/Take a photo of the damage/);
    expect(parsed.text).toMatch(/Pro[\s\S]*12 EUR/);
  });

  it('a zip bomb (declared or lying about its size) is refused before it is inflated; a non-zip is refused', async () => {
    const huge = deflateRawSync(new Uint8Array(300 * 1024 * 1024));
    const declared = writeZip([{ name: 'word/document.xml', data: huge, size: 300 * 1024 * 1024, method: 8 }]);
    await expect(checkZip(declared, 'bomb.docx')).rejects.toMatchObject({ code: 'UNREADABLE_DOCUMENT', details: { reason: 'too-large' } });
    const lying = writeZip([{ name: 'word/document.xml', data: huge, size: 1000, method: 8 }]);
    await expect(checkZip(lying, 'bomb.docx')).rejects.toMatchObject({ code: 'UNREADABLE_DOCUMENT', details: { reason: 'too-large' } });
    await expect(parseDocx(new TextEncoder().encode('plain text, not a zip'), await loadMammoth(), 'x.docx')).rejects.toMatchObject({ code: 'UNREADABLE_DOCUMENT', details: { reason: 'malformed' } });
    const docx = writeDocx([{ heading: 1, text: 'Returns' }, { text: 'Return any item within 30 days.' }]);
    for (const keep of [0.2, 0.5, 0.95]) {
      await expect(parseDocx(docx.subarray(0, Math.floor(docx.length * keep)), await loadMammoth(), 'cut.docx')).rejects.toMatchObject({ code: 'UNREADABLE_DOCUMENT', details: { reason: 'malformed' } });
    }
  });
});

describe('add() with PDF and Word documents (real offline model)', () => {
  const open = () => RetrievalEngine.open(engineConfig(`binary-${unique++}`), () => Promise.resolve(embedder));

  it('chunks know their page; search hits carry it; one bad file in a batch never refuses the others', async () => {
    const events: Progress[] = [];
    const engine = await open();
    const result = await engine.add([
      { id: 'manual.pdf', data: manual(), format: 'pdf' },
      { id: 'scan.pdf', data: writePdf({ pages: [{ image: true }] }), format: 'pdf' },
      { id: 'policy.docx', data: new Blob([writeDocx([{ heading: 1, text: 'Returns' }, { text: 'Return any item within 30 days.' }]) as Uint8Array<ArrayBuffer>]), format: 'docx' },
    ], { skipInvalid: true, onProgress: (p) => events.push(p) });
    expect(result).toMatchObject({ added: 2, failed: [{ index: 1, id: 'scan.pdf', code: 'UNREADABLE_DOCUMENT' }] });
    const [hit] = await engine.search('restart the sync service', { k: 1 });
    expect(hit).toMatchObject({ docId: 'manual.pdf', page: 3, headingPath: ['Troubleshooting'] });
    expect((await engine.search('return within 30 days', { k: 1 }))[0]).toMatchObject({ docId: 'policy.docx' });
    expect(events.filter((e) => e.phase === 'parse')).toContainEqual({ phase: 'parse', docId: 'manual.pdf', page: 3, pages: 3 });
    // The same bytes again: unchanged, nothing parsed.
    expect(await engine.add([{ id: 'manual.pdf', data: manual(), format: 'pdf' }])).toMatchObject({ added: 0, unchanged: 1 });
    engine.close();
  });

  it('without skipInvalid, an unreadable file fails the call before anything is written', async () => {
    const engine = await open();
    await expect(engine.add([
      { id: 'ok.pdf', data: manual(), format: 'pdf' },
      { id: 'scan.pdf', data: writePdf({ pages: [{ image: true }] }), format: 'pdf' },
    ])).rejects.toMatchObject({ code: 'UNREADABLE_DOCUMENT', details: { reason: 'no-text', id: 'scan.pdf' } });
    expect((await engine.stats()).docs).toBe(0);
    engine.close();
  });

  it.each([
    ['data without a binary format', { id: 'a', data: new Uint8Array(3) }, /format/],
    ['a PDF given as text', { id: 'a', text: '%PDF-1.7', format: 'pdf' }, /data/],
    ['data that is not bytes', { id: 'a', data: 'abc', format: 'pdf' }, /ArrayBuffer, Uint8Array or Blob/],
  ])('%s is INVALID_INPUT naming the fix', async (_label, doc, message) => {
    const engine = await open();
    await expect(engine.add([doc])).rejects.toMatchObject({ code: 'INVALID_INPUT', message: stringMatching(message) });
    engine.close();
  });
});
