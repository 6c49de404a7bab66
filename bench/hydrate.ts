/**
 * npx tsx bench/hydrate.ts [N] [RUNS]
 * Only the hydrate row of `npm run bench`: an index of N × 384 (default
 * 100,000) stored once, then opened RUNS times (default 5) against a bare
 * IndexedDB read of the same records, a line of JSON per call. For A/B work
 * on the read path, where the whole bench takes too long to repeat.
 */
import { benchPage } from './bench-page';

const [nArg, runsArg] = process.argv.slice(2);
const n = Number(nArg ?? 100_000);
const runs = Number(runsArg ?? 5);
const { page, open, close } = await benchPage();
try {
  await open();
  for (let i = 0; i < 2; i++) {
    const result = await page.evaluate(({ n, runs }) => window.bench.hydrate(n, 384, runs), { n, runs });
    for (const [size, h] of Object.entries(result)) console.log(JSON.stringify({ size, ms: Math.round(h.ms), rawReadMs: Math.round(h.rawReadMs), ratio: Math.round(h.ratioToRawRead * 100) / 100 }));
  }
} finally {
  await close();
}
