/**
 * PDF and Word files through the real worker in Chromium: pdf.js and mammoth
 * are imported lazily inside the retrieval worker, from the page's origin.
 */
import { describe, expect, it } from 'vitest';
import { createThreadline } from '../../src/index';
import { writeDocx } from '../fixtures/docx-writer';
import { column, harborManual, writePdf } from '../fixtures/pdf-writer';
import { freshName, sampleDocs } from './helpers';

/**
 * A long manual of full pages (40 lines each): slow enough to read (seconds)
 * that a progress event's round trip to the page is sure to arrive mid-read,
 * even on a loaded machine.
 */
function longManual(label: string, pages: number): Uint8Array {
  return writePdf({
    pages: Array.from({ length: pages }, (_, p) => ({
      lines: column(Array.from({ length: 40 }, (_, l) => `${label} page ${p + 1}, line ${l + 1}: check the pump seal and the valve before step ${p * 40 + l}.`)),
    })),
  });
}


describe('PDF and Word files in Chromium (real worker)', () => {
  it('a PDF (as a Blob, as a file input gives it) and a Word file are indexed; answers cite the page', async () => {
    const tl = await createThreadline({ name: freshName('files') });
    const pages: number[] = [];
    const result = await tl.add([
      { id: 'Harbor.pdf', data: new Blob([harborManual() as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }), format: 'pdf' },
      { id: 'Returns.docx', data: writeDocx([{ heading: 1, text: 'Returns' }, { text: 'Return any item within 30 days for a full refund.' }]), format: 'docx' },
      { id: 'Scan.pdf', data: writePdf({ pages: [{ image: true }] }), format: 'pdf' },
    ], { skipInvalid: true, onProgress: (p) => { if (p.phase === 'parse') pages.push(p.page); } });
    expect(result).toMatchObject({ added: 2, failed: [{ index: 2, id: 'Scan.pdf', code: 'UNREADABLE_DOCUMENT', reason: 'no-text' }] });
    await expect.poll(() => pages).toEqual([1, 2, 3, 1]); // progress travels on ports of its own: it may trail the result
    expect((await tl.search('restart the sync service', { k: 1 }))[0]).toMatchObject({ docId: 'Harbor.pdf', page: 3, title: 'Harbor.pdf' });
    const chat = await tl.chat();
    const citations: string[] = [];
    for await (const event of chat.ask('what if the sync stalls?')) if (event.type === 'done') citations.push(...event.citations.map((c) => c.label));
    expect(citations).toContain('Harbor.pdf › Troubleshooting, p. 3');
    expect((await tl.search('refund within 30 days', { k: 1 }))[0]).toMatchObject({ docId: 'Returns.docx', headingPath: ['Returns'] });
    // The reader holds its life lock (how its death is noticed), and goes with the instance.
    const readerLocks = async () => ((await navigator.locks.query()).held ?? []).filter((l) => l.name?.startsWith('threadline-documents-')).length;
    expect(await readerLocks()).toBe(1);
    await tl.dispose();
    await expect.poll(readerLocks, { timeout: 5_000 }).toBe(0);
  });

  it('a long PDF is read in a worker of its own: searches answer meanwhile, abort stops it between pages, the next file reads', async () => {
    const tl = await createThreadline({ name: freshName('long-pdf') });
    await tl.add(sampleDocs);
    const long = longManual('Pump', 400);
    const controller = new AbortController();
    let lastPage = 0;
    const probe: { during?: Promise<{ hits: { docId: string }[]; pageThen: number }> } = {};
    const adding = tl.add([{ id: 'long.pdf', data: long, format: 'pdf' }], {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.phase !== 'parse') return;
        lastPage = p.page;
        if (p.page === 5) probe.during = tl.search('refund window', { k: 1 }).then((hits) => ({ hits, pageThen: lastPage }));
        if (p.page === 30) controller.abort();
      },
    });
    await expect(adding).rejects.toMatchObject({ code: 'ABORTED' });
    expect(lastPage).toBeLessThan(400);
    const during = await probe.during;
    expect(during?.hits[0]?.docId).toBe('refunds');
    expect(during?.pageThen).toBeLessThan(400); // answered before the read would have finished
    expect((await tl.documents()).some((d) => d.id === 'long.pdf')).toBe(false);
    expect(await tl.add([{ id: 'short.pdf', data: writePdf({ pages: [{ lines: column(['A short note about pumps.']) }] }), format: 'pdf' }])).toMatchObject({ added: 1 });
    await tl.dispose();
  });

  it('two calls read at once; aborting one (its read queued behind the other\'s) leaves the other to finish', async () => {
    const tl = await createThreadline({ name: freshName('two-reads') });
    const controller = new AbortController();
    // b's long read goes first; a's waits behind it in the reader and is aborted while b reads.
    const kept = tl.add([{ id: 'b.pdf', data: longManual('Beta', 120), format: 'pdf' }], {
      onProgress: (p) => { if (p.phase === 'parse' && p.page === 10) controller.abort(); },
    });
    const cancelled = tl.add([{ id: 'a.pdf', data: longManual('Alpha', 20), format: 'pdf' }], { signal: controller.signal });
    await expect(cancelled).rejects.toMatchObject({ code: 'ABORTED' });
    expect(await kept).toMatchObject({ added: 1, failed: [] });
    expect((await tl.documents()).map((d) => d.id)).toEqual(['b.pdf']);
    await tl.dispose();
  });
});
