/**
 * npx tsx bench/element-loads.ts [SITE] [--delay MS] [--reloads N] [--ask] [--cpu RATE]
 *
 * Times a site built around `<threadline-chat>` (by default the example page
 * `npm test` assembles in test-results/element-site) in Chromium, in the
 * page's own clock: the first visit's navigation start to `threadline-ready`,
 * then N reloads (median, min, max). `--ask` asks a question on every visit,
 * so the conversation restored on each reload grows; `--delay` holds every
 * response that long behind a proxy, a network's round trip for every request
 * (page, worker, model, index); `--cpu 4` slows the page's main thread four
 * times (DevTools' CPU throttling; the workers keep their speed, so this is
 * part of a phone's slowness, not all of it). Served by scripts/static-server.ts (ETag and
 * Last-Modified, 304 when unchanged). For A/B figures, build the other
 * version's element into a second folder and alternate runs of both.
 */
import { createServer, request, type Server } from 'node:http';
import { chromium } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../scripts/chromium.ts';
import { serveStatic } from '../scripts/static-server.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => { const at = args.indexOf(name); return at >= 0 ? Number(args[at + 1]) : fallback; };
const site = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? 'test-results/element-site';
const delay = option('--delay', 0);
const reloads = option('--reloads', 15);
const ask = args.includes('--ask');
const cpu = option('--cpu', 1);

const upstream = await serveStatic(site);
let proxy: Server | null = null;
let origin = upstream.origin;
if (delay > 0) {
  const target = new URL(upstream.origin);
  proxy = createServer((req, res) => {
    const up = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (r) => {
      setTimeout(() => { res.writeHead(r.statusCode ?? 500, r.headers); r.pipe(res); }, delay);
    });
    req.pipe(up);
  });
  await new Promise<void>((ok) => proxy?.listen(0, '127.0.0.1', ok));
  origin = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
}

const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs({}), headless: true });
try {
  const page = await (await browser.newContext()).newPage();
  // The page's main thread only: Playwright opens no DevTools session on a worker, so the retrieval worker runs at full speed.
  if (cpu > 1) await (await page.context().newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: cpu });
  // Ready and done are reported through the console, not polled: a polled
  // waitForFunction runs Playwright's injected script on the page's main
  // thread during the load (about 20 ms of compiling and polling the worker
  // start waited behind in a trace), which no visitor's page pays.
  await page.addInitScript(() => {
    let enter = Number.NaN;
    document.addEventListener('threadline-ready', () => console.log(`tl-ready ${performance.now()}`));
    document.addEventListener('keydown', (e) => { if (e.key === 'Enter') enter = performance.now(); }, true);
    document.addEventListener('threadline-turn', (e) => {
      if ((e as CustomEvent<{ type?: string }>).detail.type === 'done') console.log(`tl-done ${performance.now() - enter}`);
    });
  });
  /** The next console line starting with `tag`, as the number it carries (page clock). */
  const reported = (tag: string) => page.waitForEvent('console', { predicate: (m) => m.text().startsWith(`${tag} `), timeout: 60_000 })
    .then((m) => Number(m.text().slice(tag.length + 1)));
  const question = async (i: number) => {
    const input = page.locator('threadline-chat input:not([disabled])');
    await input.fill(i % 2 ? 'what about damaged items?' : "what's the refund window?");
    const done = reported('tl-done');
    await input.press('Enter');
    const ms = await done;
    await page.locator('threadline-chat .tl-turn .tl-mode:not([hidden])').nth(i).waitFor();
    return ms;
  };
  let ready = reported('tl-ready');
  await page.goto(`${origin}/index.html`);
  const first = await ready;
  let firstAnswer = Number.NaN;
  if (ask) firstAnswer = await question(0);
  const times: number[] = [];
  const totals: number[] = [];
  for (let i = 1; i <= reloads; i++) {
    await page.waitForTimeout(200);
    ready = reported('tl-ready');
    await page.reload();
    const at = await ready;
    times.push(at);
    if (ask) totals.push(at + await question(i));
  }
  times.sort((a, b) => a - b);
  totals.sort((a, b) => a - b);
  const f = (x: number | undefined) => (x ?? Number.NaN).toFixed(0);
  const median = (xs: number[]) => f(xs[Math.floor(xs.length / 2)]);
  console.log(`${site}${delay ? `, ${delay} ms per response` : ''}${cpu > 1 ? `, main thread ${cpu}× slower` : ''}${ask ? ', a question each visit' : ''}: first visit ready ${f(first)} ms${ask ? `, answered ${f(firstAnswer)} ms after Enter` : ''}; ${reloads} reloads: ready median ${median(times)} ms (${f(times[0])}–${f(times.at(-1))})${ask ? `; ready plus the answer (asked once ready) median ${median(totals)} ms (${f(totals[0])}–${f(totals.at(-1))})` : ''}`);
} finally {
  await browser.close();
  proxy?.close();
  await upstream.close();
}
