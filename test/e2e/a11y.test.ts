/**
 * A visitor with a screen reader or low vision: axe-core (the rules browsers' accessibility audits use) over the
 * built playground and the example page's <threadline-chat>, after a conversation, with an answer's passages open,
 * in light and dark, on a desktop and a phone. Found, before this test: each turn of the log was a list item of no
 * list (role="log" on the <ol> replaced its list role), the Evaluate panel's file input had no label, the example
 * page had no main landmark, and in dark mode the element's error red (2.7:1), the example page's brand accent
 * (3.3:1) and the playground's "Clear everything" (2.3:1 on the browser's dark button face) were too faint.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { SAMPLE_KB } from '../../demo/sample-kb';
import { serveStatic, type StaticServer } from '../../scripts/static-server.ts';
import { launch } from './browser';
import { PLAYGROUND, buildExampleSite, requireBuild } from './built';
import { ask, ready } from './playground-page';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const QUESTIONS = ['How long is the refund window?', 'what about damaged items?'];
/** The sample knowledge base as the example page's documents. */
const SAMPLE_DOCS = Object.fromEntries(SAMPLE_KB.map((d) => [`${d.id}.md`, d.markdown]));

/** Waits until the element's question box takes questions. */
async function elementReady(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelector('threadline-chat')?.shadowRoot?.querySelector('input')?.disabled === false, undefined, { timeout: 60_000 });
}

/** Opens the playground and loads the sample knowledge base. */
async function playgroundWithSample(page: Page): Promise<void> {
  await page.goto(`${playground.origin}/`);
  await ready(page);
  await page.click('#sample');
  await page.locator('#starters:not([hidden]) button').first().waitFor();
}

/** Asks the element `question` and waits for that turn's closing line. */
async function askElement(page: Page, question: string): Promise<void> {
  const before = await page.locator('threadline-chat .tl-turn').count();
  const input = page.locator('threadline-chat input[part=input]');
  await input.fill(question);
  await input.press('Enter');
  await page.locator('threadline-chat .tl-turn').nth(before).locator('.tl-mode:not([hidden])').waitFor({ timeout: 30_000 });
}

let browser: Browser;
let playground: StaticServer;
let site: StaticServer;

beforeAll(async () => {
  requireBuild();
  playground = await serveStatic(PLAYGROUND);
  site = await serveStatic(await buildExampleSite('a11y-site', SAMPLE_DOCS));
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await playground?.close();
  await site?.close();
});

/** axe's violations on the page as it is now (shadow roots included), one line each: rule, impact, first elements. */
async function violations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE });
  return page.evaluate(async () => {
    type Result = { id: string; impact: string; nodes: { target: unknown[]; failureSummary?: string }[] };
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Result[] }> } }).axe;
    const { violations: found } = await axe.run(document, { resultTypes: ['violations'] });
    return found.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => `${JSON.stringify(n.target)} ${(n.failureSummary ?? '').split('\n').slice(1, 2).join('').trim()}`).join('; ')}`);
  });
}

const VIEWS = [
  { name: 'desktop, light', viewport: { width: 1280, height: 900 }, colorScheme: 'light' as const },
  { name: 'phone, dark', viewport: { width: 390, height: 844 }, colorScheme: 'dark' as const },
];

/** WCAG 2 contrast of two computed `rgb(…)` / `rgba(…)` colours (alpha ignored: callers check it is 1). */
function contrastOf(a: string, b: string): number {
  const luminance = (rgb: string) => {
    const [r, g, bl] = (rgb.match(/[\d.]+/g) ?? []).slice(0, 3).map((x) => Number(x) / 255).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (bl ?? 0);
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
}

describe('accessibility (axe-core) of what visitors meet', () => {
  for (const view of VIEWS) {
    it(`the playground after a conversation, traces on, passages open (${view.name})`, async () => {
      const context = await browser.newContext({ viewport: view.viewport, colorScheme: view.colorScheme });
      const page = await context.newPage();
      await playgroundWithSample(page);
      expect(await violations(page)).toEqual([]);
      for (const q of QUESTIONS) await ask(page, q);
      await page.check('#details');
      await page.locator('.tl-turn').last().locator('.tl-show-passages').click();
      expect(await violations(page)).toEqual([]);
      await context.close();
    });

    if (view.viewport.width < 640) {
      it('reflows at 320 CSS px (WCAG 1.4.10, a 1280 px window zoomed to 400%): neither page nor log scrolls sideways, the trace\'s table scrolls within the trace', async () => {
        const context = await browser.newContext({ viewport: { width: 320, height: 640 }, colorScheme: view.colorScheme });
        const page = await context.newPage();
        await playgroundWithSample(page);
        await page.check('#details');
        await ask(page, QUESTIONS[0] ?? '');
        await page.locator('.tl-turn .tl-show-passages').click();
        // Before: the passages table (about 365 px) pushed the whole log sideways.
        const widths = await page.evaluate(() => {
          const of = (selector: string) => { const el = document.querySelector(selector) as HTMLElement; return { scroll: el.scrollWidth, client: el.clientWidth }; };
          return { page: { scroll: document.documentElement.scrollWidth, client: window.innerWidth }, log: of('#chat'), trace: of('.tl-turn .trace') };
        });
        expect(widths.page.scroll).toBeLessThanOrEqual(widths.page.client);
        expect(widths.log.scroll).toBeLessThanOrEqual(widths.log.client);
        expect(widths.trace.client).toBeLessThanOrEqual(widths.page.client);
        await context.close();
      });
    }

    it(`<threadline-chat> on the example page after a conversation, passages open (${view.name}${view.viewport.width < 640 ? ', as a launcher' : ''})`, async () => {
      const context = await browser.newContext({ viewport: view.viewport, colorScheme: view.colorScheme });
      const page = await context.newPage();
      if (view.viewport.width < 640) {
        await page.addInitScript(() => {
          document.addEventListener('readystatechange', () => { if (document.readyState === 'interactive') document.querySelector('threadline-chat')?.setAttribute('mode', 'launcher'); });
        });
      }
      await page.goto(`${site.origin}/`);
      if (view.viewport.width < 640) {
        const launcher = page.locator('threadline-chat .launcher');
        await launcher.waitFor();
        expect(await violations(page)).toEqual([]);
        await launcher.click();
      }
      await elementReady(page);
      for (const q of QUESTIONS) await askElement(page, q);
      await page.locator('threadline-chat .tl-turn').last().locator('.tl-show-passages').click();
      expect(await violations(page)).toEqual([]);
      await context.close();
    });
  }

  it('a launcher open over a phone\'s whole screen is modal: Tab goes round inside it, never to the page hidden behind; floating on a desktop or a phone turned on its side, it is not', async () => {
    // Before: Tab went from the panel's last button to the page's own links, behind the panel (WCAG 2.4.11).
    const dir = await buildExampleSite('a11y-modal-site', SAMPLE_DOCS);
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    writeFileSync(join(dir, 'index.html'), html.replace('<threadline-chat ', '<a href="#behind" id="behind">a link of the page</a>\n  <threadline-chat mode="launcher" '));
    const server = await serveStatic(dir);
    try {
      for (const [viewport, modal] of [[{ width: 390, height: 844 }, true], [{ width: 1280, height: 900 }, false]] as const) {
        const context = await browser.newContext({ viewport });
        const page = await context.newPage();
        await page.goto(`${server.origin}/`);
        await page.locator('threadline-chat .launcher').click();
        await elementReady(page);
        expect(await page.locator('threadline-chat [role=dialog]').getAttribute('aria-modal')).toBe(String(modal));
        const focused: string[] = [];
        for (let i = 0; i < 8; i++) {
          await page.keyboard.press(i < 4 ? 'Tab' : 'Shift+Tab');
          focused.push(await page.evaluate(() => (document.activeElement?.id === 'behind' ? 'page link' : document.activeElement?.tagName === 'THREADLINE-CHAT' ? 'panel' : 'page')));
        }
        if (modal) expect(focused.every((f) => f === 'panel'), focused.join(', ')).toBe(true);
        else expect(focused).toContain('page link');
        if (modal) {
          // Turned on its side while open, the phone shows a floating panel: no longer modal; upright again, modal.
          // Before, aria-modal kept what it was when the panel opened.
          const dialog = page.locator('threadline-chat [role=dialog]');
          await page.setViewportSize({ width: viewport.height, height: viewport.width });
          await expect.poll(() => dialog.getAttribute('aria-modal')).toBe('false');
          await page.setViewportSize(viewport);
          await expect.poll(() => dialog.getAttribute('aria-modal')).toBe('true');
        }
        await context.close();
      }
    } finally {
      await server.close();
    }
  });

  it('Windows high contrast (forced colours): the quoted sentence and the Ask button stay visible, in the element and the playground', async () => {
    // Before: the highlight's translucent background kept its alpha over the forced one (black text on dark olive, about 1.7:1),
    // and the Ask button, which has no border, read as plain text.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, forcedColors: 'active', colorScheme: 'dark' });
    const page = await context.newPage();
    await page.goto(`${site.origin}/`);
    await elementReady(page);
    await askElement(page, QUESTIONS[0] ?? '');
    await page.locator('threadline-chat .tl-show-passages').click();
    const styleOf = (selector: string) => page.locator(selector).first().evaluate((el) => {
      const style = getComputedStyle(el);
      return { color: style.color, background: style.backgroundColor, border: style.borderTopWidth };
    });
    const mark = await styleOf('threadline-chat mark.tl-highlight');
    expect(mark.background).toMatch(/^rgb\(/); // opaque
    expect(contrastOf(mark.color, mark.background)).toBeGreaterThanOrEqual(4.5);
    expect(parseFloat((await styleOf('threadline-chat button.primary')).border)).toBeGreaterThan(0);

    await playgroundWithSample(page);
    await ask(page, QUESTIONS[0] ?? '');
    await page.locator('.tl-turn .tl-show-passages').click();
    const pgMark = await styleOf('mark.tl-highlight');
    expect(pgMark.background).toMatch(/^rgb\(/);
    expect(contrastOf(pgMark.color, pgMark.background)).toBeGreaterThanOrEqual(4.5);
    await context.close();
  });
});
