/**
 * npx tsx bench/ingest.ts [DOCS] [RUNS]
 * Only the ingest row of `npm run bench`: add() of DOCS one-sentence
 * documents against the bare embedder on the same chunks, RUNS times in one
 * page (default 2,000 and 3), a line of JSON per run. For A/B work on the
 * write path, where the whole bench takes too long to repeat.
 */
import { chromium } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../scripts/chromium.ts';
import { startDevServer } from '../scripts/dev-server.ts';

const docs = Number(process.argv[2] ?? 2000);
const runs = Number(process.argv[3] ?? 3);
// The same pre-bundled dependencies as run.ts: one discovered late makes vite reload the page mid-run.
const { server, origin } = await startDevServer(['bench/bench.html'], {
  cache: 'bench',
  include: ['@orama/orama', '@langchain/classic/vectorstores/memory', '@langchain/core/documents', 'hnswlib-wasm', 'client-vector-search'],
});
const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs() });
try {
  const page = await browser.newPage();
  page.setDefaultTimeout(600_000);
  await page.goto(`${origin}/bench/bench.html`);
  await page.waitForFunction(() => window.benchReady === true);
  await page.evaluate(() => window.bench.ingestVsBare(200)); // warm-up, not reported
  for (let i = 0; i < runs; i++) {
    const r = await page.evaluate((n) => window.bench.ingestVsBare(n), docs);
    console.log(JSON.stringify({ chunks: r.chunks, ms: Math.round(r.ms), bareMs: Math.round(r.bareMs * 10) / 10, chunksPerS: Math.round(r.chunksPerS), bareChunksPerS: Math.round(r.bareChunksPerS), overhead: `+${Math.round(r.overhead * 100)}%` }));
  }
} finally {
  await browser.close();
  await server.close();
}
