/**
 * npx tsx bench/long-conversation.ts [SITE] [--turns N] [--reloads R]
 *
 * What a long conversation costs a reload of `<threadline-chat>`: the site's
 * page (by default the example site `npm test` assembles) is reloaded R times
 * with a new conversation, then N questions are asked and it is reloaded R
 * times again; both are timed in the page's clock (navigation start to
 * `threadline-ready`), in the same browser, so their ratio is the cost of
 * restoring the conversation (`src/render/restored-log.ts`). It also prints
 * how long a question takes (Enter to the answer's `done`, in the page's
 * clock), median of the first 20 questions, of the last 20, and of 20 more
 * after a reload (the log then shows the latest 30 turns): what a long
 * conversation costs every turn.
 */
import { chromium } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../scripts/chromium.ts';
import { serveStatic } from '../scripts/static-server.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => { const at = args.indexOf(name); return at >= 0 ? Number(args[at + 1]) : fallback; };
const site = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? 'test-results/element-site';
const turns = option('--turns', 200);
const reloads = option('--reloads', 7);
const QUESTIONS = ["what's the refund window?", 'what about damaged items?', 'and how long does the refund take?', 'which plans include offline sync?'];

const server = await serveStatic(site);
const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs({}), headless: true });
try {
  const page = await (await browser.newContext()).newPage();
  await page.addInitScript(() => {
    document.addEventListener('threadline-ready', () => console.log(`tl-ready ${performance.now()}`));
    let asked = 0;
    document.addEventListener('keydown', (e) => { if (e.key === 'Enter') asked = performance.now(); }, true);
    document.addEventListener('threadline-turn', (e) => { if ((e as CustomEvent<{ type?: string }>).detail.type === 'done') console.log(`tl-done ${performance.now() - asked}`); });
  });
  const reported = (tag: string) => page.waitForEvent('console', { predicate: (m) => m.text().startsWith(`${tag} `), timeout: 60_000 })
    .then((m) => Number(m.text().slice(tag.length + 1)));
  const reloadTimes = async () => {
    const times: number[] = [];
    for (let i = 0; i < reloads; i++) {
      await page.waitForTimeout(200);
      const ready = reported('tl-ready');
      await page.reload();
      times.push(await ready);
    }
    return times.sort((a, b) => a - b);
  };
  const ready = reported('tl-ready');
  await page.goto(`${server.origin}/index.html`);
  await ready;
  const fresh = await reloadTimes();
  const askAll = async (n: number) => {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const input = page.locator('threadline-chat input:not([disabled])');
      await input.fill(QUESTIONS[i % QUESTIONS.length] ?? '');
      const done = reported('tl-done');
      await input.press('Enter');
      times.push(await done);
    }
    return times;
  };
  const answered = await askAll(turns);
  const long = await reloadTimes();
  // After the reload the log shows the latest 30 turns: what is left is the cost of the stored conversation itself.
  const reloaded = await askAll(20);
  const shown = await page.locator('threadline-chat .tl-turn').count();
  const median = (xs: number[]) => xs[Math.floor(xs.length / 2)] ?? Number.NaN;
  const f = (x: number | undefined) => (x ?? Number.NaN).toFixed(0);
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const early = median(sorted(answered.slice(0, 20)));
  const late = median(sorted(answered.slice(-20)));
  console.log(`${site}: reload to ready, median of ${reloads}: new conversation ${f(median(fresh))} ms (${f(fresh[0])}–${f(fresh.at(-1))}); after ${turns} turns ${f(median(long))} ms (${f(long[0])}–${f(long.at(-1))}), ${(median(long) / median(fresh)).toFixed(2)}×; ${shown} turns rendered`);
  const afterReload = median(sorted(reloaded));
  console.log(`Enter to the answer (medians of 20): first questions ${f(early)} ms; last of ${turns} ${f(late)} ms (${(late / early).toFixed(2)}×); after a reload, ${turns} turns stored, ${f(afterReload)} ms (${(afterReload / early).toFixed(2)}×)`);
} finally {
  await browser.close();
  await server.close();
}
