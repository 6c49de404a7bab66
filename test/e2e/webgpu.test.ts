import { chromium, type Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.ts';
import { launch, openHarness } from './browser';

const browsers: Browser[] = [];
afterAll(async () => { await Promise.all(browsers.map((b) => b.close())); });

describe('WebGPU capability check in Chromium', () => {
  it('with --enable-unsafe-webgpu it finds the (software) adapter and reports its features', async () => {
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs({ webgpu: true }) });
    browsers.push(browser);
    const page = await openHarness(browser, await browser.newContext());
    const result = await page.evaluate(async () => {
      try { return { ok: true, capability: await window.threadline.checkWebGpu() }; } catch (e) { return { ok: false, error: String(e) }; }
    });
    console.log('WebGPU capability with --enable-unsafe-webgpu:', JSON.stringify(result));
    expect(result.ok).toBe(true);
    expect(result.capability?.maxStorageBufferBindingSize).toBeGreaterThan(0);
    expect(Array.isArray(result.capability?.features)).toBe(true);
  });

  it('without it, createThreadline falls back to rules + extractive answers and says so', async () => {
    const browser = await launch();
    browsers.push(browser);
    const page = await openHarness(browser, await browser.newContext());
    const result = await page.evaluate(async () => {
      const events: unknown[] = [];
      const tl = await window.threadline.createThreadline({ name: 'no-gpu', llm: {}, onProgress: (p) => { if (p.phase === 'llm-status') events.push(p); } });
      await tl.add(window.sampleKb.slice(0, 1).map((d) => ({ id: d.id, title: d.title, text: d.markdown, format: 'markdown' as const })));
      const chat = await tl.chat();
      let mode = '';
      for await (const e of chat.ask("what's the refund window?")) if (e.type === 'done') mode = e.mode;
      const hasLlm = tl.llm !== undefined;
      await tl.dispose();
      return { events, mode, hasLlm };
    });
    expect(result.hasLlm).toBe(false);
    expect(result.events).toEqual([expect.objectContaining({ phase: 'llm-status', status: 'unavailable' })]);
    expect(result.mode).toBe('extractive');
  });
});
