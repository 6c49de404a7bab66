/**
 * npm run bench [-- --json FILE] [--quick]
 * Starts the dev server, drives headless Chromium through the in-page
 * benchmarks (bench/page.ts) and prints a table.
 */
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { chromium } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../scripts/chromium.ts';
import { startDevServer } from '../scripts/dev-server.ts';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const jsonAt = args.indexOf('--json');
const jsonFile = jsonAt >= 0 ? args[jsonAt + 1] : undefined;

const { server, origin } = await startDevServer(['bench/bench.html']);
const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs() });
try {
  const page = await browser.newPage();
  const open = async () => {
    await page.goto(`${origin}/bench/bench.html`);
    await page.waitForFunction(() => window.benchReady === true);
  };
  await open();
  const name = `bench-${Date.now()}`;
  const chars = quick ? 300_000 : 1_200_000;
  const ingest = await page.evaluate(({ name, chars }) => window.bench.ingest(name, chars), { name, chars });
  await open(); // a fresh page: new worker, nothing in memory
  const reopen = await page.evaluate((n) => window.bench.reopen(n), name);
  const queries = await page.evaluate(({ name, count }) => window.bench.queries(name, count), { name, count: quick ? 50 : 200 });
  const report = {
    machine: `${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}, ${browser.version()}`,
    ingest: { ...ingest, chunksPerS: ingest.chunksPerS },
    reload: reopen,
    query: queries,
  };
  const row = (k: string, v: string) => console.log(`${k.padEnd(34)} ${v}`);
  row('machine', report.machine);
  row('ingest corpus', `${ingest.docs} docs, ${(ingest.chars / 1e6).toFixed(2)} MB, ${ingest.chunks} chunks`);
  row('ingest throughput', `${ingest.chunksPerS.toFixed(0)} chunks/s (${(ingest.ms / 1000).toFixed(1)} s)`);
  row('reload to ready (fresh page)', `${reopen.readyMs.toFixed(0)} ms for ${reopen.chunks} chunks, ${reopen.embeddedChunks} re-embedded`);
  row('first query after reload', `${reopen.firstQueryMs.toFixed(0)} ms (includes model load)`);
  row('search() from main thread', `p50 ${queries.p50Ms.toFixed(2)} ms, p95 ${queries.p95Ms.toFixed(2)} ms (${queries.count} queries, k=10, hybrid)`);
  if (jsonFile) writeFileSync(jsonFile, JSON.stringify(report, null, 2));
} finally {
  await browser.close();
  await server.close();
}
