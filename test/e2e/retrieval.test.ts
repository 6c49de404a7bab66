import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, openHarness } from './browser';

let browser: Browser;
beforeAll(async () => { browser = await launch(); });
afterAll(async () => { await browser.close(); });

const QUESTIONS = ['what is the refund window?', 'how do I track my order?', 'which plan has shared team notebooks?'];

/** Opens `name` in the page, adds the sample base when asked, and returns search results and stats. */
function session(page: Page, name: string, add: boolean) {
  return page.evaluate(async ({ name, add, questions }) => {
    const tl = await window.threadline.createThreadline({ name });
    if (add) await tl.add(window.sampleKb.map((d) => ({ id: d.id, title: d.title, url: d.url, text: d.markdown, format: 'markdown' as const })));
    const results = [];
    for (const q of questions) results.push(await tl.search(q, { k: 4 }));
    const stats = await tl.stats();
    await tl.dispose();
    return { results, stats };
  }, { name, add, questions: QUESTIONS });
}

describe('retrieval across real pages (Playwright + Chromium)', () => {
  it('after a page reload the index is restored with identical results and zero embedding calls', async () => {
    const page = await openHarness(browser);
    const first = await session(page, 'reload', true);
    expect(first.stats.embeddedChunks).toBeGreaterThan(0);
    await page.reload();
    await page.waitForFunction(() => window.harnessReady === true);
    const second = await session(page, 'reload', false);
    expect(second.stats.embeddedChunks).toBe(0);
    expect(second.stats.docs).toBe(first.stats.docs);
    expect(second.results).toEqual(first.results);
    await page.close();
  });

  it('two pages on one name: a document added in one is searchable in the other within 2 s', async () => {
    const context = await browser.newContext();
    const [a, b] = [await openHarness(browser, context), await openHarness(browser, context)];
    await b.evaluate(async () => {
      const tl = await window.threadline.createThreadline({ name: 'two-pages' });
      (window as unknown as { tl: typeof tl }).tl = tl;
    });
    const addedAt = await a.evaluate(async () => {
      const tl = await window.threadline.createThreadline({ name: 'two-pages' });
      await tl.add([{ id: 'notice', text: 'The lighthouse festival moves to the harbour this year.' }]);
      return Date.now();
    });
    const seenAt = await b.evaluate(async () => {
      const tl = (window as unknown as { tl: Awaited<ReturnType<typeof window.threadline.createThreadline>> }).tl;
      for (let i = 0; i < 400; i++) {
        if ((await tl.search('lighthouse festival', { mode: 'lexical' })).length) return Date.now();
        await new Promise((r) => setTimeout(r, 10));
      }
      return Number.POSITIVE_INFINITY;
    });
    expect(seenAt - addedAt).toBeLessThan(2_000);
    await context.close();
  });
});
