import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, openHarness, origin } from './browser';

let browser: Browser;
beforeAll(async () => { browser = await launch(); });
afterAll(async () => { await browser.close(); });

describe('site data cleared while a page is open (CDP Storage.clearDataForOrigin)', () => {
  it('the deleted documents stop answering, and writes work again without a reload', async () => {
    const context = await browser.newContext();
    const page = await openHarness(browser, context);
    const cdp = await context.newCDPSession(page);
    const before = await page.evaluate(async () => {
      const tl = await window.threadline.createThreadline({ name: 'cleared' });
      await tl.add(window.sampleKb.map((d) => ({ id: d.id, title: d.title, text: d.markdown, format: 'markdown' as const })));
      (window as unknown as { tl: typeof tl }).tl = tl;
      return (await tl.search("what's the refund window?", { k: 3 })).length;
    });
    expect(before).toBeGreaterThan(0);
    await cdp.send('Storage.clearDataForOrigin', { origin: origin(), storageTypes: 'indexeddb' });
    const after = await page.evaluate(async () => {
      const tl = (window as unknown as { tl: Awaited<ReturnType<typeof window.threadline.createThreadline>> }).tl;
      const started = performance.now();
      let hits = await tl.search("what's the refund window?", { k: 3 });
      while (hits.length && performance.now() - started < 5_000) {
        await new Promise((r) => setTimeout(r, 100));
        hits = await tl.search("what's the refund window?", { k: 3 });
      }
      const emptiedMs = performance.now() - started;
      const added = await tl.add([{ id: 'again', text: 'Refunds are processed within five business days.' }]);
      const found = (await tl.search('refunds processed', { k: 1 }))[0]?.docId;
      await tl.dispose();
      return { stale: hits.length, emptiedMs, added: added.added, found };
    });
    console.log(`site data cleared: memory dropped after ${after.emptiedMs.toFixed(0)} ms`);
    expect(after).toMatchObject({ stale: 0, added: 1, found: 'again' });
    await context.close();
  });
});
