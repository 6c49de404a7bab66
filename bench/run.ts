/**
 * npm run bench [-- --json FILE] [--quick]
 * Starts the dev server, drives headless Chromium through the in-page
 * benchmarks (bench/page.ts) and prints a table.
 */
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { chromium } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../scripts/chromium.ts';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startDevServer } from '../scripts/dev-server.ts';
import { loadTransformersEmbedder } from '../src/embedding/transformers-embedder';
import { syntheticCorpus, vocabulary } from './corpus';

/** The offline model in Node (onnxruntime-node): load time and sentences/s. */
async function nodeEmbedder(count: number) {
  const vocab = vocabulary(JSON.parse(readFileSync(resolve(import.meta.dirname, '../.models/threadline-glove-30k/tokenizer.json'), 'utf8')) as { model: { vocab: Record<string, number> } });
  const sentences = syntheticCorpus(vocab, count * 60, 60 * 50).flatMap((d) => d.text.split(/(?<=\.)\s+/)).filter((x) => !x.startsWith('#')).slice(0, count);
  const started = performance.now();
  const embedder = await loadTransformersEmbedder({ model: resolve(import.meta.dirname, '../.models/threadline-glove-30k') + '/' });
  const loadMs = performance.now() - started;
  const t0 = performance.now();
  await embedder.embed(sentences);
  return { loadMs, sentences: sentences.length, sentencesPerS: sentences.length / ((performance.now() - t0) / 1000) };
}

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
  const sentences = quick ? 1_000 : 4_000;
  const embedderNode = await nodeEmbedder(sentences);
  const embedderBrowser = await page.evaluate((n) => window.bench.embedder(n), sentences);
  await open();
  const name = `bench-${Date.now()}`;
  const chars = quick ? 300_000 : 1_200_000;
  const ingest = await page.evaluate(({ name, chars }) => window.bench.ingest(name, chars), { name, chars });
  await open(); // a fresh page: new worker, nothing in memory
  const reopen = await page.evaluate((n) => window.bench.reopen(n), name);
  const queries = await page.evaluate(({ name, count }) => window.bench.queries(name, count), { name, count: quick ? 50 : 200 });
  const report = {
    machine: `${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}, ${browser.version()}`,
    embedder: { node: embedderNode, chromium: embedderBrowser },
    ingest: { ...ingest, chunksPerS: ingest.chunksPerS },
    reload: reopen,
    query: queries,
  };
  const row = (k: string, v: string) => console.log(`${k.padEnd(34)} ${v}`);
  row('machine', report.machine);
  row('offline model, Node', `load ${embedderNode.loadMs.toFixed(0)} ms, ${embedderNode.sentencesPerS.toFixed(0)} sentences/s (${embedderNode.sentences})`);
  row('offline model, Chromium worker', `load ${embedderBrowser.loadMs.toFixed(0)} ms (worker + model), ${embedderBrowser.sentencesPerS.toFixed(0)} sentences/s (${embedderBrowser.sentences})`);
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
