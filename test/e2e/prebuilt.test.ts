import { execFile } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_KB } from '../../demo/sample-kb';
import { launch, openHarness, origin } from './browser';

const root = resolve(import.meta.dirname, '../..');
let browser: Browser;
beforeAll(async () => {
  // Build a site folder and its index with the CLI, as a static-site author would.
  const site = join(root, 'test-results/site');
  mkdirSync(join(site, 'help'), { recursive: true });
  for (const d of SAMPLE_KB) writeFileSync(join(site, 'help', `${d.id}.md`), d.markdown);
  await promisify(execFile)(process.execPath, ['dist/cli/threadline.js', 'index', site, '-o', join(root, 'test-results/site.tlix')], { cwd: root, timeout: 60_000 });
  browser = await launch();
});
afterAll(async () => { await browser.close(); });

describe('prebuilt index for static sites (CLI + tl.load in Chromium)', () => {
  it('loads once with zero embedding calls, answers locally, and touches no other origin', async () => {
    const context = await browser.newContext();
    const foreign: string[] = [];
    context.on('request', (r) => { if (!r.url().startsWith(`${origin()}/`) && !r.url().startsWith('blob:') && !r.url().startsWith('data:')) foreign.push(r.url()); });
    const page = await openHarness(browser, context);
    const result = await page.evaluate(async () => {
      const tl = await window.threadline.createThreadline({ name: 'site' });
      const downloads: { phase: string; loaded?: number; total?: number; fraction?: number }[] = [];
      const first = await tl.load('/test-results/site.tlix', { onProgress: (p) => downloads.push(p) });
      const second = await tl.load('/test-results/site.tlix');
      const hits = await tl.search('how long does a refund take to reach my card?', { k: 1 });
      const stats = await tl.stats();
      const broken = await tl.load('/test-results/does-not-exist.tlix').then(() => 'ok', (e: { code?: string }) => e.code);
      // A web page where the file should be (a host's fallback for a missing file) is said as such; any other file is a corrupt index.
      const page = await tl.load('/demo/index.html').then(() => 'ok', (e: { code?: string; details?: { reason?: string } }) => `${e.code} ${e.details?.reason}`);
      const notIndex = await tl.load('/package.json').then(() => 'ok', (e: { code?: string }) => e.code);
      const after = await tl.stats();
      await tl.dispose();
      return { downloaded: downloads.at(-1), downloads: downloads.length, first, second, top: hits[0]?.docId, url: hits[0]?.url, embedded: stats.embeddedChunks, broken, page, notIndex, docsAfter: after.docs };
    });
    // Download progress, up to the whole file.
    const size = statSync(join(root, 'test-results/site.tlix')).size;
    expect(result.downloads).toBeGreaterThan(0);
    expect(result.downloaded).toEqual({ phase: 'index-download', url: `${origin()}/test-results/site.tlix`, loaded: size, total: size, fraction: 1 });
    expect(result).toMatchObject({ first: { loaded: true, docs: SAMPLE_KB.length }, second: { loaded: false }, top: 'help/refunds.md', embedded: 0, broken: 'MODEL_LOAD_FAILED', page: 'MODEL_LOAD_FAILED page', notIndex: 'CORRUPT_INDEX', docsAfter: SAMPLE_KB.length });
    expect(foreign).toEqual([]);
    await context.close();
  });
});
