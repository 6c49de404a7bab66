import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, openHarness } from './browser';

/** Trial counts: small in `npm test`, the full counts with THREADLINE_LONG=1. */
const LONG = process.env.THREADLINE_LONG === '1';
const KILL_TRIALS = LONG ? 50 : 5;
const CLOSE_TRIALS = LONG ? 20 : 3;

let browser: Browser;
beforeAll(async () => { browser = await launch(); });
afterAll(async () => { await browser.close(); });

interface Audit { docs: number; chunks: number; partialDocs: number; duplicateChunks: number; danglingVectors: number; memoryEqualsStore: boolean }

/** The shared store audit (test/browser/helpers.ts) in the page, plus memory == store through a fresh instance. */
function audit(page: Page, name: string): Promise<Audit> {
  return page.evaluate(async (name) => {
    const stored = await window.auditStore(name);
    const tl = await window.threadline.createThreadline({ name });
    const stats = await tl.stats();
    await tl.dispose();
    return {
      docs: stored.docs.length, chunks: stored.chunks.length, partialDocs: stored.partialDocs.length,
      duplicateChunks: stored.duplicateChunks, danglingVectors: stored.danglingVectors,
      memoryEqualsStore: stats.chunks === stored.chunks.length && stats.docs === stored.docs.length,
    };
  }, name);
}

const CLEAN = { partialDocs: 0, duplicateChunks: 0, danglingVectors: 0, memoryEqualsStore: true };

describe('faults in real Chromium', () => {
  it(`worker killed mid-ingest at random points (${KILL_TRIALS} trials)`, async () => {
    const page = await openHarness(browser, await browser.newContext());
    const outcomes: string[] = [];
    for (let trial = 0; trial < KILL_TRIALS; trial++) {
      const name = `kill-${trial}`;
      const killAfterMs = 20 + Math.floor(Math.random() * 400);
      outcomes.push(await page.evaluate(async ({ name, killAfterMs, trial }) => {
        const made: Worker[] = [];
        const tl = await window.threadline.createThreadline({
          name, chunking: { maxTokens: 32, overlapTokens: 0 },
          worker: () => { const w = new Worker(new URL('/workers/retrieval.worker.ts', location.href), { type: 'module' }); made.push(w); return w; },
        });
        const docs = Array.from({ length: 150 }, (_, i) => ({ id: `t${trial}-d${i}`, text: Array.from({ length: 30 }, (_, j) => `Sentence ${j} of note ${i} about refunds and shipping.`).join(' ') }));
        setTimeout(() => made[0]?.terminate(), killAfterMs);
        const result = await tl.add(docs).then(() => 'completed', (e: { code?: string }) => e.code ?? 'unknown');
        await tl.dispose();
        return result;
      }, { name, killAfterMs, trial }));
      expect(await audit(page, name)).toMatchObject(CLEAN);
    }
    console.log(`kill trials: ${outcomes.filter((o) => o === 'WORKER_CRASHED').length} crashed mid-ingest, ${outcomes.filter((o) => o === 'completed').length} completed before the kill; all stores consistent`);
    expect(outcomes.every((o) => o === 'WORKER_CRASHED' || o === 'completed')).toBe(true);
  }, 600_000);

  it(`page closed mid-commit (${CLOSE_TRIALS} trials)`, async () => {
    const context = await browser.newContext();
    for (let trial = 0; trial < CLOSE_TRIALS; trial++) {
      const name = `close-${trial}`;
      const page = await openHarness(browser, context);
      await page.evaluate(({ name, trial }) => {
        void (async () => {
          const tl = await window.threadline.createThreadline({ name, chunking: { maxTokens: 32, overlapTokens: 0 } });
          await tl.add(Array.from({ length: 300 }, (_, i) => ({ id: `c${trial}-${i}`, text: Array.from({ length: 20 }, (_, j) => `Line ${j} of record ${i}.`).join(' ') })));
        })();
      }, { name, trial });
      await new Promise((r) => setTimeout(r, 300 + Math.floor(Math.random() * 900)));
      await page.close();
      const checker = await openHarness(browser, context);
      expect(await audit(checker, name)).toMatchObject(CLEAN);
      await checker.close();
    }
    await context.close();
  }, 600_000);

  it('a schema upgrade in one page never hangs on another page that has the index open', async () => {
    const context = await browser.newContext();
    const [holder, upgrader] = [await openHarness(browser, context), await openHarness(browser, context)];
    await holder.evaluate(async () => {
      const tl = await window.threadline.createThreadline({ name: 'upgrade' });
      await tl.add([{ id: 'a', text: 'kept open in this page' }]);
      (window as unknown as { keep: unknown }).keep = tl; // the connection stays open
    });
    const ms = await upgrader.evaluate(() => new Promise<number>((resolve, reject) => {
      const t = performance.now();
      const r = indexedDB.open('threadline:upgrade', 99);
      r.onupgradeneeded = () => undefined;
      r.onsuccess = () => { r.result.close(); resolve(performance.now() - t); };
      r.onerror = () => reject(r.error ?? new Error('upgrade failed'));
      r.onblocked = () => undefined; // resolves only once the other page lets go
      setTimeout(() => reject(new Error('upgrade still blocked after 2 s')), 2_000);
    }));
    expect(ms).toBeLessThan(2_000);
    await context.close();
  });

  it('five pages ingest and query one name at once: nothing lost or duplicated', async () => {
    const context = await browser.newContext();
    const pages = await Promise.all(Array.from({ length: 5 }, () => openHarness(browser, context)));
    await Promise.all(pages.map((page, p) => page.evaluate(async (p) => {
      const tl = await window.threadline.createThreadline({ name: 'five-tabs' });
      for (let round = 0; round < 3; round++) {
        await tl.add(Array.from({ length: 10 }, (_, i) => ({ id: `p${p}-r${round}-${i}`, text: `Page ${p} round ${round} note ${i} about offline sync.` })));
        await tl.search('offline sync note', { k: 5 });
      }
      await tl.dispose();
    }, p)));
    const result = await audit(pages[0] as Page, 'five-tabs');
    expect(result).toMatchObject({ ...CLEAN, docs: 150 });
    await context.close();
  }, 300_000);
});
