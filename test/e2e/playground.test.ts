import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { SAMPLE_KB } from '../../demo/sample-kb';
import { serveStatic, type StaticServer } from '../../scripts/static-server.ts';
import { launch } from './browser';
import { PLAYGROUND, confineTo, recordDialogs, requireBuild } from './built';
import { REWRITES, installScriptedLlm } from './scripted-llm';
import { ask, ready } from './playground-page';
import { writeDocx } from '../fixtures/docx-writer';
import { harborManual, writePdf } from '../fixtures/pdf-writer';

let browser: Browser;
let plain: StaticServer;
let isolated: StaticServer;

beforeAll(async () => {
  requireBuild();
  plain = await serveStatic(PLAYGROUND);
  isolated = await serveStatic(PLAYGROUND, { isolated: true });
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await plain?.close();
  await isolated?.close();
});

const QUESTIONS = ["what's the refund window?", 'what about damaged items?', 'and how long does that refund take?'];

const turn = (page: Page, i: number) => page.locator('.tl-turn').nth(i);

describe('playground Evaluate panel (built; scripted fake LLM as the language model)', () => {
  it('runs our own evaluation set through the page pipeline, shows the table and chart, and exports the same JSON as npm run eval', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 }, acceptDownloads: true });
    const foreign = await confineTo(context, plain.origin);
    const page = await context.newPage();
    await installScriptedLlm(page);
    await page.goto(`${plain.origin}/`);
    await ready(page);
    const set = resolve(import.meta.dirname, '../../docs/eval-sample');
    await page.setInputFiles('#eval-files', [join(set, 'corpus.jsonl'), join(set, 'conversations.jsonl')]);
    await page.click('#eval-run');
    await page.locator('.eval-table').waitFor({ timeout: 120_000 });
    const text = await page.locator('.eval-table').textContent();
    for (const strategy of ['raw', 'rules', 'expand', 'llm', 'llm-expand', 'oracle']) expect(text).toMatch(new RegExp(`^${strategy}\\s`, 'm'));
    expect(await page.locator('.eval-chart').getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    await page.locator('section[aria-labelledby="eval-h"]').screenshot({ path: 'test-results/playground-eval.png' });
    const download = page.waitForEvent('download');
    await page.click('#eval-export');
    type Part = { mrr: number; delta: number };
    const json = JSON.parse(readFileSync(await (await download).path(), 'utf8')) as { answers: string; corpus: boolean; strategies: Record<string, { kinds?: { followup: { mrr: number } }; terms: { f1: number } }>; parts?: Record<string, { followup: { hybrid: number; lexical: Part; dense: Part } }>; turns?: unknown };
    expect(json.corpus).toBe(true);
    // Hybrid against each part alone, each ranked by the page's own worker in that mode (were the mode lost, all three would be one ranking).
    expect(text).toContain('hybrid against each part alone');
    const parts = json.parts?.expand?.followup;
    expect(parts?.hybrid).toBeCloseTo(json.strategies.expand?.kinds?.followup.mrr ?? -1, 12);
    expect(parts?.lexical.mrr).not.toBe(parts?.dense.mrr);
    expect(parts?.lexical.delta).toBeCloseTo((parts?.hybrid ?? 0) - (parts?.lexical.mrr ?? 0), 12);
    expect(json.strategies.oracle?.kinds?.followup.mrr).toBeGreaterThan(json.strategies.raw?.kinds?.followup.mrr ?? 1);
    expect(json.strategies.llm?.terms.f1).toBeGreaterThanOrEqual(0);
    expect(json.turns).toBeUndefined();
    // The fake model was asked to condense follow-ups through the page's own pipeline.
    expect(await page.evaluate(() => (window as unknown as { llmCalls: string[] }).llmCalls.filter((k) => k === 'condense').length)).toBeGreaterThan(0);
    type Exported = { data: string; answers: string; typing: string; strategies: Record<string, { kinds?: { followup: { mrr: number } } }> };
    /** Runs the set again with the panel's switches as they are; the table's text and the exported JSON. */
    const rerun = async (): Promise<{ table: string; json: Exported }> => {
      await page.click('#eval-run');
      await page.locator('#eval-export:not([hidden])').waitFor({ timeout: 120_000 });
      const exported = page.waitForEvent('download');
      await page.click('#eval-export');
      return { table: (await page.locator('.eval-table').textContent()) ?? '', json: JSON.parse(readFileSync(await (await exported).path(), 'utf8')) as Exported };
    };
    // The same set with agreement weighting off (search.weights.corroboration 0), as one would compare with a strong model.
    await page.uncheck('#eval-corroboration');
    const off = (await rerun()).json;
    expect(off.data).toMatch(/corroboration off/);
    expect(off.strategies.raw?.kinds?.followup.mrr).toBeGreaterThan(0);
    // Answers the set leaves empty filled with gold passages (npm run eval -- --answers gold): said in the table and the JSON.
    expect(json).toMatchObject({ answers: 'as-given' });
    await page.check('#eval-corroboration');
    await page.selectOption('#eval-answers', 'gold');
    const gold = await rerun();
    expect(gold.table).toMatch(/empty answers filled with gold passages/);
    expect(gold.json.answers).toBe('gold');
    expect(gold.json.strategies.expand?.kinds?.followup.mrr).toBeGreaterThan(0);
    // Every answer replaced by its gold passage (--answers passages), as a page without a language model answers.
    await page.selectOption('#eval-answers', 'passages');
    const passages = await rerun();
    expect(passages.table).toMatch(/every answer replaced by its gold passage/);
    expect(passages.json.answers).toBe('passages');
    expect(passages.json.strategies.expand?.kinds?.followup.mrr).toBeGreaterThan(0);
    // The same set retyped as on a phone (npm run eval -- --typing phone): said in the table and the JSON.
    await page.selectOption('#eval-answers', 'as-given');
    await page.check('#eval-phone');
    const phone = await rerun();
    expect(phone.table).toMatch(/typed as on a phone/);
    expect(phone.json.typing).toBe('phone');
    expect(phone.json.strategies.expand?.kinds?.followup.mrr).toBeGreaterThan(0);
    await page.uncheck('#eval-phone');
    await page.selectOption('#eval-answers', 'passages');
    // Without a corpus there are no gold passages to answer with: a clear message, no run.
    await page.setInputFiles('#eval-files', [join(set, 'conversations.jsonl')]);
    await page.click('#eval-run');
    await expect.poll(() => page.locator('#eval-progress').textContent()).toMatch(/Gold answers need corpus\.jsonl/);
    // The user's own index was not touched by the evaluation set.
    expect(await page.locator('#index-info').getAttribute('data-docs')).toBe('0');
    expect(foreign).toEqual([]);
    await context.close();
  });
});

describe('playground (built, served by a plain static host)', () => {
  it('holds a three-turn conversation with a scripted fake LLM, shows traces and compare, and restores everything after a reload with zero embedding calls', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const foreign = await confineTo(context, plain.origin);
    const page = await context.newPage();
    const dialogs = recordDialogs(page);
    await installScriptedLlm(page);
    await page.goto(`${plain.origin}/`);
    await ready(page);
    expect(await page.inputValue('#llm')).toBe('injected');
    expect(await page.evaluate(() => window.crossOriginIsolated)).toBe(false);

    await page.click('#sample');
    await page.waitForFunction((n) => document.querySelector('#index-info')?.getAttribute('data-docs') === String(n), SAMPLE_KB.length);
    expect(await page.locator('[data-name="Ingest"] .progress-text').textContent()).toMatch(/chunks\/s/);
    expect(await page.locator('#doc-list li').count()).toBe(SAMPLE_KB.length);
    // Starter questions from the loaded documents (for each of the first three by id, the section its title finds), while the conversation is empty.
    await page.locator('#starters:not([hidden]) button').first().waitFor();
    expect(await page.locator('#starters button').allTextContents()).toEqual(['Two-factor authentication?', 'Free plan?', 'Refund window?']);

    for (const q of QUESTIONS) await ask(page, q);
    expect(await page.locator('#starters').isHidden()).toBe(true);
    // Simple view by default: the traces and the compare switch are one click away.
    expect(await turn(page, 0).locator('.trace').isVisible()).toBe(false);
    expect(await page.locator('#compare').isVisible()).toBe(false);
    await page.check('#details');
    expect(await turn(page, 0).locator('.trace').isVisible()).toBe(true);
    // Turn 1 stood alone; turns 2 and 3 were rewritten by the (fake) LLM, and the trace says so.
    expect(await turn(page, 0).locator('.trace').getAttribute('data-method')).toBe('kept');
    for (const i of [1, 2]) {
      expect(await turn(page, i).locator('.trace').getAttribute('data-method')).toBe('llm');
      expect(await turn(page, i).locator('.trace q.condensed').textContent()).toBe(REWRITES[QUESTIONS[i] ?? '']);
      expect(await turn(page, i).locator('.tl-mode').textContent()).toMatch(/Answer by scripted-fake-llm/);
    }
    expect(await turn(page, 1).locator('.trace tbody tr').first().getAttribute('data-doc')).toBe('refunds');
    expect(await turn(page, 1).locator('.trace tbody tr').first().textContent()).toMatch(/Damaged on arrival/);
    expect(await turn(page, 2).locator('.trace tbody tr').first().textContent()).toMatch(/Refund processing time/);
    // A condensed follow-up was searched near the document its previous answer quoted, and the trace says which.
    expect(await turn(page, 0).locator('.trace .retrieved caption').textContent()).not.toMatch(/near/);
    expect(await turn(page, 1).locator('.trace .retrieved caption').textContent()).toMatch(/near the document of “Refund policy › /);

    // A citation opens the cited passage.
    await turn(page, 1).locator('.tl-answer button[data-cite="1"]').click();
    expect(await turn(page, 1).locator('.tl-source[data-n="1"] .tl-passage-text').textContent()).toMatch(/damaged or broken in transit/);

    // Compare: for the follow-up, the question as typed retrieves a different top passage.
    await page.check('#compare');
    const verdict = turn(page, 1).locator('.compare-verdict');
    await verdict.waitFor();
    expect(await verdict.getAttribute('data-same-top')).toBe('false');
    const rawTop = await turn(page, 1).locator('.side-by-side table').first().locator('tbody tr').first().textContent();
    const condensedTop = await turn(page, 1).locator('.side-by-side table').nth(1).locator('tbody tr').first().textContent();
    expect(rawTop).not.toBe(condensedTop);
    await page.screenshot({ path: 'test-results/playground.png', fullPage: true });

    // After three long turns the question box is still in the window, and names the loaded documents.
    const box = await page.locator('#question').boundingBox();
    expect(box && box.y >= 0 && box.y + box.height <= 1000).toBe(true);
    expect(await page.locator('#question').getAttribute('placeholder')).toMatch(/^Ask about Account and security, Plans and pricing, Refund policy, …$/);
    expect(await page.locator('#session-list li').count()).toBe(1);
    expect(await page.locator('#session-list li .session-meta').textContent()).toMatch(/^3 turns/);
    expect(await page.locator('#storage').textContent()).toMatch(/^your data \d[\d.]* [kMG]?B · app and models /);
    const dataBefore = Number(await page.locator('#storage').getAttribute('data-your-data'));
    expect(dataBefore).toBeGreaterThan(0);

    // As if the page had closed while a fourth question was being answered: its question is stored in the
    // conversation's header (written here as a turn writes it when it starts; element.test.ts closes a page mid-turn).
    await page.evaluate(async () => {
      for (const { name } of await indexedDB.databases()) {
        if (!name?.endsWith(':sessions')) continue;
        await new Promise<void>((resolve, reject) => {
          const open = indexedDB.open(name);
          open.onerror = () => reject(new Error(String(open.error)));
          open.onsuccess = () => {
            const store = open.result.transaction('sessions', 'readwrite').objectStore('sessions');
            const all = store.getAll();
            all.onsuccess = () => {
              for (const s of all.result) store.put({ ...s, pending: { id: 'crashed-turn', user: 'and for the Pro plan?', at: Date.now() } });
              store.transaction.oncomplete = () => { open.result.close(); resolve(); };
            };
          };
        });
      }
    });
    // Reload: the index and the conversation come back; nothing is embedded again.
    await page.reload();
    await ready(page);
    await page.locator('#chat .unanswered').waitFor();
    expect(await page.inputValue('#question')).toBe('and for the Pro plan?');
    await page.fill('#question', '');
    expect(await page.locator('#index-info').getAttribute('data-docs')).toBe(String(SAMPLE_KB.length));
    expect(await page.locator('#index-info').getAttribute('data-embedded-chunks')).toBe('0');
    expect(await page.locator('.tl-turn').count()).toBe(3);
    expect(await turn(page, 1).locator('.tl-user').textContent()).toBe(QUESTIONS[1]); // the user's words, not the rewrite
    expect(await page.isChecked('#details')).toBe(true); // the view is remembered
    // Every progress bar is at rest once the page is ready: none is left indeterminate (animating).
    expect(await page.evaluate(() => [...document.querySelectorAll('progress')].filter((p) => p.offsetParent !== null && !p.hasAttribute('value')).map((p) => `${p.parentElement?.dataset.name}: ${p.parentElement?.textContent}`))).toEqual([]);
    expect(await page.locator('#session-list li').count()).toBe(1);

    // A new conversation starts empty; the stored one resumes from the list.
    await page.click('#new-session');
    await page.waitForFunction(() => document.querySelectorAll('.tl-turn').length === 0);
    await page.click('#session-list li button.resume');
    await page.waitForFunction(() => document.querySelectorAll('.tl-turn').length === 3);

    // Export the resumed conversation: the user's words, the answers, the citations with their links.
    const [markdown] = await Promise.all([page.waitForEvent('download'), page.click('#export-md')]);
    const md = readFileSync(await markdown.path(), 'utf8');
    expect(markdown.suggestedFilename()).toMatch(/^conversation-\d{4}-\d\d-\d\d\.md$/);
    expect(md.match(/^\*\*You:\*\* /gm)).toHaveLength(3);
    expect(md).toContain(`**You:** ${QUESTIONS[1]}`);
    expect(md).toMatch(/\*\*Answer\*\* \(generated by scripted-fake-llm\)/);
    expect(md).toMatch(/Sources:\n- \[1\] \[Refund policy › Damaged on arrival\]\(/);
    const [json] = await Promise.all([page.waitForEvent('download'), page.click('#export-json')]);
    const exported = JSON.parse(readFileSync(await json.path(), 'utf8')) as { format: string; turns: { user: string; citations: { docId: string }[] }[] };
    expect(exported.format).toBe('threadline-conversation/1');
    expect(exported.turns.map((t) => t.user)).toEqual([...QUESTIONS]);
    expect(exported.turns[1]?.citations[0]?.docId).toBe('refunds');

    // Forget one document; delete the conversation.
    await page.click('#doc-list li[data-doc="warranty"] button');
    await page.waitForFunction((n) => document.querySelector('#index-info')?.getAttribute('data-docs') === String(n), SAMPLE_KB.length - 1);
    await page.click('#session-list li button.delete');
    await page.waitForFunction(() => document.querySelector('#session-list li')?.classList.contains('empty') ?? false);
    expect(await page.locator('.tl-turn').count()).toBe(0);

    // Clear everything (two clicks).
    await page.click('#clear-all');
    await page.click('#clear-all');
    await page.waitForFunction(() => document.querySelector('#index-info')?.getAttribute('data-docs') === '0');
    // What "Clear everything" promises is that the data is gone: every store of the page's IndexedDB is empty but the
    // index's one manifest record. The "your data" figure is re-read and printed; its bytes are the browser's to free
    // (Chromium 150 reports more after the deletes than before, until its storage compacts), so they are not asserted.
    const records = await page.evaluate(async () => {
      const out: Record<string, number> = {};
      for (const { name } of await indexedDB.databases()) {
        if (!name) continue;
        const db = await new Promise<IDBDatabase>((ok, no) => { const r = indexedDB.open(name); r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error ?? new Error(`cannot open ${name}`)); });
        for (const store of [...db.objectStoreNames]) out[`${name}/${store}`] = await new Promise<number>((ok, no) => { const r = db.transaction(store).objectStore(store).count(); r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error ?? new Error(`cannot count ${store}`)); });
        db.close();
      }
      return out;
    });
    expect(Object.keys(records).length).toBeGreaterThan(2);
    expect(Object.entries(records).filter(([, n]) => n > 0)).toEqual([['threadline:playground-offline/meta', 1]]);
    const dataAfter = Number(await page.locator('#storage').getAttribute('data-your-data'));
    console.log(`playground storage, your data: ${dataBefore} bytes before Clear everything, ${dataAfter} after`);
    expect(dataAfter).toBeGreaterThan(0);

    expect(foreign).toEqual([]);
    expect(dialogs).toEqual([]);
    await context.close();
  });

  it('another model choice while the index opens stops that opening and opens the new choice (the first one\'s worker script never arrives)', async () => {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const foreign = await confineTo(context, plain.origin);
    // The first request for the retrieval worker's script is held for good: an opening that waited for it would never end.
    let held: (() => void) | null = null;
    const first = new Promise<void>((resolve) => { held = resolve; });
    let requests = 0;
    await context.route(/\/retrieval\.worker-[\w-]+\.js$/, (route) => {
      requests++;
      if (requests > 1) return route.fallback();
      held?.();
      return undefined; // never continued
    });
    const page = await context.newPage();
    await installScriptedLlm(page);
    // Every status the page shows, in order: the stopped opening must not end in an error of its own
    // (without the abort it would, once the worker's start times out, and only then would the new choice open).
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { statuses: string[] }).statuses = seen;
      document.addEventListener('DOMContentLoaded', () => {
        const status = document.querySelector('#status');
        if (status) new MutationObserver(() => seen.push(`${status.getAttribute('data-state') ?? ''}: ${status.textContent ?? ''}`)).observe(status, { childList: true, characterData: true, subtree: true, attributes: true });
      });
    });
    await page.goto(`${plain.origin}/`);
    await first;
    expect(await page.locator('#status').textContent()).toBe('Opening the index…');
    expect(await page.inputValue('#llm')).toBe('injected');
    await page.selectOption('#llm', 'none');
    await ready(page);
    expect(await page.locator('#status').textContent()).toMatch(/Answers: extractive/);
    const statuses = await page.evaluate(() => (window as unknown as { statuses: string[] }).statuses);
    expect(statuses.filter((s) => s.startsWith('error'))).toEqual([]);
    expect(requests).toBe(2);
    expect(foreign).toEqual([]);
    await context.close();
  });

  it('works with the network off after the first visit (service worker)', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${plain.origin}/`);
    await ready(page);
    await page.evaluate(async () => { await navigator.serviceWorker.ready; });
    await page.click('#sample');
    await page.waitForFunction(() => Number(document.querySelector('#index-info')?.getAttribute('data-docs')) > 0);
    await context.setOffline(true);
    await page.reload();
    await ready(page);
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/sw\.js$/);
    await ask(page, "what's the refund window?");
    expect(await turn(page, 0).locator('.tl-answer').textContent()).toMatch(/30 days/);
    expect(await turn(page, 0).locator('.tl-mode').textContent()).toMatch(/Extractive answer/);
    // The short answer stands alone; its passages open together, the quoted sentence marked.
    expect(await turn(page, 0).locator('.tl-passage:visible').count()).toBe(0);
    await turn(page, 0).locator('.tl-show-passages').click();
    expect(await turn(page, 0).locator('.tl-passage:visible').count()).toBeGreaterThan(0);
    expect(await turn(page, 0).locator('mark.tl-highlight').first().textContent()).toMatch(/30 days/);
    await context.close();
  });

  it('is cross-origin isolated (threaded WASM) where the host sends COOP/COEP, and works the same', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${isolated.origin}/`);
    await ready(page);
    expect(await page.evaluate(() => window.crossOriginIsolated)).toBe(true);
    await page.click('#sample');
    await page.waitForFunction(() => Number(document.querySelector('#index-info')?.getAttribute('data-docs')) > 0);
    await ask(page, 'how long does the refund take?');
    expect(await turn(page, 0).locator('.tl-answer').textContent()).toMatch(/5 business days/);
    await context.close();
  });

  it('reads a dropped PDF and Word file in its worker and cites the PDF by page; a scan is reported, not added; nothing leaves the origin', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const foreign = await confineTo(context, plain.origin);
    const page = await context.newPage();
    await page.goto(`${plain.origin}/`);
    await ready(page);
    const manual = harborManual();
    await page.setInputFiles('#files', [
      { name: 'Harbor manual.pdf', mimeType: 'application/pdf', buffer: Buffer.from(manual) },
      { name: 'Returns.docx', mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buffer: Buffer.from(writeDocx([{ heading: 1, text: 'Returns' }, { text: 'Return any item within 30 days for a full refund.' }])) },
      { name: 'Scan.pdf', mimeType: 'application/pdf', buffer: Buffer.from(writePdf({ pages: [{ image: true }] })) },
    ]);
    await page.waitForFunction(() => Number(document.querySelector('#index-info')?.getAttribute('data-docs')) === 2);
    expect(await page.locator('body').textContent()).toMatch(/Scan\.pdf[^]*no text layer/);
    await ask(page, 'what if the sync stalls?');
    await expect.poll(() => turn(page, 0).textContent()).toMatch(/Harbor manual\.pdf › Troubleshooting, p\. 3/);
    await page.screenshot({ path: 'test-results/playground-pdf.png' });
    await ask(page, 'how long do I have to return something?');
    expect(await turn(page, 1).textContent()).toMatch(/Returns/);
    expect(foreign).toEqual([]); // pdf.js, mammoth and their worker come from the page's origin
    await context.close();
  });

  it('under a strict Content-Security-Policy with Trusted Types enforced: starts, reads a PDF in its worker and cites it, and registers its service worker', async () => {
    // Before: its workers and its service worker needed a TrustedScriptURL, and the page showed INTERNAL.
    const policy = "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; worker-src 'self'; object-src 'none'; require-trusted-types-for 'script'; trusted-types threadline dompurify";
    const strict = await serveStatic(PLAYGROUND, { headers: { 'Content-Security-Policy': policy } });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (m) => { if (m.type() === 'warning' && /service worker not registered/.test(m.text())) errors.push(m.text()); });
    await page.goto(`${strict.origin}/`);
    await ready(page);
    await page.setInputFiles('#files', [{ name: 'Harbor manual.pdf', mimeType: 'application/pdf', buffer: Buffer.from(harborManual()) }]);
    await page.waitForFunction(() => Number(document.querySelector('#index-info')?.getAttribute('data-docs')) === 1);
    await ask(page, 'what if the sync stalls?');
    await expect.poll(() => turn(page, 0).textContent()).toMatch(/Harbor manual\.pdf › Troubleshooting, p\. 3/);
    expect(await page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration()))).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
    await strict.close();
  });

  it('follows a dark colour scheme with its own palette, and works keyboard only', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
    const page = await context.newPage();
    await page.goto(`${plain.origin}/`);
    await ready(page);
    const colors = await page.evaluate(() => ({ accent: getComputedStyle(document.documentElement).getPropertyValue('--accent').trim(), background: getComputedStyle(document.body).backgroundColor, text: getComputedStyle(document.body).color }));
    expect(colors.accent).toBe('#8ab4ff');
    const channels = (rgb: string) => (rgb.match(/\d+/g) ?? []).slice(0, 3).map(Number);
    expect(Math.max(...channels(colors.background))).toBeLessThan(60); // a dark canvas
    expect(Math.min(...channels(colors.text))).toBeGreaterThan(180); // light text
    // Keyboard only: Tab to the sample, Enter; Tab to the question box, type, Enter; Tab to "Show passages", Enter.
    const tabTo = async (selector: string) => {
      for (let i = 0; i < 80 && !(await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)); i++) await page.keyboard.press('Tab');
      expect(await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)).toBe(true);
    };
    await tabTo('#sample');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => Number(document.querySelector('#index-info')?.getAttribute('data-docs')) > 0);
    await tabTo('#question');
    await page.keyboard.type('what about damaged items?');
    await page.keyboard.press('Enter');
    await turn(page, 0).locator('.tl-mode:not([hidden])').waitFor();
    await tabTo('.tl-show-passages');
    await page.keyboard.press('Enter');
    expect(await turn(page, 0).locator('.tl-passage:visible').count()).toBeGreaterThan(0);
    await page.screenshot({ path: 'test-results/playground-dark.png' });
    await context.close();
  });

  it('on a phone (390 × 844): the chat comes first; three questions, each answer\'s start and the question box in view without scrolling by hand', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto(`${plain.origin}/`);
    await ready(page);
    const chat = await page.locator('main').boundingBox();
    const aside = await page.locator('aside').boundingBox();
    expect(chat && aside && chat.y < aside.y).toBe(true);
    await page.locator('#sample').scrollIntoViewIfNeeded();
    await page.click('#sample');
    await page.waitForFunction(() => Number(document.querySelector('#index-info')?.getAttribute('data-docs')) > 0);
    await page.locator('#question').scrollIntoViewIfNeeded();
    for (const [i, q] of ["what's the refund window?", 'what about damaged items?', 'how do I reset my password?'].entries()) {
      await ask(page, q);
      const layout = await page.evaluate((n) => {
        const answer = document.querySelectorAll('.tl-answer')[n]?.getBoundingClientRect();
        const form = document.querySelector('#ask')?.getBoundingClientRect();
        return { answerTop: answer?.top ?? -1, lineHeight: 24, formTop: form?.top ?? -1, formBottom: form?.bottom ?? -1, overflow: document.documentElement.scrollWidth - window.innerWidth };
      }, i);
      // The answer's first line is below the top edge and above the sticky question box; the box is on screen; nothing scrolls sideways.
      expect(layout.answerTop).toBeGreaterThanOrEqual(0);
      expect(layout.answerTop + layout.lineHeight).toBeLessThanOrEqual(layout.formTop);
      expect(layout.formBottom).toBeLessThanOrEqual(844);
      expect(layout.overflow).toBeLessThanOrEqual(0);
    }
    // No language model: the ellipsis was resolved by the rules (spliced into the previous question), and its search hedged with the fragment as typed.
    expect(await turn(page, 1).locator('.trace').getAttribute('data-method')).toBe('rules');
    expect(await turn(page, 1).locator('.trace .retrieved caption').textContent()).toMatch(/hedged: the condensed question's ranks fused with those of “what about damaged items\?” at 0\.3/);
    expect(await turn(page, 0).locator('.trace .retrieved caption').textContent()).not.toMatch(/hedged/);
    // A later question kept as typed is searched as typed, with the previous question ranked beside it, and the trace says so.
    expect(await turn(page, 2).locator('.trace').getAttribute('data-method')).toBe('kept');
    expect(await turn(page, 2).locator('.trace q.condensed').textContent()).toBe('how do I reset my password?');
    expect(await turn(page, 2).locator('.trace .retrieved caption').textContent()).toMatch(/hedged: the ranks of the question as typed fused with those of “what about damaged items\? how do I reset my password\?” at 0\.15/);
    // Compare searches it as typed alone, beside what was searched (not "the same either way").
    await page.check('#details');
    await page.check('#compare');
    const keptVerdict = turn(page, 2).locator('.compare-verdict');
    await keptVerdict.waitFor();
    expect(await turn(page, 2).locator('.side-by-side caption').nth(1).textContent()).toBe('Kept as typed, the previous question beside it: “how do I reset my password?”');
    await page.screenshot({ path: 'test-results/playground-phone.png' });
    await context.close();
  });
});
