import { describe, expect, it } from 'vitest';
import { watchWorker } from '../../src/client/worker-watch';
import { ThreadlineError } from '../../src/errors';
import { complete } from '../../src/llm/llm';
import { WebLlm, type EngineFactory } from '../../src/llm/webllm';
import { defaultLlmWorker } from '../../src/llm/webllm-engine';
import { FakeMlcEngine } from '../fakes/fake-mlc-engine';

/** Real llm.worker.ts (web-llm's handler + the alive lock), driven by the fake engine for generation. */
function realWorkerFakeEngine() {
  const workers: Worker[] = [];
  const factory: EngineFactory = async (models) => {
    const name = `threadline-llm-alive:${crypto.randomUUID()}`;
    const worker = defaultLlmWorker(name);
    workers.push(worker);
    const dead = watchWorker(worker, name, 'language model');
    // Wait until the worker module has loaded and holds its lock.
    for (let i = 0; i < 250 && !(await navigator.locks.query()).held?.some((l) => l.name === name); i++) await new Promise((r) => setTimeout(r, 20));
    return { engine: new FakeMlcEngine(models, { reply: () => 'one two three four five six seven eight nine ten eleven twelve', delayMs: 40 }), dead, dispose: () => worker.terminate() };
  };
  return { factory, workers };
}

describe('LLM worker in Chromium (real llm.worker.ts, fake engine for generation: FakeMlcEngine)', () => {
  it('the worker module loads (web-llm imported in a module worker) and holds its alive lock', async () => {
    const name = `threadline-llm-alive:${crypto.randomUUID()}`;
    const worker = defaultLlmWorker(name);
    let error: string | undefined;
    worker.addEventListener('error', (e) => { error = e.message; });
    let held = false;
    for (let i = 0; i < 250 && !held; i++) {
      held = !!(await navigator.locks.query()).held?.some((l) => l.name === name);
      if (!held) await new Promise((r) => setTimeout(r, 20));
    }
    expect(error).toBeUndefined();
    expect(held).toBe(true);
    worker.terminate();
  });

  it('a worker terminated mid-generation rejects within 2 s; the next call restarts it', async () => {
    const { factory, workers } = realWorkerFakeEngine();
    const llm = new WebLlm(factory, { answerModel: 'answer', condenserModel: null });
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
});
