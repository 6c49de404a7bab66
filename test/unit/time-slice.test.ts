/**
 * Long synchronous work in the worker (parsing, chunking, tokenizing and embedding a large document) is cut
 * into stretches: the results are those of the work done at once, and an abort stops it between two.
 */
import { describe, expect, it } from 'vitest';
import { loadEmbedder } from '../../src/embedding/load-embedder';
import { readInProcess } from '../../src/ingest/binary-reader';
import { prepareDocument } from '../../src/ingest/prepare';
import { buildSegments, buildSegmentsSliced } from '../../src/retrieval/lexical-segment';
import { TimeSlice } from '../../src/util/time-slice';

/** A Markdown document of about `chars` characters: sections of sentences over a small vocabulary. */
function largeMarkdown(chars: number): string {
  const words = ['refund', 'window', 'damaged', 'parcel', 'invoice', 'warranty', 'courier', 'receipt', 'exchange', 'voucher', 'the', 'of', 'and'];
  const parts: string[] = [];
  let size = 0;
  for (let s = 0; size < chars; s++) {
    const section = [`## Section ${s}`];
    for (let k = 0; k < 20; k++) section.push(`${Array.from({ length: 12 }, (_, j) => words[(s * 7 + k * 5 + j * 3) % words.length]).join(' ')} ${s}.${k}.`);
    const text = section.join('\n');
    parts.push(text);
    size += text.length + 2;
  }
  return parts.join('\n\n');
}

describe('work in stretches (time-slice.ts)', () => {
  it('BM25 segments built a text at a time are the segments built at once', async () => {
    const texts = Array.from({ length: 700 }, (_, i) => `Chunk ${i}: refunds for damaged parcels, ${i % 7} couriers and receipts; café naïve ${i % 3}`);
    expect(await buildSegmentsSliced(texts, 256, new TimeSlice(undefined, 0))).toEqual(buildSegments(texts, 256));
  });

  it('the static embedder embeds many texts a stretch at a time: an abort stops it between two (ABORTED), where it had run to its end', async () => {
    const embedder = await loadEmbedder({ model: `${import.meta.dirname}/../../.models/threadline-glove-30k/` });
    const texts = Array.from({ length: 5_000 }, (_, i) => `refunds for damaged parcels and late couriers, receipt number ${i}, `.repeat(4));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 5);
    await expect(embedder.embed(texts, { signal: controller.signal })).rejects.toMatchObject({ code: 'ABORTED' });
    const few = texts.slice(0, 3);
    const at = await embedder.embed(few);
    expect(Array.from(await embedder.embed(few, { signal: new AbortController().signal }))).toEqual(Array.from(at));
  });

  it('an abort while a large document is parsed and chunked stops it between two stretches (ABORTED), where it had run to its end', async () => {
    const embedder = await loadEmbedder({ model: `${import.meta.dirname}/../../.models/threadline-glove-30k/` });
    const doc = { id: 'big', format: 'markdown' as const, text: largeMarkdown(4_000_000) };
    const whole = performance.now();
    const prepared = await prepareDocument(doc, 'hash', embedder, {}, { readBinary: readInProcess, slice: new TimeSlice() });
    const wholeMs = performance.now() - whole;
    expect(prepared.chunks.length).toBeGreaterThan(1000);
    const controller = new AbortController();
    const started = performance.now();
    // The abort is a task of its own: it can only run when the preparation lets the event loop turn.
    setTimeout(() => controller.abort(), 5);
    await expect(prepareDocument(doc, 'hash', embedder, {}, { readBinary: readInProcess, signal: controller.signal, slice: new TimeSlice(controller.signal) })).rejects.toMatchObject({ code: 'ABORTED' });
    expect(performance.now() - started).toBeLessThan(wholeMs / 2);
  });
});
