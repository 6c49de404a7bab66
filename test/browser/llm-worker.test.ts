import * as Comlink from 'comlink';
import { describe, expect, it } from 'vitest';
import { ThreadlineError } from '../../src/errors';
import type { LlmHostPort } from '../../src/llm/llm-host';
import { complete } from '../../src/llm/llm';
import type { Progress } from '../../src/progress';
import { WebLlm } from '../../src/llm/webllm';
import { ALIVE_MESSAGE, defaultLlmWorker, webWorkerEngineFactory } from '../../src/llm/webllm-engine';

/** The real engine factory and wire, with the fake engine in a real module worker (test/fixtures/fake-llm.worker.ts). */
function fakeWorkerLlm() {
  const workers: Worker[] = [];
  const progress: Progress[] = [];
  const factory = webWorkerEngineFactory({
    worker: (name) => {
      const worker = new Worker(new URL('../fixtures/fake-llm.worker.ts', import.meta.url), { type: 'module', name });
      workers.push(worker);
      return worker;
    },
  });
  const asked: string[] = [];
  const llm = new WebLlm(factory, { answerModel: 'answer', condenserModel: null, onProgress: (p) => progress.push(p), tokenizer: (url) => { asked.push(url); return Promise.resolve((text) => text.split(' ').length); } });
  return { llm, workers, progress, asked };
}

async function holdsLock(name: string): Promise<boolean> {
  for (let i = 0; i < 250; i++) {
    if ((await navigator.locks.query()).held?.some((l) => l.name === name)) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

describe('LLM worker in Chromium (real llm.worker.ts and wire; fake engine for generation: FakeMlcEngine)', () => {
  it('the real worker module loads (web-llm imported in a module worker), holds the alive lock its first message names and answers over the wire with web-llm\'s prebuilt list', async () => {
    const name = `threadline-llm-alive:${crypto.randomUUID()}`;
    const worker = defaultLlmWorker(name);
    worker.postMessage({ type: ALIVE_MESSAGE, lock: name });
    let error: string | undefined;
    worker.addEventListener('error', (e) => { error = e.message; });
    expect(await holdsLock(name)).toBe(true);
    const host = Comlink.wrap<LlmHostPort>(worker);
    expect(await host.modelUrl('Qwen2.5-0.5B-Instruct-q4f16_1-MLC')).toMatch(/^https:\/\/huggingface\.co\/mlc-ai\/Qwen2\.5-0\.5B-Instruct-q4f16_1-MLC/);
    expect(await host.modelUrl('no-such-model')).toBeUndefined();
    expect(error).toBeUndefined();
    worker.terminate();
  });

  it('streams over the wire in order, reports init progress, and finds the tokenizer through the worker\'s app config', async () => {
    const { llm, progress, asked } = fakeWorkerLlm();
    const pieces: string[] = [];
    for await (const piece of llm.stream([{ role: 'user', content: 'q' }])) pieces.push(piece);
    expect(pieces.join('')).toBe('one two three four five six seven eight nine ten eleven twelve');
    expect(pieces).toHaveLength(12);
    expect(llm.lastUsage()).toMatchObject({ completionTokens: 12 });
    expect(progress.filter((p) => p.phase === 'llm-load').map((p) => p.phase === 'llm-load' && p.stage)).toEqual(['download', 'cache', 'compile', 'ready']);
    for (let i = 0; i < 50 && !llm.tokenizerLoaded; i++) await new Promise((r) => setTimeout(r, 10));
    expect(asked).toEqual(['https://models.example/answer-MLC']);
    llm.dispose();
  });

  it('an abort mid-stream interrupts the engine in the worker; the next request streams in full', async () => {
    const { llm } = fakeWorkerLlm();
    const controller = new AbortController();
    const pieces: string[] = [];
    const run = (async () => {
      for await (const p of llm.stream([{ role: 'user', content: 'q' }], { signal: controller.signal })) {
        pieces.push(p);
        if (pieces.length === 2) controller.abort();
      }
    })();
    await expect(run).rejects.toMatchObject({ code: 'ABORTED' });
    expect(pieces.length).toBeLessThan(12);
    expect(await complete(llm, [{ role: 'user', content: 'finishes?' }])).toBe('abort'); // the engine stopped, not just the page
    expect(await complete(llm, [{ role: 'user', content: 'again' }])).toContain('twelve');
    llm.dispose();
  });

  it('errors raised in the worker arrive typed: device loss, out of memory, anything else', async () => {
    const { llm } = fakeWorkerLlm();
    await expect(complete(llm, [{ role: 'user', content: 'reject:Error: Device was lost while generating' }])).rejects.toMatchObject({ code: 'GPU_DEVICE_LOST' });
    await expect(complete(llm, [{ role: 'user', content: 'reject:RangeError: out of memory' }])).rejects.toMatchObject({ code: 'OUT_OF_MEMORY' });
    await expect(complete(llm, [{ role: 'user', content: 'reject:something odd' }])).rejects.toMatchObject({ code: 'LLM_FAILED', message: expect.stringContaining('something odd') as string });
    expect(await complete(llm, [{ role: 'user', content: 'fine' }])).toContain('twelve');
    llm.dispose();
  });

  it('a worker terminated mid-generation rejects within 2 s; the next call restarts it', async () => {
    const { llm, workers } = fakeWorkerLlm();
    let killedAt = 0;
    const pieces: string[] = [];
    const run = (async () => {
      for await (const p of llm.stream([{ role: 'user', content: 'q' }])) {
        pieces.push(p);
        if (pieces.length === 2) { killedAt = performance.now(); workers[0]?.terminate(); }
      }
    })();
    const error = await run.then(() => null, (e: unknown) => e);
    const after = performance.now() - killedAt;
    expect(error).toBeInstanceOf(ThreadlineError);
    expect(error).toMatchObject({ code: 'WORKER_CRASHED' });
    expect(after).toBeLessThan(2_000);
    expect(await complete(llm, [{ role: 'user', content: 'again' }])).toContain('twelve');
    expect(workers).toHaveLength(2);
    llm.dispose();
  });

  it('a worker whose script does not load (a site copied without web-llm) fails the load with LLM_FAILED saying how to add it', async () => {
    const progress: Progress[] = [];
    const factory = webWorkerEngineFactory({ worker: (name) => new Worker(new URL('/no-such-llm.worker.js', location.href), { type: 'module', name }) });
    const llm = new WebLlm(factory, { answerModel: 'answer', condenserModel: null, onProgress: (p) => progress.push(p) });
    await expect(llm.load()).rejects.toMatchObject({ code: 'LLM_FAILED', message: expect.stringContaining('--with-llm') as string });
    expect(progress.at(-1)).toMatchObject({ phase: 'llm-status', status: 'failed' });
    llm.dispose();
  });
});
