/**
 * Helpers for the tests that run against built artifacts (`npm run build`):
 * the playground in build/playground and the example static page assembled
 * with the compiled CLI, each served by a plain static server.
 */
import { execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { promisify, stripVTControlCharacters } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { serveStatic } from '../../scripts/static-server.ts';

export const root = resolve(import.meta.dirname, '../..');
export const CLI = join(root, 'dist/cli/threadline.js');
export const PLAYGROUND = join(root, 'build/playground');

export function requireBuild(): void {
  for (const path of [CLI, join(root, 'dist/threadline-chat.js'), join(PLAYGROUND, 'index.html')]) {
    if (!existsSync(path)) throw new Error(`${path} is missing: run \`npm run build\` first (npm test does)`);
  }
}

export async function cli(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [CLI, ...args], { cwd: root, timeout: 120_000 });
  return stdout;
}

/**
 * An empty app in `dir` (made afresh) that installs the packed package and `extra` packages and
 * nothing else. No .npmrc: a consumer's install must not need the repository's settings.
 * Dependencies come from npm's cache when `npm ci` has filled it, else from the registry.
 */
export async function installPacked(dir: string, extra: readonly string[] = []): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const { stdout } = await promisify(execFile)('npm', ['pack', '--pack-destination', dir, '--silent'], { cwd: root, timeout: 120_000 });
  const tarball = stdout.trim().split('\n').at(-1) ?? '';
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await promisify(execFile)('npm', ['install', `./${tarball}`, ...extra, '--prefer-offline', '--no-audit', '--no-fund', '--silent'], { cwd: dir, timeout: 240_000 });
}

/** `vite@<the version this repository builds with>`, for apps that install Vite. */
export function viteSpec(): string {
  return `vite@${(JSON.parse(readFileSync(join(root, 'node_modules/vite/package.json'), 'utf8')) as { version: string }).version}`;
}

/** A port the OS reports free right now (bound on port 0, then released). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((ok) => probe.listen(0, '127.0.0.1', ok));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((ok) => probe.close(() => ok()));
  return port;
}

/**
 * Starts `vite` (the dev server; or `command`, such as `vitepress dev docs`) in an app on a free port; resolves with its URL once it listens.
 * The port comes from the OS, not a random draw (a draw once collided and vite, with --strictPort,
 * exited 1), and a failure reports what vite printed on both streams.
 */
export async function startViteDev(app: string, command: readonly string[] = ['vite']): Promise<{ url: string; stop: () => void }> {
  const [bin = 'vite', ...args] = command;
  const dev = spawn(join(app, 'node_modules/.bin', bin), [...args, '--port', String(await freePort()), '--strictPort'], { cwd: app });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      let err = '';
      dev.stdout.on('data', (d: Buffer) => { out += d.toString(); const m = /Local:\s+(http:\S+)/.exec(stripVTControlCharacters(out)); if (m?.[1]) resolve(m[1]); });
      dev.stderr.on('data', (d: Buffer) => { err += d.toString(); });
      dev.on('exit', (code) => reject(new Error(`vite dev exited with ${code}: ${out}${err}`)));
    });
    return { url, stop: () => dev.kill() };
  } catch (error) {
    dev.kill();
    throw error;
  }
}

/** The example page plus the element (copied by the CLI, with `elementArgs`) and an index of `docs` (built by the CLI), in a fresh folder. */
export async function buildExampleSite(name: string, docs: Record<string, string | Uint8Array>, elementArgs: string[] = []): Promise<string> {
  const site = join(root, 'test-results', name);
  const sources = join(root, 'test-results', `${name}-docs`);
  rmSync(site, { recursive: true, force: true });
  rmSync(sources, { recursive: true, force: true });
  mkdirSync(sources, { recursive: true });
  for (const [file, text] of Object.entries(docs)) writeFileSync(join(sources, file), text);
  await cli('element', join(site, 'threadline'), ...elementArgs);
  await cli('index', sources, '-o', join(site, 'site.tlix'));
  copyFileSync(join(root, 'docs/examples/static-site/index.html'), join(site, 'index.html'));
  return site;
}

/** Lets only `origin` through; everything else is aborted and recorded. */
export async function confineTo(context: BrowserContext, origin: string): Promise<string[]> {
  const foreign: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${origin}/`) || url.startsWith('blob:') || url.startsWith('data:')) return route.continue();
    foreign.push(url);
    return route.abort();
  });
  context.on('request', (r) => { const u = r.url(); if (!u.startsWith(`${origin}/`) && !u.startsWith('blob:') && !u.startsWith('data:') && !foreign.includes(u)) foreign.push(u); });
  return foreign;
}

/** Fails the test on any dialog (alert/confirm/prompt): a sign of executed script. */
export function recordDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss(); });
  return dialogs;
}

/**
 * Records the element's ready/error events from the first script on; `waitForElement` resolves with the first one
 * since the page last navigated. The page reports them through the console, so waiting polls nothing in the page
 * (a polled waitForFunction runs Playwright's injected script on the page's main thread while the element loads).
 * Also records, in the page's own clock (ms since its navigation started), when it was ready, when Enter was pressed
 * and when each answer was done: `pageTimings` reads them.
 */
export async function watchElementEvents(page: Page): Promise<void> {
  const seen: { type: string; detail: unknown }[] = [];
  elementEvents.set(page, seen);
  page.on('framenavigated', (frame) => { if (frame === page.mainFrame()) seen.length = 0; });
  page.on('console', (m) => { const text = m.text(); if (text.startsWith(EVENT_TAG)) seen.push(JSON.parse(text.slice(EVENT_TAG.length)) as { type: string; detail: unknown }); });
  await page.addInitScript((tag) => {
    const w = window as unknown as { tlTimes: { ready: number[]; enter: number[]; done: number[] } };
    w.tlTimes = { ready: [], enter: [], done: [] };
    for (const type of ['threadline-ready', 'threadline-error']) {
      document.addEventListener(type, (e) => {
        if (type === 'threadline-ready') w.tlTimes.ready.push(performance.now());
        console.log(tag + JSON.stringify({ type, detail: (e as CustomEvent<unknown>).detail }));
      });
    }
    document.addEventListener('keydown', (e) => { if (e.key === 'Enter') w.tlTimes.enter.push(performance.now()); }, true);
    document.addEventListener('threadline-turn', (e) => { if ((e as CustomEvent<{ type?: string }>).detail.type === 'done') w.tlTimes.done.push(performance.now()); });
  }, EVENT_TAG);
}

const EVENT_TAG = 'threadline-test-event ';
const elementEvents = new WeakMap<Page, { type: string; detail: unknown }[]>();

export async function pageTimings(page: Page): Promise<{ ready: number; answers: number[] }> {
  const times = await page.evaluate(() => (window as unknown as { tlTimes: { ready: number[]; enter: number[]; done: number[] } }).tlTimes);
  return { ready: Math.round(times.ready[0] ?? NaN), answers: times.done.map((done, i) => Math.round(done - (times.enter[i] ?? NaN))) };
}

/** The element's first ready or error event since the page last navigated. */
export function waitForElement(page: Page): Promise<{ type: string; detail: unknown }> {
  return waitForElementEvent(page, () => true);
}

/** The element's events since the page last navigated (see watchElementEvents). */
export function elementEventsOf(page: Page): readonly { type: string; detail: unknown }[] {
  const seen = elementEvents.get(page);
  if (!seen) throw new Error('call watchElementEvents(page) first');
  return seen;
}

/** The first event since the page last navigated that passes `test`, waited for without touching the page. */
export async function waitForElementEvent(page: Page, test: (event: { type: string; detail: unknown }) => boolean): Promise<{ type: string; detail: unknown }> {
  const seen = elementEventsOf(page);
  const started = Date.now();
  for (;;) {
    const found = seen.find(test);
    if (found) return found;
    if (Date.now() - started > 60_000) throw new Error('<threadline-chat> sent no such event within 60 s');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Bytes under `path` (a file, or a folder and everything in it). */
export function du(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.size;
  return readdirSync(path).reduce((sum, name) => sum + du(join(path, name)), 0);
}

/**
 * Loads the README example's app (docs/examples/quick-start.ts as an app's only code) and resolves once it has
 * logged both answers, with the time from navigation.
 */
export async function exampleAnswers(page: Page, url: string): Promise<{ ms: number; answer: string; condensed: string[] }> {
  const started = Date.now();
  // How each turn was condensed, as the example logs it ("kept: …", "rules: …"): the follow-up must be read with the
  // conversation, which it is only where the app's bundle carries the condenser's code (turn-rules-loader.ts).
  const condensed: string[] = [];
  const answer = new Promise<string>((resolve, reject) => {
    const answers: string[] = [];
    page.on('console', (m) => {
      if (/^(?:kept|rules|llm): /.test(m.text())) condensed.push(m.text());
      if (m.text().startsWith('answer (')) answers.push(m.text());
      if (answers.length === 2) resolve(answers.join('\n'));
    });
    page.on('pageerror', reject);
  });
  await page.goto(url);
  const text = await answer;
  return { ms: Date.now() - started, answer: text, condensed };
}

/** How the README example's two turns are condensed (`condensed`, joined by newlines): the first kept as typed, the follow-up by the rules. */
export const EXAMPLE_CONDENSED = /^kept: [^\n]*\nrules: [^\n]*damaged items[^\n]*$/;

/** A policy as strict as a host's header rules make it, Trusted Types enforced; threadline's own policy and DOMPurify's allowed. */
export const STRICT_POLICY = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; connect-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; require-trusted-types-for 'script'; trusted-types threadline dompurify";

/** The README example built into `dir`, served with STRICT_POLICY on every response: its two answers and the requests to other origins. */
export async function exampleUnderStrictPolicy(browser: Browser, dir: string): Promise<{ answer: string; condensed: string[]; foreign: string[] }> {
  const strict = await serveStatic(dir, { headers: { 'Content-Security-Policy': STRICT_POLICY } });
  try {
    const { context, foreign, page } = await confinedPage(browser, strict.origin);
    const { answer, condensed } = await exampleAnswers(page, `${strict.origin}/`);
    await context.close();
    return { answer, condensed, foreign };
  } finally {
    await strict.close();
  }
}

/** What the README example answers: the window, then the follow-up, condensed, finds the damaged-items clause. */
export const EXAMPLE_ANSWERS = /^answer \(extractive\):[\s\S]*30 days[\s\S]*\nanswer \(extractive\):[\s\S]*damaged on arrival/;

/** A page in a fresh context where every request to another origin than `origin` is blocked and recorded in `foreign`. */
export async function confinedPage(browser: Browser, origin: string): Promise<{ context: BrowserContext; page: Page; foreign: string[] }> {
  const context = await browser.newContext();
  const foreign = await confineTo(context, origin);
  return { context, foreign, page: await context.newPage() };
}

/**
 * A site's `<threadline-chat>` at `origin`/ as a first visitor meets it (other origins blocked): waits until it is
 * ready with `docs` documents, asks `question`, and resolves with the first answer's text and the page (its
 * context for the caller to close once done with it).
 */
export async function askElementAt(browser: Browser, origin: string, docs: number, question: string): Promise<{ context: BrowserContext; page: Page; foreign: string[]; answer: string | null }> {
  const { context, page, foreign } = await confinedPage(browser, origin);
  await watchElementEvents(page);
  await page.goto(`${origin}/`);
  const ready = await waitForElement(page);
  if (ready.type !== 'threadline-ready' || (ready.detail as { docs?: number }).docs !== docs) throw new Error(`expected the element ready with ${docs} documents, got ${JSON.stringify(ready)}`);
  const chat = page.locator('threadline-chat');
  await chat.locator('input:not([disabled])').fill(question);
  await chat.locator('input').press('Enter');
  await chat.locator('.tl-turn .tl-mode:not([hidden])').first().waitFor({ timeout: 60_000 });
  return { context, page, foreign, answer: await chat.locator('.tl-turn .tl-answer').first().textContent() };
}
