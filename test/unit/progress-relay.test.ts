import { describe, expect, it } from 'vitest';
import { llmHost } from '../../src/llm/llm-host';
import type { EngineLike } from '../../src/llm/webllm';
import type { Progress, ProgressListener } from '../../src/progress';
import { exposeRetriever, type ServedRetriever } from '../../src/worker/expose-retriever';
import type { WorkerInit } from '../../src/worker/protocol';
import { serveDocuments } from '../../src/worker/serve-documents';
import { section, writePdf } from '../fixtures/pdf-writer';

const event: Progress = { phase: 'hydrate', chunks: 3, ms: 1 };

/** A retriever that reports one event per call, as the engine's open and add do. */
function served(onOpen: ProgressListener | undefined): ServedRetriever {
  onOpen?.(event);
  const add = (_input: unknown, options: { onProgress?: ProgressListener }) => { options.onProgress?.(event); return Promise.resolve({ added: 1 }); };
  return { add, close: () => undefined, stats: () => Promise.resolve({ docs: 1 }) } as unknown as ServedRetriever;
}

/** A listener as comlink gives it to the worker: each call's promise settles when the page has run it, here when `deliver()` is called. */
function slowPage() {
  const heard: Progress[] = [];
  const waiting: (() => void)[] = [];
  const listener = (p: Progress) => new Promise<void>((resolve) => { waiting.push(() => { heard.push(p); resolve(); }); });
  return { heard, listener, deliver: () => { for (const run of waiting.splice(0)) run(); } };
}

async function settledWithin(promise: Promise<unknown>, turns = 20): Promise<boolean> {
  let settled = false;
  void promise.then(() => { settled = true; }, () => { settled = true; });
  for (let i = 0; i < turns; i++) await Promise.resolve();
  return settled;
}

describe('progress reaches the page before the result of the call that reported it (the worker transport, without comlink)', () => {
  it('init and an add wait for their events to be delivered, and then return', async () => {
    const port = exposeRetriever((_config, onProgress) => Promise.resolve(served(onProgress)), { add: 1 });
    const page = slowPage();
    const init = port.init({} as WorkerInit, page.listener);
    expect(await settledWithin(init)).toBe(false);
    page.deliver();
    expect(await init).toMatchObject({ ok: true });
    expect(page.heard).toHaveLength(1);

    const add = port.invoke('add', [[], {}], 1, page.listener);
    expect(await settledWithin(add)).toBe(false);
    page.deliver();
    expect(await add).toMatchObject({ ok: true, value: { added: 1 } });
    expect(page.heard).toHaveLength(2);
  });

  it('a delivery that fails (the page listener threw) does not fail the call', async () => {
    const port = exposeRetriever((_config, onProgress) => Promise.resolve(served(onProgress)), { add: 1 });
    const throwing = () => { throw new Error('listener bug'); };
    expect(await port.init({} as WorkerInit, throwing)).toMatchObject({ ok: true });
    expect(await port.invoke('add', [[], {}], 1, () => Promise.reject(new Error('listener bug')))).toMatchObject({ ok: true, value: { added: 1 } });
  });
});

describe('the LLM worker\'s load reports its last init progress before it settles (llmHost, without comlink)', () => {
  it('load waits until every report has been delivered', async () => {
    const host = llmHost({
      defaultAppConfig: { model_list: [] },
      createEngine: (_models, _config, onProgress) => { onProgress({ progress: 1, timeElapsed: 2, text: 'ready' }); return Promise.resolve({} as EngineLike); },
    });
    let deliver = () => undefined as void;
    const heard: unknown[] = [];
    const load = host.load(['m'], {}, (report) => new Promise<void>((resolve) => { deliver = () => { heard.push(report); resolve(); }; }));
    expect(await settledWithin(load)).toBe(false);
    deliver();
    await load;
    expect(heard).toEqual([{ progress: 1, timeElapsed: 2, text: 'ready' }]);
  });
});

describe('the documents worker\'s read reports its last page before it settles (serveDocuments, without comlink)', () => {
  it('a PDF read waits until every page event has been delivered', async () => {
    const pdf = writePdf({ pages: [{ lines: section('Backups', ['Harbor copies your library every night.']) }, { lines: section('Sync', ['Restart the service if sync stalls.']) }] });
    const heard: number[] = [];
    const waiting: (() => void)[] = [];
    const read = serveDocuments().read(1, 'pdf', 'manual', pdf, (page) => new Promise<void>((resolve) => { waiting.push(() => { heard.push(page); resolve(); }); }));
    for (let i = 0; i < 50 && waiting.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    expect(waiting).toHaveLength(2);
    expect(await settledWithin(read, 50)).toBe(false);
    for (const run of waiting) run();
    expect(await read).toMatchObject({ ok: true });
    expect(heard).toEqual([1, 2]);
  });
});
