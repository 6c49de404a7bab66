import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import '../../src/element';
import { freshName, workerCensus } from './helpers';

const census = workerCensus();
const retrievalWorkers = census.retrieval;

beforeEach(() => census.install());

afterEach(() => {
  census.restore();
  document.body.replaceChildren();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(test: () => boolean, ms = 5_000): Promise<void> {
  const started = performance.now();
  while (!test()) {
    if (performance.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await sleep(5);
  }
}

/** A <threadline-chat> recording its ready and error events, appended, once its worker exists. */
async function started(events: string[]): Promise<HTMLElement> {
  const el = document.createElement('threadline-chat');
  el.setAttribute('name', freshName('element'));
  for (const type of ['threadline-ready', 'threadline-error']) el.addEventListener(type, () => events.push(type));
  document.body.append(el);
  await until(() => retrievalWorkers().length === 1);
  return el;
}

describe('<threadline-chat> removed or moved while it opens (real worker, real offline model, Chromium)', () => {
  it('removed before it is ready: its worker is stopped, and it neither becomes ready nor reports an error', async () => {
    const events: string[] = [];
    const el = await started(events);
    el.remove();
    // Long enough for the model and the index to have loaded had the opening gone on (about 0.3 s here).
    await sleep(1_500);
    expect(retrievalWorkers()).toEqual([{ url: expect.stringMatching(/retrieval\.worker/) as string, terminated: true }]);
    expect(events).toEqual([]);
  });

  it('moved before it is ready (removed and appended again): it opens once, with one live worker', async () => {
    const events: string[] = [];
    const el = await started(events);
    el.remove();
    await sleep(0);
    document.body.append(el);
    await until(() => events.length > 0);
    await sleep(500);
    expect(events).toEqual(['threadline-ready']);
    expect(retrievalWorkers().filter((w) => !w.terminated)).toHaveLength(1);
  });
});

describe('<threadline-chat mode="launcher"> opened by its attribute, as a page script or a framework binding does', () => {
  it('toggleAttribute("open") starts it like open(): one worker, ready, a dialog; until then nothing loads', async () => {
    const events: string[] = [];
    const el = document.createElement('threadline-chat');
    el.setAttribute('name', freshName('launcher'));
    el.setAttribute('mode', 'launcher');
    for (const type of ['threadline-ready', 'threadline-error']) el.addEventListener(type, () => events.push(type));
    document.body.append(el);
    await sleep(300);
    expect(retrievalWorkers()).toEqual([]); // closed: nothing loads
    // Before: the panel showed, but nothing started, and its input stayed disabled for good.
    el.toggleAttribute('open', true);
    await until(() => events.length > 0, 10_000);
    expect(events).toEqual(['threadline-ready']);
    expect(retrievalWorkers().filter((w) => !w.terminated)).toHaveLength(1);
    const panel = el.shadowRoot?.querySelector('.panel');
    expect(panel?.getAttribute('role')).toBe('dialog');
    expect((el.shadowRoot?.querySelector('input') as HTMLInputElement).disabled).toBe(false);
    // Closed and opened again by the attribute: the same instance, no second worker.
    el.toggleAttribute('open', false);
    el.toggleAttribute('open', true);
    await sleep(300);
    expect(events).toEqual(['threadline-ready']);
    expect(retrievalWorkers()).toHaveLength(1);
  });

  it('an inline chat\'s panel is no dialog, even with an "open" attribute', () => {
    const el = document.createElement('threadline-chat');
    el.setAttribute('name', freshName('inline-open'));
    el.setAttribute('open', '');
    document.body.append(el);
    expect(el.shadowRoot?.querySelector('.panel')?.hasAttribute('role')).toBe(false);
  });
});
