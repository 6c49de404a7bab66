import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { createThreadline, isThreadlineError, type AddOptions, type Progress } from '../../src/index';
import { auditStore, bulkDocs, capturingWorkers, freshName, sampleDocs, within } from './helpers';

const QUESTIONS = ['what is the refund window?', 'how do I track my order?', 'which plan has shared team notebooks?', 'reset password link'];

describe('retrieval in Chromium (real worker, real IndexedDB, real offline model)', () => {
  it('restores in a new worker with identical results and zero embedding calls', async () => {
    const name = freshName('restore');
    const a = await createThreadline({ name });
    await a.add(sampleDocs);
    const before = await Promise.all(QUESTIONS.map((q) => a.search(q, { k: 4 })));
    expect(before[0]?.[0]?.headingPath).toEqual(['Refund policy', 'Refund window']);
    await a.dispose();

    const progress: Progress[] = [];
    const b = await createThreadline({ name, onProgress: (p) => progress.push(p) });
    const stats = await b.stats();
    expect(stats).toMatchObject({ docs: sampleDocs.length, embeddedChunks: 0, embeddedQueries: 0 });
    expect(progress.find((p) => p.phase === 'hydrate')).toMatchObject({ phase: 'hydrate', chunks: stats.chunks });
    const lexical = await b.search('refund window', { mode: 'lexical' });
    expect(lexical.length).toBeGreaterThan(0);
    expect((await b.stats()).embeddedQueries).toBe(0); // lexical search needs no model
    const after = await Promise.all(QUESTIONS.map((q) => b.search(q, { k: 4 })));
    expect(after).toEqual(before);
    expect((await b.stats()).embeddedChunks).toBe(0);
    await b.dispose();
  });

  it('every progress event of a call is heard before the call settles, though the events cross from the worker on a port of their own', async () => {
    const name = freshName('order');
    const tl = await createThreadline({ name });
    for (let round = 0; round < 5; round++) {
      const ingest: Progress[] = [];
      const docs = bulkDocs(40).map((d) => ({ ...d, id: `${round}-${d.id}` }));
      const result = await tl.add(docs, { onProgress: (p) => { if (p.phase === 'ingest') ingest.push(p); } });
      expect(ingest.at(-1)).toMatchObject({ docsDone: docs.length, docsTotal: docs.length, chunksDone: result.chunks });
    }
    await tl.dispose();
  });

  it('keeps names apart', async () => {
    const one = await createThreadline({ name: freshName('iso-a') });
    const two = await createThreadline({ name: freshName('iso-b') });
    await one.add([{ id: 'x', text: 'Only in the first index: zebra crossings.' }]);
    expect(await two.search('zebra crossings')).toEqual([]);
    expect((await one.search('zebra crossings'))[0]?.docId).toBe('x');
    await one.dispose();
    await two.dispose();
  });

  it('a conversation typed in lower case is read with the capitals the stored documents use (after a reload)', async () => {
    const name = freshName('forms');
    const a = await createThreadline({ name });
    await a.add(sampleDocs);
    await a.dispose();
    const tl = await createThreadline({ name });
    const stats = await tl.termStats(['plus', 'pro', 'refund'], { forms: true });
    expect(stats.terms.map((t) => t.form)).toEqual(['Plus', 'Pro', undefined]);
    expect((await tl.termStats(['plus'])).terms[0]?.form).toBeUndefined();
    const chat = await tl.chat();
    // Every event is read: breaking out of the loop would cancel the turn, and the next would have no history.
    const asked = async (q: string) => {
      let question = '';
      for await (const e of chat.ask(q)) if (e.type === 'condensed') question = e.question;
      return question;
    };
    await asked('how much is the pro plan');
    expect(await asked('and plus')).toBe('how much is the Plus plan?');
    await tl.dispose();
  });

  it('abort mid-ingest leaves whole documents only, and memory equals storage', async () => {
    const name = freshName('abort');
    const workers = capturingWorkers();
    const tl = await createThreadline({ name, worker: workers.factory, chunking: { maxTokens: 32, overlapTokens: 0 } });
    const controller = new AbortController();
    // About 10,000 chunks: more than the first group and the largest second one (ingest-batches.ts) hold, so the
    // abort, which reaches the worker while the second group is stored, always finds work left to stop.
    const run = tl.add(bulkDocs(360), { signal: controller.signal, onProgress: (p) => { if (p.phase === 'ingest') controller.abort(); } });
    await expect(run).rejects.toMatchObject({ code: 'ABORTED' });
    const audit = await auditStore(name);
    expect(audit).toMatchObject({ partialDocs: [], duplicateChunks: 0, danglingVectors: 0 });
    expect(audit.docs.length).toBeGreaterThan(0);
    expect(audit.docs.length).toBeLessThan(360);
    expect(await workers.memoryKeys()).toEqual(audit.chunks.map((c) => c.key).sort((a, b) => a - b));
    await tl.dispose();
  });

  it('a large add() or embed() crosses to the worker in parts, no message over 256k characters of text; aborted at once it rejects with ABORTED and stores nothing, and sent again it indexes every document', async () => {
    const name = freshName('staged');
    const workers = capturingWorkers();
    // The characters of text each message to the worker carries (comlink's messages, counted as cloning walks them).
    const carried: number[] = [];
    const chars = (value: unknown, depth = 0): number => (typeof value === 'string' ? value.length
      : typeof value === 'object' && value !== null && depth < 8 ? Object.values(value).reduce((n: number, v) => n + chars(v, depth + 1), 0) : 0);
    const tl = await createThreadline({ name, worker: () => {
      const worker = workers.factory();
      const post = worker.postMessage.bind(worker) as (message: unknown, transfer: Transferable[]) => void;
      worker.postMessage = ((message: unknown, transfer: Transferable[] = []) => { carried.push(chars(message)); post(message, transfer); }) as typeof worker.postMessage;
      return worker;
    } });
    // Two megabytes of text in eight documents, and one long document of its own.
    const big = Array.from({ length: 8 }, (_, i) => ({ id: `big-${i}`, text: `Document ${i} about shipping zone ${i}. ${'Parcels travel by road and rail. '.repeat(8_000)}` }));
    big.push({ id: 'long', text: `The long one about customs forms. ${'Forms are filled in online. '.repeat(40_000)}` });
    const controller = new AbortController();
    const run = tl.add(big, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 0));
    controller.abort();
    await expect(run).rejects.toMatchObject({ code: 'ABORTED' });
    expect(await auditStore(name)).toMatchObject({ docs: [], partialDocs: [] });
    carried.length = 0;
    expect(await tl.add(big)).toMatchObject({ added: 9, failed: [] });
    expect(carried.length).toBeGreaterThan(10);
    expect(Math.max(...carried)).toBeLessThanOrEqual(256 * 1024 + 1_000);
    expect((await tl.search('shipping zone 5', { k: 1, mode: 'lexical' }))[0]?.docId).toBe('big-5');
    expect((await tl.search('customs forms', { k: 1, mode: 'lexical' }))[0]?.docId).toBe('long');
    expect((await tl.documents()).find((d) => d.id === 'long')?.chunks).toBeGreaterThan(100);
    // embed()'s texts the same way: each row the embedding of its whole text, as one short call gives it.
    carried.length = 0;
    const texts = ['customs forms', 'Forms are filled in online. '.repeat(20_000), 'customs forms'];
    const rows = await tl.embed(texts);
    expect(Math.max(...carried)).toBeLessThanOrEqual(256 * 1024 + 1_000);
    const dims = rows.length / texts.length;
    expect(Array.from(rows.subarray(0, dims))).toEqual(Array.from(rows.subarray(2 * dims)));
    expect(Array.from(rows.subarray(0, dims))).toEqual(Array.from(await tl.embed(['customs forms'])));
    // A caller's own marker object is no staged call: refused as any non-array is.
    await expect(tl.embed({ staged: true } as unknown as string[])).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await tl.dispose();
  });

  it('a large add() whose call cannot be cloned after its parts went rejects with INVALID_INPUT and tells the worker to drop those parts; the next add() indexes', async () => {
    const name = freshName('staged-clone');
    const workers = capturingWorkers();
    // Each comlink call posted to the worker: its method path and its operation id (stage and abort take it first, invoke third).
    const calls: { path: string; op: unknown }[] = [];
    const tl = await createThreadline({ name, worker: () => {
      const worker = workers.factory();
      const post = worker.postMessage.bind(worker) as (message: unknown, transfer: Transferable[]) => void;
      worker.postMessage = ((message: unknown, transfer: Transferable[] = []) => {
        const m = message as { path?: unknown; argumentList?: { value?: unknown }[] };
        const path = Array.isArray(m.path) ? m.path.join('.') : '';
        if (path) calls.push({ path, op: m.argumentList?.[path === 'invoke' ? 2 : 0]?.value });
        post(message, transfer);
      }) as typeof worker.postMessage;
      return worker;
    } });
    const big = Array.from({ length: 4 }, (_, i) => ({ id: `big-${i}`, text: `Zone ${i}. ${'Parcels travel by road. '.repeat(12_000)}` }));
    // Documents are checked on the page, options are not: one holding a function passes until the call itself is
    // cloned, after every part went ahead.
    const options = { skipInvalid: false, describe: () => 'my options' } as unknown as AddOptions;
    await expect(tl.add(big, options)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    const staged = calls.filter((c) => c.path === 'stage');
    expect(staged.length).toBeGreaterThan(1);
    const op = staged[0]?.op;
    await expect.poll(() => calls.some((c) => c.path === 'abort' && c.op === op)).toBe(true);
    expect(await tl.add(big)).toMatchObject({ added: 4, failed: [] });
    expect((await tl.search('Zone 3', { k: 1, mode: 'lexical' }))[0]?.docId).toBe('big-3');
    await tl.dispose();
  });

  it('a worker killed mid-ingest rejects pending calls within a second; the next call restarts it', async () => {
    const name = freshName('kill');
    const workers = capturingWorkers();
    const tl = await createThreadline({ name, worker: workers.factory, chunking: { maxTokens: 32, overlapTokens: 0 } });
    let killedAt = 0;
    const run = tl.add(bulkDocs(200), {
      onProgress: (p) => { if (p.phase === 'ingest' && !killedAt) { killedAt = performance.now(); workers.made[0]?.terminate(); } },
    });
    const outcome = await within(5_000, run);
    expect(isThreadlineError(outcome.error, 'WORKER_CRASHED')).toBe(true);
    expect(killedAt).toBeGreaterThan(0);
    const rejectedAfterKill = performance.now() - killedAt;
    expect(rejectedAfterKill).toBeLessThan(1_000);
    const audit = await auditStore(name);
    expect(audit).toMatchObject({ partialDocs: [], duplicateChunks: 0, danglingVectors: 0 });
    const stats = await tl.stats(); // restarts the worker, which re-hydrates from storage
    expect(workers.made).toHaveLength(2);
    expect(stats.chunks).toBe(audit.chunks.length);
    expect(await workers.memoryKeys()).toEqual(audit.chunks.map((c) => c.key).sort((a, b) => a - b));
    expect((await tl.search('offline sync refunds', { k: 3 })).length).toBe(3);
    await tl.dispose();
  });

  it('refuses to open an index built with another model, with a typed error', async () => {
    const name = freshName('mismatch');
    const a = await createThreadline({ name });
    await a.add(sampleDocs.slice(0, 1));
    await a.dispose();
    const opening = createThreadline({ name, embedder: { model: '/threadline-glove-30k-fp16/' } });
    await expect(opening).rejects.toMatchObject({ code: 'MODEL_MISMATCH' });
    const err = await opening.catch((e: unknown) => e);
    expect(err).toMatchObject({ details: { stored: { modelId: 'threadline-glove-30k#int8-v2', dims: 100 }, requested: { modelId: 'threadline-glove-30k-fp16#auto' } } });
  });

  it('an index stored by an earlier release\'s offline model (#int8) is re-embedded in the worker on open, unasked, and answers', async () => {
    // Before this release's camelCase split it was refused with MODEL_MISMATCH unless the page asked for a rebuild.
    const name = freshName('superseded');
    const a = await createThreadline({ name });
    await a.add(sampleDocs.slice(0, 2));
    const chunks = (await a.stats()).chunks;
    await a.dispose();
    const db = await openDB(`threadline:${name}`);
    const manifest = (await db.get('meta', 'manifest')) as { modelId: string };
    expect(manifest.modelId).toBe('threadline-glove-30k#int8-v2');
    await db.put('meta', { ...manifest, modelId: 'threadline-glove-30k#int8' }, 'manifest'); // as the earlier release left it
    db.close();
    const phases: string[] = [];
    const b = await createThreadline({ name, onProgress: (p: Progress) => phases.push(p.phase) });
    expect(await b.stats()).toMatchObject({ modelId: 'threadline-glove-30k#int8-v2', chunks });
    expect(phases).toContain('rebuild');
    expect((await b.search('refund window', { k: 3 })).length).toBeGreaterThan(0);
    await b.dispose();
  });

  it('createThreadline with a signal already aborted rejects with ABORTED and starts no worker', async () => {
    const workers = capturingWorkers();
    await expect(createThreadline({ name: freshName('pre-aborted'), worker: workers.factory, signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'ABORTED' });
    expect(workers.made).toHaveLength(0);
  });

  it('aborting createThreadline during a rebuild stops its worker at once, writes nothing, and a later rebuild reports progress to the end', async () => {
    const name = freshName('rebuild-abort');
    const a = await createThreadline({ name });
    await a.add(bulkDocs(360));
    const before = await a.stats();
    await a.dispose();

    // Open with another model: every stored chunk is re-embedded before anything is written.
    const workers = capturingWorkers();
    const terminated: number[] = [];
    const factory = () => {
      const worker = workers.factory();
      const terminate = worker.terminate.bind(worker);
      worker.terminate = () => { terminated.push(performance.now()); terminate(); };
      return worker;
    };
    const controller = new AbortController();
    let abortedAt = 0;
    const opening = createThreadline({
      name, worker: factory, embedder: { model: '/threadline-glove-30k-fp16/' }, onModelMismatch: 'rebuild', signal: controller.signal,
      onProgress: (p) => { if (p.phase === 'rebuild' && !controller.signal.aborted) { abortedAt = performance.now(); controller.abort(); } },
    });
    const { error, ms } = await within(5_000, opening);
    expect(error).toMatchObject({ code: 'ABORTED' });
    expect(abortedAt).toBeGreaterThan(0);
    expect(terminated).toHaveLength(1);
    expect((terminated[0] ?? Infinity) - abortedAt).toBeLessThan(100);
    expect(ms).toBeLessThan(5_000);

    // Nothing was written: the index still opens with its own model, whole.
    const b = await createThreadline({ name });
    expect(await b.stats()).toMatchObject({ docs: before.docs, chunks: before.chunks });
    expect(await auditStore(name)).toMatchObject({ partialDocs: [], duplicateChunks: 0, danglingVectors: 0 });
    await b.dispose();

    // Unaborted, the rebuild reports its progress up to every chunk, then opens with the new model.
    const progress: Extract<Progress, { phase: 'rebuild' }>[] = [];
    const c = await createThreadline({ name, embedder: { model: '/threadline-glove-30k-fp16/' }, onModelMismatch: 'rebuild', onProgress: (p) => { if (p.phase === 'rebuild') progress.push(p); } });
    expect(progress[0]).toMatchObject({ docsDone: 0, chunksDone: 0, docsTotal: before.docs, chunksTotal: before.chunks });
    expect(progress.at(-1)).toMatchObject({ docsDone: before.docs, chunksDone: before.chunks });
    expect(progress.map((p) => p.chunksDone)).toEqual([...progress.map((p) => p.chunksDone)].sort((x, y) => x - y));
    expect(await c.stats()).toMatchObject({ docs: before.docs, chunks: before.chunks, modelId: 'threadline-glove-30k-fp16#auto' });
    await c.dispose();
  });

  it('remove and clear survive a reopen', async () => {
    const name = freshName('remove');
    const a = await createThreadline({ name });
    await a.add(sampleDocs);
    expect(await a.remove(['refunds'])).toBe(3);
    await a.dispose();
    const b = await createThreadline({ name });
    expect((await b.search('refund window', { k: 20 })).some((h) => h.docId === 'refunds')).toBe(false);
    expect((await b.stats()).docs).toBe(sampleDocs.length - 1);
    await b.clear();
    await b.dispose();
    const c = await createThreadline({ name });
    expect(await c.stats()).toMatchObject({ docs: 0, chunks: 0 });
    await c.dispose();
  });

  it('two instances on one name (two workers, as two tabs): an add in one is searchable in the other within 2 s', async () => {
    const name = freshName('tabs');
    const a = await createThreadline({ name });
    const b = await createThreadline({ name });
    await a.add([{ id: 'news', text: 'The lighthouse festival moves to the harbour this year.' }]);
    const started = performance.now();
    let seen = false;
    while (!seen && performance.now() - started < 2_000) {
      seen = (await b.search('lighthouse festival harbour', { mode: 'lexical' })).some((h) => h.docId === 'news');
      if (!seen) await new Promise((r) => setTimeout(r, 25));
    }
    expect(seen).toBe(true);
    // Concurrent writes from both sides: nothing lost or duplicated.
    await Promise.all([a.add(bulkDocs(10, 5)), b.add(bulkDocs(10, 5).map((d) => ({ ...d, id: `b-${d.id}` })))]);
    const audit = await auditStore(name);
    expect(audit).toMatchObject({ partialDocs: [], duplicateChunks: 0, danglingVectors: 0 });
    expect(audit.docs).toHaveLength(21);
    await a.dispose();
    await b.dispose();
  });

  it('rejects calls after dispose with DISPOSED', async () => {
    const tl = await createThreadline({ name: freshName('disposed') });
    await tl.dispose();
    await expect(tl.search('anything')).rejects.toMatchObject({ code: 'DISPOSED' });
  });
});

describe('worker crash during a chat turn', () => {
  it('the ask iterator rejects with WORKER_CRASHED within 2 s; the next ask works after an automatic restart', async () => {
    const workers = capturingWorkers();
    const tl = await createThreadline({ name: freshName('turn-crash'), worker: workers.factory });
    await tl.add(sampleDocs);
    const chat = await tl.chat();
    let killedAt = 0;
    const turn = (async () => {
      for await (const e of chat.ask('how long does a refund take to reach my card?')) {
        if (e.type === 'condensed') { killedAt = performance.now(); workers.made[0]?.terminate(); }
      }
    })();
    const error = await turn.then(() => null, (e: unknown) => e);
    expect(isThreadlineError(error, 'WORKER_CRASHED')).toBe(true);
    expect(performance.now() - killedAt).toBeLessThan(2_000);
    expect(chat.history()).toHaveLength(0); // no half turn
    let mode = '';
    for await (const e of chat.ask('how long does a refund take to reach my card?')) if (e.type === 'done') mode = e.mode;
    expect(mode).toBe('extractive');
    expect(workers.made).toHaveLength(2);
    await tl.dispose();
  });
});
