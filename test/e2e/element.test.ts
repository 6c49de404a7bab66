import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { SAMPLE_KB } from '../../demo/sample-kb';
import { serveStatic, type StaticServer } from '../../scripts/static-server.ts';
import { launch } from './browser';
import { harborManual } from '../fixtures/pdf-writer';
import { buildExampleSite, cli, confineTo, elementEventsOf, recordDialogs, requireBuild, root, pageTimings, waitForElement, waitForElementEvent, watchElementEvents, du } from './built';

let browser: Browser;

let server: StaticServer;
let site: string;
/** The same page, its element copied with `--with-llm` (web-llm included). */
let llmServer: StaticServer;

beforeAll(async () => {
  requireBuild();
  const docs = Object.fromEntries(SAMPLE_KB.map((d) => [`${d.id}.md`, d.markdown]));
  site = await buildExampleSite('element-site', docs);
  server = await serveStatic(site); // no COOP/COEP: a plain static host
  llmServer = await serveStatic(await buildExampleSite('element-site-llm', docs, ['--with-llm']));
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await llmServer?.close();
});

describe('<threadline-chat> on the example static page (built element, prebuilt index, plain static host)', () => {
  it('answers from the prebuilt index with the network limited to the page origin, keyboard only', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const foreign = await confineTo(context, server.origin);
    const page = await context.newPage();
    const dialogs = recordDialogs(page);
    await watchElementEvents(page);
    const workers: string[] = [];
    page.on('worker', (w) => workers.push(w.url()));
    const requestsBefore = server.requests.length;
    const started = Date.now();
    await page.goto(`${server.origin}/index.html`);
    expect(await waitForElement(page)).toEqual({ type: 'threadline-ready', detail: { docs: SAMPLE_KB.length, chunks: expect.any(Number) as number, llm: null, name: 'threadline-chat' } });
    const readyMs = Date.now() - started;

    const chat = page.locator('threadline-chat');
    const input = chat.locator('input');
    await input.focus();
    await page.keyboard.type("what's the refund window?");
    const asked = Date.now();
    await page.keyboard.press('Enter');
    const first = chat.locator('.tl-turn').nth(0);
    await first.locator('.tl-mode').waitFor();
    const answerMs = Date.now() - asked;
    expect(await first.locator('.tl-mode').textContent()).toMatch(/Extractive answer/);
    expect(await first.locator('.tl-answer').textContent()).toMatch(/30 days/);
    const firstBytes = server.bytesSent(); // everything the server sent this first visitor (uncompressed)
    // The entry started the retrieval worker before loading the element, and the element adopted it: one worker, not two;
    // the worker fetched the index ahead, and load() took that response: one request for it, not two.
    expect(workers.filter((url) => /retrieval\.worker/.test(url))).toHaveLength(1);
    expect(server.requests.slice(requestsBefore).filter((path) => path === '/site.tlix')).toHaveLength(1);

    await input.focus();
    await page.keyboard.type('what about damaged items?');
    await page.keyboard.press('Enter');
    const second = chat.locator('.tl-turn').nth(1);
    await second.locator('.tl-mode').waitFor();
    expect(await second.locator('.tl-rewrite').textContent()).toMatch(/Searched for: .*damaged/);
    expect(await second.locator('.tl-answer').textContent()).toMatch(/60 days/);

    // The log follows the conversation: the new question and the start of its answer are in view.
    const inView = await page.evaluate(() => {
      const root = document.querySelector('threadline-chat')?.shadowRoot;
      const log = root?.querySelector('.log')?.getBoundingClientRect();
      const turns = root?.querySelectorAll('.tl-turn');
      const last = turns?.[turns.length - 1];
      const q = last?.querySelector('.tl-user')?.getBoundingClientRect();
      const a = last?.querySelector('.tl-answer')?.getBoundingClientRect();
      if (!log || !q || !a) return null;
      return { question: q.top >= log.top - 1 && q.bottom <= log.bottom + 1, answerStart: a.top >= log.top - 1 && a.top + 16 <= log.bottom + 1 };
    });
    expect(inView).toEqual({ question: true, answerStart: true });
    // …and inside the window (1280 × 800), with the input, and nothing wider than the window.
    const field = await input.boundingBox();
    const answerBox = await second.locator('.tl-answer').boundingBox();
    expect(field && answerBox && answerBox.y >= 0 && answerBox.y + 20 <= 800 && field.y + field.height <= 800).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

    // A citation in the answer opens its passage, by keyboard.
    await second.locator('.tl-answer button[data-cite="1"]').first().focus();
    await page.keyboard.press('Enter');
    const passage = second.locator('.tl-source[data-n="1"] .tl-passage');
    expect(await passage.isVisible()).toBe(true);
    expect(await second.locator('.tl-source[data-n="1"] button').getAttribute('aria-expanded')).toBe('true');

    await page.screenshot({ path: 'test-results/element.png' });
    expect(await page.evaluate(() => window.crossOriginIsolated)).toBe(false);
    expect(foreign).toEqual([]);
    expect(dialogs).toEqual([]);

    // Reload: the index and the conversation come back, nothing is re-embedded or re-fetched from elsewhere.
    const reloaded = Date.now();
    await page.reload();
    await waitForElement(page);
    const reloadReadyMs = Date.now() - reloaded;
    await chat.locator('.tl-turn').nth(1).waitFor();
    expect(await chat.locator('.tl-turn').count()).toBe(2);
    await chat.locator('input').fill('how long do refunds take?');
    const askedAgain = Date.now();
    await chat.locator('input').press('Enter');
    await chat.locator('.tl-turn').nth(2).locator('.tl-mode:not([hidden])').waitFor();
    const reloadAnswerMs = Date.now() - askedAgain;
    const inPage = await pageTimings(page);
    expect(foreign).toEqual([]);
    await context.close();

    // Reload timings without request interception (routing every request through the test driver adds its own
    // latency): a fresh context that only watches for foreign requests, one visit with a question, then eight reloads,
    // each asked a question, in the page's own clock.
    const timed = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const seen: string[] = [];
    timed.on('request', (r) => { if (!r.url().startsWith(`${server.origin}/`)) seen.push(r.url()); });
    const timedPage = await timed.newPage();
    await watchElementEvents(timedPage);
    await timedPage.goto(`${server.origin}/index.html`);
    await waitForElement(timedPage);
    const reloads: { ready: number; answer: number }[] = [];
    for (let i = 0; i <= 8; i++) {
      const box = timedPage.locator('threadline-chat input:not([disabled])');
      await box.fill(i % 2 ? 'what about damaged items?' : "what's the refund window?");
      await box.press('Enter');
      await timedPage.waitForFunction(() => (window as unknown as { tlTimes: { done: number[] } }).tlTimes.done.length > 0);
      const t = await pageTimings(timedPage);
      if (i > 0) reloads.push({ ready: t.ready, answer: t.answers[0] ?? NaN });
      if (i === 8) break;
      await timedPage.reload();
      await waitForElement(timedPage);
    }
    const totals = reloads.map((r) => r.ready + r.answer).sort((a, b) => a - b);
    const readies = reloads.map((r) => r.ready).sort((a, b) => a - b);
    expect(seen).toEqual([]);
    await timed.close();
    console.log(`element on a static site: deploy ${(du(join(site, 'threadline')) / 1e6).toFixed(2)} MB (the copied element), first visit downloaded ${(firstBytes / 1e6).toFixed(2)} MB until the first answer; first visit: ready ${readyMs} ms after navigation, answer ${answerMs} ms after Enter; after a reload: ready ${reloadReadyMs} ms, answer ${reloadAnswerMs} ms (as the test driver sees them); in the page's own clock after the reload: ready ${inPage.ready} ms after navigation, answer ${inPage.answers[0]} ms after Enter, ${inPage.ready + (inPage.answers[0] ?? NaN)} ms in all (every request routed through the test driver); without interception, eight reloads: ready ${readies[4]} ms (median; ${readies[0]}–${readies.at(-1)}), ready plus the answer to a question asked at once ${totals[4]} ms (median; ${totals[0]}–${totals.at(-1)})`);
  });
});

describe('<threadline-chat> suggestions, copy and parts', () => {
  it('offers starter questions, answers one on click, copies the answer, and exposes parts', async () => {
    const context = await browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
    const foreign = await confineTo(context, server.origin);
    const page = await context.newPage();
    await watchElementEvents(page);
    await page.addInitScript(() => {
      document.addEventListener('readystatechange', () => {
        if (document.readyState === 'interactive') document.querySelector('threadline-chat')?.setAttribute('suggestions', "What's the refund window? | How do I track my order?");
      });
    });
    await page.goto(`${server.origin}/index.html`);
    expect(await waitForElement(page)).toMatchObject({ type: 'threadline-ready' });
    const chat = page.locator('threadline-chat');
    const suggestions = chat.locator('[part~="suggestion"]');
    expect(await suggestions.allTextContents()).toEqual(["What's the refund window?", 'How do I track my order?']);
    await suggestions.first().click();
    await chat.locator('.tl-turn .tl-mode:not([hidden])').waitFor({ timeout: 60_000 });
    expect(await chat.locator('.suggestions').isHidden()).toBe(true);
    expect(await chat.locator('[part~="user"]').first().textContent()).toBe("What's the refund window?");
    expect(await chat.locator('[part~="answer"]').first().textContent()).toMatch(/30 days/);
    for (const part of ['input', 'ask-button', 'new-button', 'sources', 'copy-button']) expect(await chat.locator(`[part~="${part}"]`).count()).toBeGreaterThan(0);
    await chat.locator('[part~="copy-button"]').first().click();
    await page.waitForFunction(() => document.querySelector('threadline-chat')?.shadowRoot?.querySelector('.tl-copy')?.textContent !== 'Copy');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/30 days/);
    expect(foreign).toEqual([]);
    await context.close();
  });
});

describe('<threadline-chat> resuming a long conversation', () => {
  it('after a reload shows the latest 30 turns, reads the earlier ones from IndexedDB when asked, and a follow-up still reads the conversation', async () => {
    const { context, foreign, page } = await openExample();
    const chat = page.locator('threadline-chat');
    const input = chat.locator('input');
    const questions = ["what's the refund window?", 'how do I track my order?', 'which plans include offline sync?', 'how do I reset my password?', 'what does Pro cost?'];
    for (let i = 0; i < 34; i++) {
      await input.fill(`${questions[i % questions.length] as string} (${i + 1})`);
      await input.press('Enter');
      await chat.locator('.tl-turn .tl-mode:not([hidden])').nth(i).waitFor({ timeout: 60_000 });
    }
    await page.reload();
    expect(await waitForElement(page)).toMatchObject({ type: 'threadline-ready' });
    const users = () => chat.locator('.tl-turn [part~="user"]').allTextContents();
    expect(await users()).toHaveLength(30);
    expect((await users())[0]).toBe('what does Pro cost? (5)');
    const button = chat.locator('[part~="earlier-button"]');
    expect(await button.textContent()).toBe('Show 4 earlier of 4 turns');
    await button.click();
    await expect.poll(async () => (await users()).length).toBe(34);
    expect((await users())[0]).toBe("what's the refund window? (1)");
    expect(await button.count()).toBe(0);
    await input.fill('what about damaged items?');
    await input.press('Enter');
    const last = chat.locator('.tl-turn').nth(34);
    await last.locator('.tl-mode:not([hidden])').waitFor({ timeout: 60_000 });
    expect(await last.locator('[part~="answer"]').textContent()).toMatch(/damaged/i);
    expect(foreign).toEqual([]);
    await context.close();
  });
});

describe('<threadline-chat> colours', () => {
  it('follows prefers-color-scheme when the page sets no --threadline-* colours', async () => {
    const background = async (colorScheme: 'light' | 'dark') => {
      const context = await browser.newContext({ colorScheme });
      await confineTo(context, server.origin);
      const page = await context.newPage();
      await page.goto(`${server.origin}/index.html`);
      // The element is defined after the script's top-level await (its dynamic import), which the
      // load event does not wait for: read its colours once it is defined.
      const bg = await page.locator('threadline-chat').evaluate(async (el) => {
        await customElements.whenDefined('threadline-chat');
        return getComputedStyle(el).backgroundColor;
      });
      await context.close();
      return bg;
    };
    expect(await background('light')).toBe('rgb(255, 255, 255)');
    expect(await background('dark')).toBe('rgb(22, 25, 31)');
  });
});

describe('<threadline-chat> when its index file cannot be fetched again', () => {
  it.each([
    ['unreachable (HTTP 503)', { status: 503, body: 'Service Unavailable' }],
    ['replaced by a broken file', { status: 200, body: 'TLIX garbage from a broken deploy' }],
  ])('%s: warns, and answers from the verified copy stored on the first visit', async (_label, reply) => {
    const { context, foreign, page } = await openExample();
    await context.route('**/*.tlix', (route) => route.fulfill(reply));
    await page.reload();
    expect(await waitForElementEvent(page, (e) => e.type === 'threadline-ready')).toMatchObject({ detail: { docs: SAMPLE_KB.length } });
    expect(elementEventsOf(page).some((e) => e.type === 'threadline-error' && (e.detail as { recovered?: boolean }).recovered === true)).toBe(true);
    const chat = page.locator('threadline-chat');
    expect(await chat.locator('.status').textContent()).toMatch(/could not be updated .*answering from the copy saved on this device/);
    await askRefundWindow(page);
    expect(await chat.locator('.tl-turn .tl-answer').last().textContent()).toMatch(/30 days/);
    expect(foreign).toEqual([]);
    await context.close();
  });
});

describe('<threadline-chat> when its first visit fails on the network', () => {
  /** A fresh visitor whose download of `file` fails (`failing()`), other origins blocked. */
  async function visit(failing: () => Promise<boolean>, file = '**/site.tlix') {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }); // a phone
    await confineTo(context, server.origin);
    await context.route(file, async (route) => ((await failing()) ? route.abort('internetdisconnected') : route.continue()));
    const page = await context.newPage();
    await watchElementEvents(page);
    await page.goto(`${server.origin}/index.html`);
    return { context, page, retry: page.locator('threadline-chat .retry') };
  }

  it('says why with a Try again button, which starts it again', async () => {
    let fail = true;
    const { context, page, retry } = await visit(() => Promise.resolve(fail));
    expect(await waitForElement(page)).toMatchObject({ type: 'threadline-error', detail: { code: 'MODEL_LOAD_FAILED' } });
    expect(await page.locator('threadline-chat .status').textContent()).toMatch(/^Cannot answer here: .*site\.tlix/);
    expect(await retry.isVisible()).toBe(true); // before: no way on but reloading the page
    // On the phone's width, the button stays inside the chat's box beside the long reason (it had been pushed past its edge).
    const [button, panel] = await Promise.all([retry.boundingBox(), page.locator('threadline-chat .panel').boundingBox()]);
    expect((button?.x ?? 0) + (button?.width ?? 0)).toBeLessThanOrEqual((panel?.x ?? 0) + (panel?.width ?? 0));
    fail = false;
    await retry.click();
    expect(await waitForElementEvent(page, (e) => e.type === 'threadline-ready')).toMatchObject({ detail: { docs: SAMPLE_KB.length } });
    expect(await retry.isVisible()).toBe(false);
    await askRefundWindow(page);
    expect(await page.locator('threadline-chat .tl-turn .tl-answer').last().textContent()).toMatch(/30 days/);
    await context.close();
  });

  it('the search model failing after the index is in: ready, and the question says why; once the model can be fetched, the next one answers', async () => {
    let fail = true;
    const { context, page } = await visit(() => Promise.resolve(fail), '**/model.safetensors');
    // The index is checked without the model (its size is known), so the element is ready without it.
    expect(await waitForElement(page)).toMatchObject({ type: 'threadline-ready', detail: { docs: SAMPLE_KB.length } });
    const chat = page.locator('threadline-chat');
    await askRefundWindow(page);
    expect(await chat.locator('.tl-turn .tl-mode').textContent()).toMatch(/model\.safetensors could not be fetched/);
    fail = false;
    const input = chat.locator('input');
    await input.fill("what's the refund window?");
    await input.press('Enter');
    const second = chat.locator('.tl-turn').nth(1);
    await second.locator('.tl-mode:not([hidden])').waitFor();
    expect(await second.locator('.tl-answer').textContent()).toMatch(/30 days/);
    expect(await second.locator('.tl-mode').textContent()).not.toMatch(/words only/);
    await context.close();
  });

  it("the condenser's code (a chunk the standalone element fetches when first needed, not with the page) failing: the first question answers, a follow-up is searched as typed and says so; after a reload, once it can be fetched, a follow-up is condensed", async () => {
    let fail = true;
    const { context, page } = await visit(() => Promise.resolve(fail), '**/turn-rules-*.js');
    expect(await waitForElement(page)).toMatchObject({ type: 'threadline-ready', detail: { docs: SAMPLE_KB.length } });
    const chat = page.locator('threadline-chat');
    await askRefundWindow(page);
    expect(await chat.locator('.tl-turn .tl-answer').first().textContent()).toMatch(/30 days/);
    const input = chat.locator('input');
    const follow = async (n: number) => {
      await input.fill('what about damaged items?');
      await input.press('Enter');
      const turn = chat.locator('.tl-turn').nth(n);
      await turn.locator('.tl-mode:not([hidden])').waitFor();
      return turn;
    };
    const offline = await follow(1);
    expect(await offline.locator('.tl-rewrite').textContent()).toMatch(/^Searched as typed: .*could not be fetched .*reloading the page/);
    // Chromium keeps a failed import's result for the page's life: a reload fetches the code again.
    fail = false;
    await page.reload();
    expect(await waitForElementEvent(page, (e) => e.type === 'threadline-ready')).toMatchObject({ detail: { docs: SAMPLE_KB.length } });
    const online = await follow(2);
    expect(await online.locator('.tl-rewrite').textContent()).toMatch(/^Searched for: .*damaged/);
    expect(await online.locator('.tl-answer').textContent()).toMatch(/damaged/i);
    await context.close();
  });

  it('offline when it failed: tries again by itself once the browser is back online', async () => {
    let goneOffline!: () => void;
    const offline = new Promise<void>((resolve) => { goneOffline = resolve; });
    let fail = true;
    // The download is held until the browser is offline, then fails, as a connection lost mid-visit does.
    const { context, page, retry } = await visit(async () => { if (fail) await offline; return fail; });
    await page.waitForFunction(() => document.querySelector('threadline-chat')?.shadowRoot?.querySelector('.status')?.textContent?.startsWith('Loading'));
    await context.setOffline(true);
    goneOffline();
    expect(await waitForElement(page)).toMatchObject({ type: 'threadline-error', detail: { code: 'MODEL_LOAD_FAILED' } });
    expect(await retry.isVisible()).toBe(true);
    fail = false;
    await context.setOffline(false);
    expect(await waitForElementEvent(page, (e) => e.type === 'threadline-ready')).toMatchObject({ detail: { docs: SAMPLE_KB.length } });
    expect(await retry.isVisible()).toBe(false);
    await context.close();
  });

  it('a first visit on a slow connection is ready, and answers, before the search model has arrived, saying it searched by words only; once it is in, answers search with it', async () => {
    const context = await browser.newContext();
    const foreign = await confineTo(context, server.origin);
    let arrive!: () => void;
    const arrived = new Promise<void>((resolve) => { arrive = resolve; });
    await context.route('**/model.safetensors', async (route) => { await arrived; await route.continue(); });
    const page = await context.newPage();
    await watchElementEvents(page);
    await page.goto(`${server.origin}/index.html`);
    // Before: ready waited for the model (loading the index checked its vectors against the model's size).
    expect(await waitForElement(page)).toMatchObject({ type: 'threadline-ready', detail: { docs: SAMPLE_KB.length } });
    const chat = page.locator('threadline-chat');
    await askRefundWindow(page);
    expect(await chat.locator('.tl-turn .tl-mode').textContent()).toMatch(/Extractive answer.*Searched by words only: the search model was still downloading/);
    expect(await chat.locator('.tl-turn .tl-answer').textContent()).toMatch(/30 days/);
    const finished = context.waitForEvent('requestfinished', (r) => r.url().endsWith('/model.safetensors'));
    arrive();
    await finished;
    await page.waitForTimeout(1_500); // the table is read in a few ms once it is in
    const input = chat.locator('input');
    await input.fill('what about damaged items?');
    await input.press('Enter');
    const second = chat.locator('.tl-turn').nth(1).locator('.tl-mode:not([hidden])');
    await second.waitFor();
    expect(await second.textContent()).toMatch(/Extractive answer/);
    expect(await second.textContent()).not.toMatch(/words only/);
    expect(foreign).toEqual([]);
    await context.close();
  });

  it('a failure only the site can mend (the index answered by a page: a file never deployed) offers no Try again; the model\'s download finishing later does not write over the reason', async () => {
    const context = await browser.newContext();
    await confineTo(context, server.origin);
    await context.route('**/site.tlix', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Not found</title>' }));
    // The model's download is held until the element has failed, then finishes, as a slower download does.
    let failedAlready!: () => void;
    const failed = new Promise<void>((resolve) => { failedAlready = resolve; });
    await context.route('**/model.safetensors', async (route) => { await failed; await route.continue(); });
    const page = await context.newPage();
    await watchElementEvents(page);
    await page.goto(`${server.origin}/index.html`);
    expect(await waitForElement(page)).toMatchObject({ type: 'threadline-error', detail: { code: 'MODEL_LOAD_FAILED' } });
    failedAlready();
    // Before: "Downloading the search model: 100%" replaced the error once the download ended.
    await page.waitForTimeout(1_000);
    expect(await page.locator('threadline-chat .status').textContent()).toMatch(/^Cannot answer here: .*answered with a web page/);
    expect(await page.locator('threadline-chat .retry').isVisible()).toBe(false);
    await context.close();
  });
});

describe('<threadline-chat> on pages of one origin with different index files (as GitHub Pages project sites share one)', () => {
  it('each page answers from its own index, in two open tabs, after reloads, and from its own stored copy when its file cannot be fetched', async () => {
    // /a/ is the example site, /b/ a garden site: both use the default name, each with its own ./site.tlix.
    const garden = await buildExampleSite('element-site-garden', {
      'garden.md': '# Watering tomatoes\n\nWater tomatoes deeply twice a week; the soil should stay moist but never soggy.\n\n# Pruning roses\n\nPrune roses in late winter, just before new growth starts.\n',
      'compost.md': '# Compost basics\n\nA compost heap needs greens and browns. Turn it every two weeks.\n',
    });
    const shared = join(site, '..', 'element-sites-shared');
    rmSync(shared, { recursive: true, force: true });
    cpSync(site, join(shared, 'a'), { recursive: true });
    cpSync(garden, join(shared, 'b'), { recursive: true });
    const host = await serveStatic(shared);
    const context = await browser.newContext();
    const foreign = await confineTo(context, host.origin);
    const open = async (path: string) => {
      const page = await context.newPage();
      await watchElementEvents(page);
      await page.goto(`${host.origin}${path}`);
      return page;
    };
    const ask = async (page: Page, question: string) => {
      const chat = page.locator('threadline-chat');
      const before = await chat.locator('.tl-turn .tl-mode:not([hidden])').count();
      await chat.locator('input:not([disabled])').fill(question);
      await chat.locator('input').press('Enter');
      await chat.locator('.tl-turn .tl-mode:not([hidden])').nth(before).waitFor({ timeout: 60_000 });
      return chat.locator('.tl-turn .tl-answer').last().textContent();
    };
    const readyDetail = async (page: Page) => (await waitForElementEvent(page, (e) => e.type === 'threadline-ready')).detail as { docs: number; name: string };
    const docsAtReady = async (page: Page) => (await readyDetail(page)).docs;

    const a = await open('/a/index.html');
    expect(await docsAtReady(a)).toBe(SAMPLE_KB.length);
    expect(await ask(a, "what's the refund window?")).toMatch(/30 days/);
    const b = await open('/b/index.html');
    expect(await readyDetail(b)).toMatchObject({ docs: 2, name: 'threadline-chat /b/site.tlix' });
    expect(await ask(b, 'how often should I water tomatoes?')).toMatch(/twice a week/);
    // The first tab still answers from its own documents (it had been answering from the garden's: "could not find this").
    expect(await ask(a, 'how long does shipping take?')).toMatch(/3 to 7 business days/);
    expect(await b.evaluate(async () => (await indexedDB.databases()).map((d) => d.name).sort())).toEqual(expect.arrayContaining(['threadline:threadline-chat', 'threadline:threadline-chat /b/site.tlix']));

    // Reloads: /b/ goes straight to its own name (one retrieval worker, not one for the default name and another).
    const workers: string[] = [];
    b.on('worker', (w) => { if (/retrieval\.worker/.test(w.url())) workers.push(w.url()); });
    await b.reload();
    expect(await docsAtReady(b)).toBe(2);
    expect(workers).toHaveLength(1);
    expect(await ask(b, 'when do I prune roses?')).toMatch(/late winter/);
    await a.reload();
    expect(await docsAtReady(a)).toBe(SAMPLE_KB.length);
    expect(await ask(a, 'how long is the hardware warranty?')).toMatch(/one-year/);

    // Its file unreachable and the shortcut forgotten: /b/ still answers from the garden copy it stored, never from /a/'s.
    await b.evaluate(() => localStorage.clear());
    await context.route('**/b/site.tlix', (route) => route.fulfill({ status: 503, body: 'Service Unavailable' }));
    await b.reload();
    expect(await docsAtReady(b)).toBe(2);
    expect(await b.locator('threadline-chat .status').textContent()).toMatch(/could not be updated/);
    expect(await ask(b, 'how often should I turn the compost?')).toMatch(/every two weeks/);
    expect(foreign).toEqual([]);
    await context.close();
    await host.close();
  });
});

/** A site's example page served with `policy` on every response; resolves at the element's first ready or error event, with the page's uncaught errors. */
async function openUnderPolicy(dir: string, policy: string, path = '/index.html') {
  const host = await serveStatic(dir, { headers: { 'Content-Security-Policy': policy } });
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const workers: string[] = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  // Every refusal of a Trusted Types sink is a violation report.
  await page.addInitScript(() => {
    const counted = globalThis as unknown as { trustedTypesViolations: number };
    counted.trustedTypesViolations = 0;
    document.addEventListener('securitypolicyviolation', (e) => { if (e.violatedDirective === 'require-trusted-types-for') counted.trustedTypesViolations++; });
  });
  await watchElementEvents(page);
  await page.goto(`${host.origin}${path}`);
  const first = await waitForElement(page);
  const violations = () => page.evaluate(() => (globalThis as unknown as { trustedTypesViolations: number }).trustedTypesViolations);
  const close = async () => { await context.close(); await host.close(); };
  return { page, errors, workers, violations, first, close };
}

describe('<threadline-chat> under a strict Content-Security-Policy (the header on every response, as a host\'s header rules add it)', () => {
  /** The example page's own inline <style> is the page's business; everything else is as strict as a policy gets. */
  const STRICT = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'";
  const open = (policy: string) => openUnderPolicy(site, policy);

  it('enforcing Trusted Types (require-trusted-types-for, policies "threadline" and "dompurify" allowed): answers, and nothing throws on the page', async () => {
    // Before: the entry's early worker start threw "This document requires 'TrustedScriptURL' assignment" and the element was never defined.
    const { page, errors, workers, violations, first, close } = await open(`${STRICT}; require-trusted-types-for 'script'; trusted-types threadline dompurify`);
    expect(first).toMatchObject({ type: 'threadline-ready', detail: { docs: SAMPLE_KB.length } });
    // The entry's early start made the worker through threadline's policy, and the element adopted it: one refused try
    // (the entry's plain one), one retrieval worker. Before, the early start gave up under Trusted Types and the element
    // made its worker only once its own code had loaded, after a second refusal (first visits were ready 60-110 ms later with 50 ms per response).
    expect(await violations()).toBe(1);
    expect(workers.filter((url) => /retrieval\.worker/.test(url))).toHaveLength(1);
    await askRefundWindow(page);
    expect(await page.locator('threadline-chat .tl-turn .tl-answer').last().textContent()).toMatch(/30 days/);
    expect(errors).toEqual([]);
    await close();
  });

  it.each([
    ['Trusted Types without the "threadline" policy allowed', "; require-trusted-types-for 'script'; trusted-types dompurify", /trusted-types directive/],
    ["worker-src 'none'", "; worker-src 'none'", /Content-Security-Policy refused it/],
  ])('%s: says the worker is unavailable and why (WORKER_UNAVAILABLE), instead of failing as INTERNAL or a crash to retry', async (_label, extra, why) => {
    const { page, errors, first, close } = await open(`${STRICT.replace(/; worker-src [^;]*/, '')}${extra}`);
    expect(first).toMatchObject({ type: 'threadline-error', detail: { code: 'WORKER_UNAVAILABLE' } });
    expect((first.detail as { message: string }).message).toMatch(why);
    expect(await page.locator('threadline-chat .status').textContent()).toMatch(why);
    expect(errors).toEqual([]);
    await close();
  });
});

describe('<threadline-chat> with a transformer embedding model (transformers.js + onnxruntime-web) under the same strict policy', () => {
  const STRICT = "default-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; require-trusted-types-for 'script'; trusted-types threadline dompurify";
  let onnxSite: string;
  beforeAll(async () => {
    const docs = Object.fromEntries(SAMPLE_KB.map((d) => [`${d.id}.md`, d.markdown]));
    onnxSite = await buildExampleSite('element-site-onnx', docs, ['--with-transformers']);
    // The ONNX build of the offline table, served with the site; WASM's dtype 'auto' reads onnx/model_quantized.onnx,
    // which this fp32-only table lacks, so the fp32 file is served under that name too (the same vectors).
    const model = join(onnxSite, 'threadline-glove-30k-onnx');
    cpSync(join(root, '.models/threadline-glove-30k-onnx'), model, { recursive: true });
    cpSync(join(model, 'onnx/model.onnx'), join(model, 'onnx/model_quantized.onnx'));
    await cli('index', `${onnxSite}-docs`, '-o', join(onnxSite, 'site.tlix'), '--model', `${model}/`);
    const page = readFileSync(join(onnxSite, 'index.html'), 'utf8');
    writeFileSync(join(onnxSite, 'index.html'), page.replace('<threadline-chat index="./site.tlix"', '<threadline-chat index="./site.tlix" embedder="/threadline-glove-30k-onnx/"'));
    // An index built with pinned weights (`--dtype fp32`), and pages whose element says so (or not, or wrongly).
    await cli('index', `${onnxSite}-docs`, '-o', join(onnxSite, 'site-fp32.tlix'), '--model', `${model}/`, '--dtype', 'fp32');
    for (const [file, dtype] of [['fp32.html', ' dtype="fp32"'], ['fp32-auto.html', ''], ['bad-dtype.html', ' dtype="f32"']] as const) {
      writeFileSync(join(onnxSite, file), page.replace('<threadline-chat index="./site.tlix"', `<threadline-chat index="./site-fp32.tlix" embedder="/threadline-glove-30k-onnx/" name="fp32"${dtype}`));
    }
  }, 120_000);

  const open = (policy: string, path?: string) => openUnderPolicy(onnxSite, policy, path);

  it('dtype="fp32" loads the weights an index built with --dtype fp32 holds, and answers; without it the index is MODEL_MISMATCH; an unknown one is INVALID_INPUT, with no Try again', async () => {
    const policy = `${STRICT}; script-src 'self' 'wasm-unsafe-eval'`;
    const pinned = await open(policy, '/fp32.html');
    expect(pinned.first).toMatchObject({ type: 'threadline-ready', detail: { docs: SAMPLE_KB.length } });
    await askRefundWindow(pinned.page);
    expect(await pinned.page.locator('threadline-chat .tl-turn .tl-answer').last().textContent()).toMatch(/30 days/);
    await pinned.close();
    const auto = await open(policy, '/fp32-auto.html');
    expect(auto.first).toMatchObject({ type: 'threadline-error', detail: { code: 'MODEL_MISMATCH' } });
    await auto.close();
    const wrong = await open(policy, '/bad-dtype.html');
    expect(wrong.first).toMatchObject({ type: 'threadline-error', detail: { code: 'INVALID_INPUT' } });
    expect(await wrong.page.locator('threadline-chat .status').textContent()).toMatch(/embedder\.dtype must be one of 'auto', 'fp32'.*got "f32"/);
    expect(await wrong.page.locator('threadline-chat [part="retry-button"]').isHidden()).toBe(true);
    expect(wrong.errors).toEqual([]);
    await wrong.close();
  });

  it("with 'wasm-unsafe-eval': answers with the transformer model, Trusted Types enforced", async () => {
    // Before: transformers.js imported onnxruntime's factory from a blob: URL, which script-src 'self' refuses ("no available backend found").
    const { page, errors, first, close } = await open(`${STRICT}; script-src 'self' 'wasm-unsafe-eval'`);
    expect(first).toMatchObject({ type: 'threadline-ready', detail: { docs: SAMPLE_KB.length } });
    await askRefundWindow(page);
    expect(await page.locator('threadline-chat .tl-turn .tl-answer').last().textContent()).toMatch(/30 days/);
    expect(errors).toEqual([]);
    await close();
  });

  it("without 'wasm-unsafe-eval': MODEL_LOAD_FAILED says the page's policy refuses WebAssembly and what to add, not that the runtime's files are missing", async () => {
    const { page, first, close } = await open(`${STRICT}; script-src 'self'`);
    expect(first).toMatchObject({ type: 'threadline-error', detail: { code: 'MODEL_LOAD_FAILED' } });
    const message = (first.detail as { message: string }).message;
    expect(message).toMatch(/"\/threadline-glove-30k-onnx\/" could not be loaded .*Content-Security-Policy refuses what onnxruntime-web needs: transformer models need 'wasm-unsafe-eval' in script-src/s);
    expect(message).not.toMatch(/WASM runtime at/);
    expect(await page.locator('threadline-chat .status').textContent()).toMatch(/wasm-unsafe-eval/);
    await close();
  });
});

/** The example page, other origins blocked and the element's events watched; resolves once it is ready. */
async function openExample() {
  const context = await browser.newContext();
  const foreign = await confineTo(context, server.origin);
  const page = await context.newPage();
  await watchElementEvents(page);
  await page.goto(`${server.origin}/index.html`);
  expect(await waitForElement(page)).toMatchObject({ type: 'threadline-ready' });
  return { context, foreign, page };
}

/** The example page with llm="auto" set before the element starts, other origins blocked; resolves at its first ready/error event. */
async function openWithLlmAuto(from: Browser, site: StaticServer = llmServer) {
  const context = await from.newContext();
  const foreign = await confineTo(context, site.origin);
  const page = await context.newPage();
  await watchElementEvents(page);
  await page.addInitScript(() => {
    document.addEventListener('readystatechange', () => { if (document.readyState === 'interactive') document.querySelector('threadline-chat')?.setAttribute('llm', 'auto'); });
  });
  await page.goto(`${site.origin}/index.html`);
  return { context, foreign, page, ready: await waitForElement(page) };
}

async function askRefundWindow(page: Page): Promise<void> {
  const input = page.locator('threadline-chat input');
  await input.fill("what's the refund window?");
  await input.press('Enter');
  await page.locator('threadline-chat .tl-turn .tl-mode:not([hidden])').waitFor({ timeout: 60_000 });
}

describe('<threadline-chat llm="auto">: the WebLLM path degrades to labelled extractive answers', () => {
  it('without WebGPU: says why, answers extractively', async () => {
    const { context, foreign, page, ready } = await openWithLlmAuto(browser);
    expect(ready).toMatchObject({ type: 'threadline-ready', detail: { llm: null } });
    const chat = page.locator('threadline-chat');
    expect(await chat.locator('.status').textContent()).toMatch(/extractive answers \(no language model: .*WebGPU/);
    await askRefundWindow(page);
    expect(await chat.locator('.tl-turn .tl-mode').textContent()).toMatch(/Extractive answer/);
    expect(foreign).toEqual([]);
    await context.close();
  });

  it('with a WebGPU adapter but no reachable model host: the real web-llm worker fails, the turn still answers, labelled', async () => {
    const gpuBrowser = await launch({ webgpu: true });
    try {
      const { context, foreign, page, ready } = await openWithLlmAuto(gpuBrowser);
      expect(ready).toMatchObject({ type: 'threadline-ready', detail: { llm: expect.stringContaining('Qwen2.5') as string } });
      const chat = page.locator('threadline-chat');
      await askRefundWindow(page);
      expect(await chat.locator('.tl-turn .tl-mode').textContent()).toMatch(/language model failed; this extractive answer stands in/);
      expect(await chat.locator('.tl-turn .tl-answer').textContent()).toMatch(/30 days/);
      // The model download was attempted (and blocked): nothing else left the page.
      expect(foreign.length).toBeGreaterThan(0);
      expect(foreign.every((url) => /huggingface\.co|raw\.githubusercontent\.com/.test(url))).toBe(true);
      await context.close();
    } finally {
      await gpuBrowser.close();
    }
  });

  it("under a strict Content-Security-Policy with Trusted Types (connect-src 'self'), with a WebGPU adapter: the web-llm worker starts through the policy, the model download is refused, the status says what to allow, the turn answers extractively", async () => {
    const policy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; connect-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; require-trusted-types-for 'script'; trusted-types threadline dompurify";
    const strictHost = await serveStatic(join(site, '..', 'element-site-llm'), { headers: { 'Content-Security-Policy': policy } });
    const gpuBrowser = await launch({ webgpu: true });
    try {
      const { context, page, ready } = await openWithLlmAuto(gpuBrowser, strictHost);
      const errors: string[] = []; // from the question on (the start is checked by its ready event)
      page.on('pageerror', (error) => errors.push(error.message));
      expect(ready).toMatchObject({ type: 'threadline-ready', detail: { llm: expect.stringContaining('Qwen2.5') as string } });
      const chat = page.locator('threadline-chat');
      await askRefundWindow(page);
      expect(await chat.locator('.tl-turn .tl-mode').textContent()).toMatch(/language model failed; this extractive answer stands in/);
      expect(await chat.locator('.tl-turn .tl-answer').textContent()).toMatch(/30 days/);
      expect(await chat.locator('.status').textContent()).toMatch(/could not be downloaded: offline, or refused \(a Content-Security-Policy's connect-src must allow/);
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      await gpuBrowser.close();
      await strictHost.close();
    }
  });

  it('copied without --with-llm, with a WebGPU adapter: says web-llm was left out, answers extractively, fetches nothing foreign', async () => {
    const gpuBrowser = await launch({ webgpu: true });
    try {
      const { context, foreign, page } = await openWithLlmAuto(gpuBrowser, server);
      const chat = page.locator('threadline-chat');
      await askRefundWindow(page);
      expect(await chat.locator('.tl-turn .tl-mode').textContent()).toMatch(/extractive answer stands in/);
      expect(await chat.locator('.tl-turn .tl-answer').textContent()).toMatch(/30 days/);
      await page.waitForFunction(() => /--with-llm/.test(document.querySelector('threadline-chat')?.shadowRoot?.querySelector('.status')?.textContent ?? ''), undefined, { timeout: 30_000 });
      expect(foreign).toEqual([]);
      await context.close();
    } finally {
      await gpuBrowser.close();
    }
  });
});

describe('<threadline-chat> on a phone (390 × 844) and as a launcher', () => {
  it('mode="launcher": loads nothing until opened, opens full screen with the input in view, three answers each in view, closes with Escape', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const foreign = await confineTo(context, server.origin);
    const page = await context.newPage();
    await page.addInitScript(() => {
      document.addEventListener('readystatechange', () => { if (document.readyState === 'interactive') document.querySelector('threadline-chat')?.setAttribute('mode', 'launcher'); });
    });
    const before = server.requests.length;
    await page.goto(`${server.origin}/index.html`);
    const launcher = page.locator('threadline-chat .launcher');
    await launcher.waitFor();
    await page.waitForTimeout(500);
    // Nothing but the page and the element's script: no worker, no model, no index.
    expect(server.requests.slice(before).filter((p) => /retrieval\.worker|safetensors|tokenizer|\.tlix/.test(p))).toEqual([]);
    const box = await launcher.boundingBox();
    expect(box && box.x + box.width <= 390 && box.y + box.height <= 844 && box.y > 700).toBe(true);

    await launcher.click();
    const panel = page.locator('threadline-chat .panel');
    await page.locator('threadline-chat input:not([disabled])').waitFor();
    expect(await panel.boundingBox()).toEqual({ x: 0, y: 0, width: 390, height: 844 });
    expect(await page.evaluate(() => document.querySelector('threadline-chat')?.shadowRoot?.activeElement?.tagName)).toBe('INPUT');
    // Three questions; after each, the newest answer's first line and the input are on screen, nothing scrolls sideways, no scrolling by hand.
    const inView = async (locator: ReturnType<typeof page.locator>) => {
      const b = await locator.boundingBox();
      return !!b && b.y >= 0 && b.y + Math.min(b.height, 20) <= 844 && b.x >= 0 && b.x + b.width <= 391;
    };
    for (const [i, q] of ["what's the refund window?", 'what about damaged items?', 'and how long does that refund take?'].entries()) {
      await page.locator('threadline-chat input').fill(q);
      await page.locator('threadline-chat input').press('Enter');
      const turn = page.locator('threadline-chat .tl-turn').nth(i);
      await turn.locator('.tl-mode:not([hidden])').waitFor();
      expect(await inView(turn.locator('.tl-answer'))).toBe(true);
      expect(await inView(page.locator('threadline-chat input'))).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    }
    expect(await page.locator('threadline-chat .tl-answer').allTextContents()).toEqual([expect.stringMatching(/30 days/), expect.stringMatching(/60 days/), expect.stringMatching(/5 business days/)]);
    await page.screenshot({ path: 'test-results/element-phone-launcher.png' });

    await page.keyboard.press('Escape');
    await launcher.waitFor();
    expect(await panel.isVisible()).toBe(false);
    expect(await page.evaluate(() => document.querySelector('threadline-chat')?.shadowRoot?.activeElement?.className)).toMatch(/launcher/);
    expect(foreign).toEqual([]);
    await context.close();
  });

  it('inline on a phone: the box fits the screen, so its input and the newest answer are in view together', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto(`${server.origin}/index.html`);
    const input = page.locator('threadline-chat input:not([disabled])');
    await input.waitFor();
    await input.fill('what about damaged items?');
    await input.press('Enter');
    await page.locator('threadline-chat .tl-turn').last().locator('.tl-mode:not([hidden])').waitFor();
    const host = await page.locator('threadline-chat').boundingBox();
    expect(host && host.height <= 844 && host.width <= 390).toBe(true);
    await page.locator('threadline-chat input').scrollIntoViewIfNeeded();
    const answer = await page.locator('threadline-chat .tl-answer').last().boundingBox();
    const field = await page.locator('threadline-chat input').boundingBox();
    expect(answer && field && answer.y >= 0 && field.y + field.height <= 844).toBe(true);
    await page.screenshot({ path: 'test-results/element-phone-inline.png' });
    await context.close();
  });
});

describe('<threadline-chat> over a site whose index holds a PDF (threadline index reads it at build time)', () => {
  it('cites the PDF passage by page', async () => {
    const manual = harborManual();
    const pdfServer = await serveStatic(await buildExampleSite('element-site-pdf', { 'Harbor manual.pdf': manual, 'refunds.md': SAMPLE_KB[0]?.markdown ?? '' }));
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const foreign = await confineTo(context, pdfServer.origin);
    const page = await context.newPage();
    await watchElementEvents(page);
    await page.goto(`${pdfServer.origin}/index.html`);
    expect(await waitForElement(page)).toMatchObject({ type: 'threadline-ready', detail: { docs: 2 } });
    const chat = page.locator('threadline-chat');
    await chat.locator('input').fill('what if the sync stalls?');
    await chat.locator('input').press('Enter');
    await chat.locator('.tl-turn .tl-mode:not([hidden])').waitFor({ timeout: 60_000 });
    expect(await chat.locator('[part~="answer"]').first().textContent()).toMatch(/restart the Harbor service/);
    expect(await chat.locator('[part~="sources"]').first().textContent()).toMatch(/Harbor manual\.pdf › Troubleshooting, p\. 3/);
    await page.screenshot({ path: 'test-results/element-pdf.png' });
    expect(foreign).toEqual([]);
    await context.close();
    await pdfServer.close();
  });
});

describe('<threadline-chat> when the page closes mid-answer', () => {
  it('puts the unanswered question back in the box after a reload (a scripted Llm that never answers), and answering it clears it', async () => {
    const { context, foreign, page } = await openExample();
    await askRefundWindow(page);
    // A language model that starts and never finishes: the page is reloaded while the answer is still coming.
    await page.evaluate(() => {
      const chat = document.querySelector('threadline-chat') as HTMLElement & { llm: unknown };
      chat.llm = { id: 'scripted-never-ending', contextWindow: 4096, stream: () => ({ [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<string>>(() => undefined) }) }) };
    });
    await page.locator('threadline-chat .status', { hasText: 'answers by scripted-never-ending' }).waitFor({ timeout: 60_000 });
    const input = page.locator('threadline-chat input');
    await input.fill('what about damaged items?');
    await input.press('Enter');
    await page.locator('threadline-chat .tl-turn:nth-child(2)').waitFor({ timeout: 60_000 });
    // What the page stored while the turn runs, read straight from IndexedDB until the question is there.
    const stored = await page.evaluate(async () => {
      const read = () => new Promise<{ pending?: unknown; turnCount: number }[]>((resolve, reject) => {
        const open = indexedDB.open('threadline:threadline-chat:sessions');
        open.onerror = () => reject(new Error(String(open.error)));
        open.onsuccess = () => {
          const all = open.result.transaction('sessions').objectStore('sessions').getAll();
          all.onsuccess = () => { resolve((all.result as { pending?: unknown; turnCount: number }[]).map((s) => ({ pending: s.pending, turnCount: s.turnCount }))); open.result.close(); };
        };
      });
      for (let i = 0; i < 200; i++) {
        const sessions = await read();
        if (sessions.some((s) => s.pending)) return sessions;
        await new Promise((r) => setTimeout(r, 25));
      }
      return read();
    });
    expect(stored).toMatchObject([{ pending: { user: 'what about damaged items?' }, turnCount: 1 }]);
    expect(stored).toHaveLength(1);

    await page.reload();
    expect(await waitForElementEvent(page, (e) => e.type === 'threadline-ready')).toBeTruthy();
    const chat = page.locator('threadline-chat');
    expect(await chat.locator('.tl-turn').count()).toBe(1);
    expect(await input.inputValue()).toBe('what about damaged items?');
    expect(await chat.locator('.status').textContent()).toMatch(/your last question was not answered/);
    await input.press('Enter');
    await page.locator('threadline-chat .tl-turn:nth-child(2) .tl-mode:not([hidden])').waitFor({ timeout: 60_000 });
    expect(await chat.locator('.status').textContent()).not.toMatch(/not answered/);

    await page.reload();
    expect(await waitForElementEvent(page, (e) => e.type === 'threadline-ready')).toBeTruthy();
    expect(await chat.locator('.tl-turn').count()).toBe(2);
    expect(await input.inputValue()).toBe('');
    expect(foreign).toEqual([]);
    await context.close();
  });
});
