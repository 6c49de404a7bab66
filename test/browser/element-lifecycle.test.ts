import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import '../../src/element';
import { freshName } from './helpers';

/** Counts every retrieval Worker the page constructs, and which were terminated. */
const RealWorker = globalThis.Worker;
let made: { url: string; terminated: boolean }[] = [];

beforeEach(() => {
  made = [];
  globalThis.Worker = class extends RealWorker {
    private readonly record: { url: string; terminated: boolean };
    constructor(url: string | URL, options?: WorkerOptions) {
      super(url, options);
      this.record = { url: String(url), terminated: false };
      made.push(this.record);
    }
    override terminate(): void {
      this.record.terminated = true;
      super.terminate();
    }
  };
});

afterEach(() => {
  globalThis.Worker = RealWorker;
  document.body.replaceChildren();
});

const retrievalWorkers = () => made.filter((w) => /retrieval\.worker/.test(w.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(test: () => boolean, ms = 5_000): Promise<void> {
  const started = performance.now();
  while (!test()) {
    if (performance.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await sleep(5);
  }
}

function element(events: string[]): HTMLElement {
  const el = document.createElement('threadline-chat');
  el.setAttribute('name', freshName('element'));
  for (const type of ['threadline-ready', 'threadline-error']) el.addEventListener(type, () => events.push(type));
  return el;
}

describe('<threadline-chat> removed or moved while it opens (real worker, real offline model, Chromium)', () => {
  it('removed before it is ready: its worker is stopped, and it neither becomes ready nor reports an error', async () => {
    const events: string[] = [];
    const el = element(events);
    document.body.append(el);
    await until(() => retrievalWorkers().length === 1);
    el.remove();
    // Long enough for the model and the index to have loaded had the opening gone on (about 0.3 s here).
    await sleep(1_500);
    expect(retrievalWorkers()).toEqual([{ url: expect.stringMatching(/retrieval\.worker/) as string, terminated: true }]);
    expect(events).toEqual([]);
  });

  it('moved before it is ready (removed and appended again): it opens once, with one live worker', async () => {
    const events: string[] = [];
    const el = element(events);
    document.body.append(el);
    await until(() => retrievalWorkers().length === 1);
    el.remove();
    await sleep(0);
    document.body.append(el);
    await until(() => events.length > 0);
    await sleep(500);
    expect(events).toEqual(['threadline-ready']);
    expect(retrievalWorkers().filter((w) => !w.terminated)).toHaveLength(1);
  });
});
