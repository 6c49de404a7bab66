/**
 * npx tsx bench/element-loads.ts [SITE] [--delay MS] [--link KBPS] [--throttle KBPS:RTT] [--reloads N] [--ask [--keep-turns N]] [--cpu RATE] [--against SITE_B]
 *
 * Times a site built around `<threadline-chat>` (by default the example page
 * `npm test` assembles in test-results/element-site) in Chromium, in the
 * page's own clock: the first visit's navigation start to `threadline-ready`,
 * then N reloads (median, min, max). `--ask` asks a question on every visit,
 * so the conversation restored on each reload grows (past 30 turns a reload
 * shows the latest 30); `--keep-turns 1` cuts it back to its first turn before
 * each reload, so every reload is the one of a visitor who asked one question
 * and comes back to ask another (#14's "after a reload"); `--delay` holds every
 * response that long behind a proxy, a network's round trip for every request
 * (page, worker, model, index); `--cpu 4` slows the page's main thread four
 * times (DevTools' CPU throttling; the workers keep their speed, so this is
 * part of a phone's slowness, not all of it); `--link KBPS` sends every response
 * through one shared downlink of that speed (with `--delay` as its round trip), so
 * downloads started together share it as on a real connection. Served by scripts/static-server.ts (ETag and
 * Last-Modified, 304 when unchanged). For A/B figures, build the other
 * version's element into a second folder and pass it as `--against`: both
 * sites load in one browser, each in a context of its own, reload by reload
 * in turn (A B B A …), and the median of the paired differences is printed;
 * a slow spell of the machine then falls on both alike (runs minutes apart
 * differed by 40 ms on the same site here).
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { chromium } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../scripts/chromium.ts';
import { serveStatic } from '../scripts/static-server.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => { const at = args.indexOf(name); return at >= 0 ? Number(args[at + 1]) : fallback; };
const site = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? 'test-results/element-site';
const delay = option('--delay', 0);
const reloads = option('--reloads', 15);
const ask = args.includes('--ask');
/** `--keep-turns 1`: before each reload, the stored conversations are cut back to their first turn(s). */
const keepTurns = option('--keep-turns', Number.NaN);
const cpu = option('--cpu', 1);
/** `--link 1600`: every response shares one downlink of this many kbit/s (the proxy's; with `--delay` as the round trip), as a real connection does. */
const link = option('--link', 0);
const throttleAt = args.indexOf('--throttle');
/** `--throttle 1600:150`: DevTools' network throttling, download kbit/s and round trip ms (upload the same as download). */
const throttle = throttleAt >= 0 ? (args[throttleAt + 1] ?? '').split(':').map(Number) : null;
const againstAt = args.indexOf('--against');
const againstSite = againstAt >= 0 ? args[againstAt + 1] : undefined;

if (againstSite && (delay > 0 || link > 0)) throw new Error('--against does not go with --delay or --link');
if (!Number.isNaN(keepTurns) && (!ask || !Number.isInteger(keepTurns) || keepTurns < 0)) throw new Error('--keep-turns takes a number of turns, with --ask');
if (throttle && (throttle.length !== 2 || throttle.some((x) => !Number.isFinite(x) || x < 0))) throw new Error('--throttle takes KBPS:RTT_MS, e.g. 1600:150');
const upstream = await serveStatic(site);
const against = againstSite ? { site: againstSite, ...(await serveStatic(againstSite)) } : null;
let proxy: Server | null = null;
let origin = upstream.origin;
if (delay > 0 || link > 0) {
  const target = new URL(upstream.origin);
  const shared = link > 0 ? sharedLink(link) : null;
  proxy = createServer((req, res) => {
    const up = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (r) => {
      setTimeout(() => {
        res.writeHead(r.statusCode ?? 500, r.headers);
        if (shared) shared.carry(r, res);
        else r.pipe(res);
      }, delay);
    });
    req.pipe(up);
  });
  await new Promise<void>((ok) => proxy?.listen(0, '127.0.0.1', ok));
  origin = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
}

/**
 * One downlink of `kbps` shared by every response in flight, each getting an equal share every 10 ms (as TCP
 * flows on one link roughly do), so a large download slows a small one started beside it.
 */
function sharedLink(kbps: number) {
  const flows = new Set<{ queue: Buffer[]; out: ServerResponse; ended: boolean }>();
  const perTick = (kbps * 1000) / 8 / 100;
  setInterval(() => {
    let budget = perTick;
    while (budget > 1 && flows.size > 0) {
      const share = Math.max(1, Math.floor(budget / flows.size));
      for (const flow of [...flows]) {
        let room = share;
        while (room > 0 && flow.queue.length) {
          const head = flow.queue[0] as Buffer;
          const piece = head.subarray(0, room);
          flow.out.write(piece);
          room -= piece.length;
          budget -= piece.length;
          if (piece.length === head.length) flow.queue.shift();
          else flow.queue[0] = head.subarray(piece.length);
        }
        if (!flow.queue.length && flow.ended) { flow.out.end(); flows.delete(flow); }
      }
      if ([...flows].every((f) => f.queue.length === 0)) break;
    }
  }, 10).unref();
  return {
    carry(from: IncomingMessage, out: ServerResponse) {
      const flow = { queue: [] as Buffer[], out, ended: false };
      flows.add(flow);
      from.on('data', (chunk: Buffer) => flow.queue.push(chunk));
      from.on('end', () => { flow.ended = true; });
      out.on('close', () => flows.delete(flow));
    },
  };
}

const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs({}), headless: true });

/** One site in a browser context of its own (its own HTTP cache and IndexedDB): a first visit, then reloads. */
async function visitor(at: string) {
  const page = await (await browser.newContext()).newPage();
  // The page's main thread only: Playwright opens no DevTools session on a worker, so the retrieval worker runs at full speed.
  if (cpu > 1) await (await page.context().newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: cpu });
  if (throttle) {
    const [kbps = 0, rtt = 0] = throttle;
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: rtt, downloadThroughput: (kbps * 1000) / 8, uploadThroughput: (kbps * 1000) / 8 });
  }
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
  let asked = 0;
  /** Turns in the log when the last visit was ready (the restored conversation). */
  let restored = 0;
  const question = async () => {
    const i = asked++;
    const input = page.locator('threadline-chat input:not([disabled])');
    await input.fill(i % 2 ? 'what about damaged items?' : "what's the refund window?");
    const done = reported('tl-done');
    await input.press('Enter');
    const ms = await done;
    // The new turn is the log's last (a reload restores only the latest 30 turns, so it is not the i-th).
    await page.locator('threadline-chat .tl-turn').last().locator('.tl-mode:not([hidden])').waitFor();
    return ms;
  };
  const visit = async (go: () => Promise<unknown>) => {
    const ready = reported('tl-ready');
    await go();
    const readyAt = await ready;
    restored = await page.locator('threadline-chat .tl-turn').count();
    return { ready: readyAt, total: ask ? readyAt + await question() : Number.NaN };
  };
  return {
    restored: () => restored,
    first: () => visit(() => page.goto(`${at}/index.html`)),
    reload: async () => {
      if (!Number.isNaN(keepTurns)) await page.evaluate(`(${KEEP_TURNS})(${keepTurns})`);
      await page.waitForTimeout(200);
      return visit(() => page.reload());
    },
  };
}

/**
 * Cuts every stored conversation of the page (the `threadline:…:sessions` databases) back to its first `keep` turns,
 * as the element stores them (src/storage/session-store.ts), in the page. A string: tsx would add helpers a page lacks.
 */
const KEEP_TURNS = `async (keep) => {
  const names = (await indexedDB.databases()).map((d) => d.name).filter((n) => n && n.endsWith(':sessions'));
  for (const name of names) {
    const db = await new Promise((ok, fail) => { const r = indexedDB.open(name); r.onsuccess = () => ok(r.result); r.onerror = () => fail(r.error); });
    await new Promise((ok, fail) => {
      const tx = db.transaction(['sessions', 'turns'], 'readwrite');
      const sessions = tx.objectStore('sessions');
      sessions.getAll().onsuccess = (e) => {
        for (const info of e.target.result) {
          tx.objectStore('turns').delete(IDBKeyRange.bound([info.id, keep], [info.id, Number.MAX_SAFE_INTEGER]));
          const { pending, ...rest } = info;
          sessions.put({ ...rest, turnCount: Math.min(info.turnCount, keep) });
        }
      };
      tx.oncomplete = ok; tx.onerror = () => fail(tx.error);
    });
    db.close();
  }
}`;

const f = (x: number | undefined) => (x ?? Number.NaN).toFixed(0);
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)];
const range = (xs: number[]) => `${f(sorted(xs)[0])}–${f(sorted(xs).at(-1))}`;

try {
  const sites = [{ name: site, origin }, ...(against ? [{ name: against.site, origin: against.origin }] : [])];
  const visitors = await Promise.all(sites.map((s) => visitor(s.origin)));
  const runs = sites.map(() => ({ first: { ready: 0, total: 0 }, ready: [] as number[], total: [] as number[] }));
  for (const [i, v] of visitors.entries()) (runs[i] as (typeof runs)[number]).first = await v.first();
  for (let r = 1; r <= reloads; r++) {
    // Interleaved, reload by reload (A, B, B, A, …): a slow spell of the machine falls on both sites alike.
    const order = r % 2 ? visitors.keys() : [...visitors.keys()].reverse();
    for (const i of order) {
      const result = await (visitors[i] as Awaited<ReturnType<typeof visitor>>).reload();
      (runs[i] as (typeof runs)[number]).ready.push(result.ready);
      (runs[i] as (typeof runs)[number]).total.push(result.total);
    }
  }
  /** Enter to done on each reload: what a change to the turn alone moves, without the spread of the load before it. */
  const answers = (run: (typeof runs)[number]) => run.total.map((t, k) => t - (run.ready[k] as number));
  for (const [i, s] of sites.entries()) {
    const run = runs[i] as (typeof runs)[number];
    console.log(`${s.name}${delay ? `, ${delay} ms per response` : ''}${cpu > 1 ? `, main thread ${cpu}× slower` : ''}${ask ? ', a question each visit' : ''}: first visit ready ${f(run.first.ready)} ms${ask ? `, answered ${f(run.first.total - run.first.ready)} ms after Enter` : ''}; ${reloads} reloads: ready median ${f(median(run.ready))} ms (${range(run.ready)})${ask ? `; ready plus the answer (asked once ready) median ${f(median(run.total))} ms (${range(run.total)}), the answer alone (Enter to done) ${f(median(answers(run)))} ms; turns in the log at the last reload's ready: ${visitors[i]?.restored()}` : ''}`);
  }
  if (against) {
    const [a, b] = runs as [(typeof runs)[number], (typeof runs)[number]];
    const diff = (x: number[], y: number[]) => x.map((v, k) => (y[k] as number) - v);
    const say = (what: string, d: number[]) => {
      const s = sorted(d);
      return `${what} ${f(median(d))} ms (middle half ${f(s[Math.floor(s.length / 4)])} to ${f(s[Math.floor((3 * s.length) / 4)])}; ${d.filter((x) => x < 0).length} of ${d.length} faster)`;
    };
    console.log(`${against.site} minus ${site}, paired reloads: ${say('ready', diff(a.ready, b.ready))}${ask ? `; ${say('ready plus the answer', diff(a.total, b.total))}; ${say('the answer alone', diff(answers(a), answers(b)))}` : ''}`);
  }
} finally {
  await browser.close();
  proxy?.close();
  await upstream.close();
  await against?.close();
}
