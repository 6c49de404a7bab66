import { describe, expect, it } from 'vitest';
import { exposeRetriever, type ServedRetriever } from '../../src/worker/expose-retriever';
import type { WorkerInit } from '../../src/worker/protocol';
import { STAGE_CHARS, STAGED, stagedParts } from '../../src/worker/staged-documents';

/** A retriever that keeps what add() received (the worker transport without comlink; cloning is comlink's part). */
function recording() {
  const received: unknown[] = [];
  const served = { add: (docs: unknown) => { received.push(docs); return Promise.resolve({ added: Array.isArray(docs) ? docs.length : 0 }); }, close: () => undefined, stats: () => Promise.resolve({ docs: 0 }) } as unknown as ServedRetriever;
  return { received, port: exposeRetriever(() => Promise.resolve(served), { add: 1 }) };
}

describe('large add() calls cross to the worker in parts (staged-documents.ts)', () => {
  it('leaves a small call whole, and no array to the worker to refuse', () => {
    expect(stagedParts([{ id: 'a', text: 'x'.repeat(STAGE_CHARS) }])).toBeNull();
    expect(stagedParts('not an array')).toBeNull();
  });

  it('cuts documents into messages of at most STAGE_CHARS characters, and the worker puts back exactly what was sent, in order', async () => {
    // A surrogate pair straddles the first cut of the long text; a binary document and a non-document ride along.
    const long = `${'a'.repeat(STAGE_CHARS - 1)}😀${'b'.repeat(STAGE_CHARS * 2)}`;
    const docs: unknown[] = [
      { id: 'one', text: 'c'.repeat(STAGE_CHARS / 2), title: 'One', metadata: { n: 1 } },
      { id: 'long', text: long, format: 'markdown' },
      { id: 'pdf', text: new ArrayBuffer(16), format: 'pdf' },
      { id: 'two', text: 'd'.repeat(STAGE_CHARS - 10) },
      42,
    ];
    const parts = stagedParts(docs);
    expect(parts).not.toBeNull();
    for (const message of parts ?? []) {
      const chars = message.reduce((n, part) => n + ('more' in part ? part.more.length : typeof (part.doc as { text?: unknown }).text === 'string' ? ((part.doc as { text: string }).text.length) : 0), 0);
      expect(chars).toBeLessThanOrEqual(STAGE_CHARS);
    }
    expect(docs[1]).toMatchObject({ text: long }); // the caller's document is not cut

    const { received, port } = recording();
    await port.init({} as WorkerInit);
    for (const message of parts ?? []) await port.stage(7, message);
    expect(await port.invoke('add', [STAGED, {}], 7)).toMatchObject({ ok: true, value: { added: 5 } });
    expect(received).toEqual([docs]);
    // Taken once: a second call under the same id finds nothing staged, and the marker reaches the engine as it
    // came (a caller's own { staged: true } is refused there as no array, not read as an empty list).
    expect(await port.invoke('add', [STAGED, {}], 7)).toMatchObject({ ok: true, value: { added: 0 } });
    expect(received[1]).toEqual(STAGED);
  });

  it('embed()\'s texts cross the same way: a long string split and put back whole', async () => {
    const texts = ['short', 'x'.repeat(STAGE_CHARS * 2 + 3), 'y'.repeat(STAGE_CHARS)];
    const parts = stagedParts(texts) ?? [];
    expect(parts.length).toBeGreaterThanOrEqual(4);
    const received: unknown[] = [];
    const served = { embed: (list: unknown) => { received.push(list); return Promise.resolve(new Float32Array(0)); }, close: () => undefined, stats: () => Promise.resolve({ docs: 0 }) } as unknown as ServedRetriever;
    const port = exposeRetriever(() => Promise.resolve(served), { embed: 1 });
    await port.init({} as WorkerInit);
    for (const message of parts) await port.stage(9, message);
    expect(await port.invoke('embed', [STAGED, {}], 9)).toMatchObject({ ok: true });
    expect(received).toEqual([texts]);
  });

  it('an abort drops what was staged for the call', async () => {
    const { received, port } = recording();
    await port.init({} as WorkerInit);
    const parts = stagedParts([{ id: 'a', text: 'x'.repeat(STAGE_CHARS * 2) }]) ?? [];
    await port.stage(3, parts[0]);
    port.abort(3);
    for (const message of parts.slice(1)) await port.stage(3, message);
    await port.invoke('add', [STAGED, {}], 3);
    // Only what came after the abort is left: a document-less remainder, which puts nothing together.
    expect(received).toEqual([[]]);
    port.abort(3);
    await port.invoke('add', [STAGED, {}], 3);
    expect(received[1]).toEqual(STAGED);
  });
});
