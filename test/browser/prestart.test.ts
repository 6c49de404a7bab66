import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prestartRetrievalWorker } from '../../src/client/prestart';
import { takeSpareRetrievalWorker } from '../../src/client/spare-worker';
import { createThreadline, type Progress } from '../../src/index';
import { freshName, sampleDocs, workerCensus } from './helpers';

const census = workerCensus();
const made = census.made;
const retrievalWorkers = census.retrieval;

beforeEach(() => census.install());

afterEach(() => {
  census.restore();
  takeSpareRetrievalWorker({})?.terminate();
});

describe('a retrieval worker started early (the standalone element\'s entry) in Chromium', () => {
  it('is adopted by the first createThreadline() with the same options: one worker, which opens the index and answers', async () => {
    prestartRetrievalWorker();
    expect(retrievalWorkers()).toHaveLength(1);
    const progress: Progress[] = [];
    const tl = await createThreadline({ name: freshName('prestart'), onProgress: (p) => progress.push(p) });
    expect(retrievalWorkers()).toEqual([{ url: expect.stringMatching(/retrieval\.worker/) as string, terminated: false }]);
    await tl.add(sampleDocs);
    expect((await tl.search('refund window'))[0]?.docId).toBe('refunds');
    // Whether init joined the warm-up's load in flight (and heard its end) or found it done is a matter of timing;
    // that a joiner shares the load and hears what is left of it is pinned in test/unit/static-embedder.test.ts.
    expect(progress.filter((p) => p.phase === 'model-ready').length).toBeLessThanOrEqual(1);
    expect(takeSpareRetrievalWorker({})).toBeNull(); // taken once
    await tl.dispose();
    // A second instance starts its own worker.
    const again = await createThreadline({ name: freshName('prestart-2') });
    expect(retrievalWorkers()).toHaveLength(2);
    await again.dispose();
  });

  it('with other embedder options the spare is closed and a fresh worker starts, so a head start never changes what loads', async () => {
    prestartRetrievalWorker();
    const tl = await createThreadline({ name: freshName('prestart-other'), embedder: { fallback: false } });
    expect(retrievalWorkers().map((w) => w.terminated)).toEqual([true, false]);
    await tl.dispose();
  });

  it('a spare whose script fails to load is dropped, so createThreadline() starts its own worker and sees the failure itself', async () => {
    const Counting = globalThis.Worker;
    // Every worker made while prestarting points at a script that does not exist.
    globalThis.Worker = class extends Counting {
      constructor(_url: string | URL, options?: WorkerOptions) { super(new URL('/no-such-retrieval.worker.js', location.href), options); }
    };
    prestartRetrievalWorker();
    globalThis.Worker = Counting;
    await expect.poll(() => made[0]?.terminated).toBe(true); // dropped on its error event, not left for 30 s
    expect(takeSpareRetrievalWorker({})).toBeNull();
  });

  it('a second prestart while one waits starts nothing; a custom worker factory never adopts it', async () => {
    prestartRetrievalWorker();
    prestartRetrievalWorker();
    expect(retrievalWorkers()).toHaveLength(1);
    const tl = await createThreadline({ name: freshName('prestart-custom'), worker: () => new Worker(new URL('../../workers/retrieval.worker.ts', import.meta.url), { type: 'module' }) });
    expect(retrievalWorkers()).toHaveLength(2);
    expect(retrievalWorkers()[0]?.terminated).toBe(false); // still waiting for an adopter (closed after 30 s, or by afterEach here)
    await tl.dispose();
  });
});
