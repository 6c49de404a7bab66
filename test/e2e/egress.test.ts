import type { Browser, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, openHarness, origin } from './browser';

let browser: Browser;
beforeAll(async () => { browser = await launch(); });
afterAll(async () => { await browser.close(); });

const QUESTIONS = ["what's the refund window?", 'what about damaged items?', 'and how long does that refund take?', 'thanks!', 'how do I track my order?'];

describe('zero egress (offline model, full session, every request captured)', () => {
  it('ingest, five turns, reload, five more: every request is same-origin', async () => {
    const context = await browser.newContext();
    // Context-level capture sees the page's requests and those of its dedicated workers (model, WASM).
    const requests: { url: string }[] = [];
    context.on('request', (r: Request) => requests.push({ url: r.url() }));
    const page = await openHarness(browser, context);
    page.on('worker', (w) => requests.push({ url: w.url() }));
    const session = () => page.evaluate(async (questions) => {
      const tl = await window.threadline.createThreadline({ name: 'egress' });
      await tl.add(window.sampleKb.map((d) => ({ id: d.id, title: d.title, url: d.url, text: d.markdown, format: 'markdown' as const })));
      const chat = await tl.chat({ sessionId: 'egress' });
      const modes: string[] = [];
      for (const q of questions) for await (const e of chat.ask(q)) if (e.type === 'done') modes.push(e.mode);
      await tl.dispose();
      return modes;
    }, QUESTIONS);
    expect(await session()).toEqual(['extractive', 'extractive', 'extractive', 'smalltalk', 'extractive']);
    await page.reload();
    await page.waitForFunction(() => window.harnessReady === true);
    expect(await session()).toHaveLength(5);
    const foreign = requests.filter((r) => !r.url.startsWith(`${origin()}/`) && !r.url.startsWith(`blob:${origin()}/`) && !r.url.startsWith('data:'));
    console.log(`captured ${requests.length} requests; foreign: ${foreign.length}`);
    expect(requests.some((r) => r.url.includes('/threadline-glove-30k/model.safetensors'))).toBe(true);
    // The static offline model needs neither onnxruntime-web nor transformers.js: neither is fetched.
    expect(requests.filter((r) => /ort-wasm|transformers/.test(r.url))).toEqual([]);
    expect(foreign).toEqual([]);
    await context.close();
  });
});
