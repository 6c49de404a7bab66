/**
 * npm run bench [-- --json FILE] [--quick]
 * Starts the dev server, drives headless Chromium through the in-page and
 * in-worker benchmarks, prints a table and optionally writes JSON. Every
 * figure is a median over repeated runs after a warm-up, and every ratio is
 * against a baseline measured in the same run.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { benchPage } from './bench-page';
import { loadEmbedder } from '../src/embedding/load-embedder';
import { syntheticCorpus, vocabulary } from './corpus';
import type { ScanEntry } from './bench.worker';
import { TRANSFORMER, ensureTransformerModel } from './transformer-model';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const jsonAt = args.indexOf('--json');
const jsonFile = jsonAt >= 0 ? args[jsonAt + 1] : undefined;
const SIZE = quick
  ? { scan: [10_000, 100_000], scanRuns: 5, hydrate: 20_000, hydrateRuns: 1, hnswN: 10_000, ingest: 500, transformerIngest: 64, transformerChars: 6_000, transformerRounds: 1, query: 10_000, queries: 50, main: 500, sentences: 1_000, chars: 300_000, tabBase: 3_000, tabDocs: 800, pdfPages: [100] }
  : { scan: [10_000, 100_000], scanRuns: 15, hydrate: 100_000, hydrateRuns: 5, hnswN: 100_000, ingest: 2_000, transformerIngest: 300, transformerChars: 30_000, transformerRounds: 3, query: 10_000, queries: 200, main: 2_000, sentences: 4_000, chars: 1_200_000, tabBase: 40_000, tabDocs: 8_000, pdfPages: [100, 500] };
const DIMS = 384;

/** The offline model in Node (the static path): load time and sentences/s; the same table through onnxruntime-node for comparison. */
async function nodeEmbedder(count: number) {
  const vocab = vocabulary(JSON.parse(readFileSync(resolve(import.meta.dirname, '../.models/threadline-glove-30k/tokenizer.json'), 'utf8')) as { model: { vocab: Record<string, number> } });
  const sentences = syntheticCorpus(vocab, count * 60, 60 * 50).flatMap((d) => d.text.split(/(?<=\.)\s+/)).filter((x) => !x.startsWith('#')).slice(0, count);
  const started = performance.now();
  const embedder = await loadEmbedder({ model: resolve(import.meta.dirname, '../.models/threadline-glove-30k') + '/' });
  const loadMs = performance.now() - started;
  const t0 = performance.now();
  await embedder.embed(sentences);
  const sentencesPerS = sentences.length / ((performance.now() - t0) / 1000);
  const onnx = await loadEmbedder({ model: resolve(import.meta.dirname, '../.models/threadline-glove-30k-onnx') + '/', dtype: 'fp32' });
  const t1 = performance.now();
  await onnx.embed(sentences);
  return { loadMs, sentences: sentences.length, sentencesPerS, onnxSentencesPerS: sentences.length / ((performance.now() - t1) / 1000) };
}

/** Reading generated PDFs in Node, each size in a fresh process (bench/pdf-read.ts) so its memory high-water mark is its own. */
function nodePdf(pageCounts: readonly number[]) {
  const out: Record<string, { pages: number; mb: number; ms: number; pagesPerS: number; rssBeforeMb: number; rssPeakMb: number; highWaterGrowthMb: number }> = {};
  for (const pages of pageCounts) {
    const stdout = execFileSync(process.execPath, ['--import', 'tsx', resolve(import.meta.dirname, 'pdf-read.ts'), String(pages)], { encoding: 'utf8', timeout: 300_000 });
    out[`${pages} pages`] = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as (typeof out)[string];
  }
  return out;
}

ensureTransformerModel();
const bench = await benchPage();
try {
  const { page, open } = bench;
  const log = (what: string) => process.stderr.write(`bench: ${what}…\n`);
  await open();
  log('embedding model');
  const embedder = { node: await nodeEmbedder(SIZE.sentences), chromium: await page.evaluate((n) => window.bench.embedder(n), SIZE.sentences) };
  log('scan');
  const scan: Record<string, ScanEntry> = await page.evaluate(({ sizes, dims, runs }) => window.bench.scan(sizes, dims, runs), { sizes: SIZE.scan, dims: DIMS, runs: SIZE.scanRuns });
  log('hydrate');
  type HydrateResult = Record<string, { ms: number; ratioToRawRead: number; rawReadMs: number; mbPerS: number }>;
  const hydrate: HydrateResult = await page.evaluate(({ n, dims, runs }) => window.bench.hydrate(n, dims, runs), { n: SIZE.hydrate, dims: DIMS, runs: SIZE.hydrateRuns });
  log('ingest vs bare pipeline');
  const ingest = await page.evaluate((n) => window.bench.ingestVsBare(n), SIZE.ingest);
  const ingestMarkdown = await page.evaluate((c) => window.bench.ingestMarkdownVsBare(c), SIZE.chars / 4);
  log('ingest vs a transformer-shaped embedder');
  const transformerIngest = {
    sentences: await page.evaluate(({ n, model, k }) => window.bench.ingestVsBare(n, model, k), { n: SIZE.transformerIngest, model: TRANSFORMER, k: SIZE.transformerRounds }),
    markdown: await page.evaluate(({ c, model, k }) => window.bench.ingestMarkdownVsBare(c, model, k), { c: SIZE.transformerChars, model: TRANSFORMER, k: SIZE.transformerRounds }),
  };
  log('Markdown corpus, reload');
  const name = `bench-${Date.now()}`;
  const corpus = await page.evaluate(({ name, chars }) => window.bench.ingest(name, chars), { name, chars: SIZE.chars });
  await open();
  const reload = await page.evaluate((n) => window.bench.reopen(n), name);
  log('query path');
  await open();
  const query = await page.evaluate(({ chunks, count }) => window.bench.query10k(chunks, count), { chunks: SIZE.query, count: SIZE.queries });
  log('main thread');
  const mainThread = await page.evaluate((n) => window.bench.mainThread(n), SIZE.main);
  log('two tabs');
  // The same ingest into two identically seeded indexes; the second tab is open and idle in both runs,
  // and holds the second index (following its commits) only in the second run.
  await open();
  const otherTab = await bench.otherTab();
  const tabsName = `bench-tabs-${Date.now()}`;
  for (const suffix of ['alone', 'shared']) await page.evaluate(({ name, base }) => window.bench.seed(name, base), { name: `${tabsName}-${suffix}`, base: SIZE.tabBase });
  const alone = await page.evaluate(({ name, docs }) => window.bench.tabIngest(name, 0, docs, 'a'), { name: `${tabsName}-alone`, docs: SIZE.tabDocs });
  await otherTab.evaluate((name) => window.bench.holdOpen(name), `${tabsName}-shared`);
  await new Promise((r) => setTimeout(r, 1_000));
  const together = await page.evaluate(({ name, docs }) => window.bench.tabIngest(name, 0, docs, 'a'), { name: `${tabsName}-shared`, docs: SIZE.tabDocs });
  await otherTab.close();
  const twoTabs = { baseChunks: SIZE.tabBase, docs: SIZE.tabDocs, aloneMs: alone.ms, withOtherTabMs: together.ms, ratio: together.ms / alone.ms };
  log('PDF');
  const pdf = { node: nodePdf(SIZE.pdfPages), chromium: await page.evaluate((n) => window.bench.pdfIngest(n), SIZE.pdfPages[0] ?? 100) };
  log('peers');
  const peers = await page.evaluate(({ sizes, dims, runs, hnswN }) => window.bench.peers(sizes, dims, runs, hnswN), { sizes: [SIZE.scan.at(-1) ?? 100_000], dims: DIMS, runs: SIZE.scanRuns, hnswN: SIZE.hnswN });

  const report = {
    machine: `${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}, Chromium ${bench.version}`,
    quick,
    scan, hydrate,
    ingest: { chunksPerS: ingest.chunksPerS, overhead: ingest.overhead, ownOverhead: ingest.ownOverhead, bareChunksPerS: ingest.bareChunksPerS, chunks: ingest.chunks, floorOverhead: ingest.floorOverhead, replaceOneMs: ingest.replaceOneMs },
    ingestMarkdown: { chunksPerS: ingestMarkdown.chunksPerS, overhead: ingestMarkdown.overhead, ownOverhead: ingestMarkdown.ownOverhead, bareChunksPerS: ingestMarkdown.bareChunksPerS, chunks: ingestMarkdown.chunks, floorOverhead: ingestMarkdown.floorOverhead },
    ingestTransformer: Object.fromEntries(Object.entries(transformerIngest).map(([k, r]) => [k, { chunksPerS: r.chunksPerS, overhead: r.overhead, overheads: r.overheads, ownMs: r.ownMs, ownOverhead: r.ownOverhead, bareChunksPerS: r.bareChunksPerS, chunks: r.chunks, floorOverhead: r.floorOverhead }])),
    query: { p50Ms: query.p50Ms, p95Ms: query.p95Ms, hedgedP50Ms: query.hedgedP50Ms, hedgedP95Ms: query.hedgedP95Ms, chunks: SIZE.query, queries: query.count },
    mainThread: { longestTaskMsIngest: mainThread.longestTaskMsIngest, longestTaskMsQuery: mainThread.longestTaskMsQuery, ingestChunks: mainThread.chunks },
    peers,
    embedder,
    corpus: { ...corpus, reload },
    twoTabs,
    pdf,
  };
  const row = (k: string, v: string) => console.log(`${k.padEnd(38)} ${v}`);
  const f = (x: number, d = 2) => x.toFixed(d);
  row('machine', report.machine);
  for (const [size, s] of Object.entries(scan)) {
    row(`scan ${size} floor (sequential read)`, `${f(s.floor.ms)} ms (${f(s.floor.mbPerS, 0)} MB/s)`);
    row(`scan ${size} SIMD floor (WASM read)`, `${f(s.floorSimd.ms)} ms (${f(s.floorSimd.mbPerS, 0)} MB/s)`);
    for (const [label, t] of [['f32 exact top-10, JS', s.f32Js], ['f32 exact top-10, WASM SIMD', s.f32Simd]] as const) {
      row(`scan ${size} ${label}`, `${f(t.ms)} ms, ${f(t.ratioToFloor)}× floor, ${f(t.ratioToSimdFloor)}× SIMD floor (min ${f(t.min)}, max ${f(t.max)})`);
    }
    for (const [label, t] of [['int8 + f32 rescoring, JS', s.int8Js], ['int8 + f32 rescoring, WASM SIMD', s.int8Simd]] as const) {
      row(`scan ${size} ${label}`, `${f(t.ms)} ms, ${f(t.ratioToFloor)}× f32 floor, ${f(t.ratioToSimdFloor)}× SIMD floor, recall@10 ${f(t.recallAt10, 3)}`);
    }
  }
  for (const [size, h] of Object.entries(hydrate)) row(`hydrate ${size}`, `${f(h.ms, 0)} ms, ${f(h.ratioToRawRead)}× raw IndexedDB read (${f(h.rawReadMs, 0)} ms), ${f(h.mbPerS, 0)} MB/s`);
  row('ingest add() vs bare embedder', `${f(ingest.chunksPerS, 0)} vs ${f(ingest.bareChunksPerS, 0)} chunks/s, overhead ${f(ingest.overhead * 100, 0)}% (own work ${f(ingest.ownOverhead * 100, 0)}%; ${ingest.chunks} chunks; the embedder plus one transaction storing its output: ${f(ingest.floorOverhead * 100, 0)}%; then replacing one document ${f(ingest.replaceOneMs, 1)} ms)`);
  row('ingest add() vs bare embedder, Markdown pages', `${f(ingestMarkdown.chunksPerS, 0)} vs ${f(ingestMarkdown.bareChunksPerS, 0)} chunks/s, overhead ${f(ingestMarkdown.overhead * 100, 0)}% (own work ${f(ingestMarkdown.ownOverhead * 100, 0)}%; ${ingestMarkdown.chunks} chunks of pages of about 4,000 characters; the embedder plus one transaction: ${f(ingestMarkdown.floorOverhead * 100, 0)}%)`);
  for (const [label, r] of Object.entries(transformerIngest)) {
    row(`ingest vs transformer-shaped, ${label}`, `${f(r.chunksPerS, 1)} vs ${f(r.bareChunksPerS, 1)} chunks/s, overhead ${f(r.overhead * 100, 1)}% (rounds ${r.overheads.map((o) => f(o * 100, 1)).join(' / ')}%); add()'s own work ${f(r.ownMs, 0)} ms = ${f(r.ownOverhead * 100, 2)}% of the bare embedder (${r.chunks} chunks; embedder plus one transaction: ${f(r.floorOverhead * 100, 1)}%)`);
  }
  row(`search() main thread, ${SIZE.query} chunks`, `p50 ${f(query.p50Ms)} ms, p95 ${f(query.p95Ms)} ms (${query.count} queries)`);
  row(`hedged search() (a follow-up's), ${SIZE.query} chunks`, `p50 ${f(query.hedgedP50Ms)} ms, p95 ${f(query.hedgedP95Ms)} ms: ${f(query.hedgedP50Ms / query.p50Ms)}× the plain search's p50, same queries, in turn`);
  row('longest main-thread task', `ingest of ${mainThread.chunks} chunks: ${f(mainThread.longestTaskMsIngest, 0)} ms; 100 queries: ${f(mainThread.longestTaskMsQuery, 0)} ms`);
  for (const [peer, p] of Object.entries(peers)) row(`peer ${peer}`, p.scanMs === undefined ? (p.note ?? 'no result') : `${p.note ? `(${p.note}) ` : ''}N=${p.n}: scan ${f(p.scanMs ?? NaN)} ms vs ours ${f(p.oursMs ?? NaN)} ms = ${f(p.scanRatioToOurs ?? NaN)}× ours${p.recallAt10 !== undefined ? `, recall@10 ${f(p.recallAt10, 3)}` : ''} (build ${f((p.buildMs ?? 0) / 1000, 1)} s)`);
  row('ingest with a second tab open', `${f(twoTabs.withOtherTabMs, 0)} vs ${f(twoTabs.aloneMs, 0)} ms alone = ${f(twoTabs.ratio)}× (${twoTabs.docs} documents into ${twoTabs.baseChunks} chunks)`);
  row('offline model, Node', `load ${f(embedder.node.loadMs, 0)} ms, ${f(embedder.node.sentencesPerS, 0)} sentences/s (same table through onnxruntime-node: ${f(embedder.node.onnxSentencesPerS, 0)})`);
  row('offline model, Chromium worker', `load ${f(embedder.chromium.loadMs, 0)} ms, ${f(embedder.chromium.sentencesPerS, 0)} sentences/s`);
  row('Markdown corpus through add()', `${corpus.docs} docs, ${f(corpus.chars / 1e6)} MB, ${corpus.chunks} chunks, ${f(corpus.chunksPerS, 0)} chunks/s`);
  row('reload to ready (fresh page)', `${f(reload.readyMs, 0)} ms for ${reload.chunks} chunks, ${reload.embeddedChunks} re-embedded; first query ${f(reload.firstQueryMs, 0)} ms`);
  for (const [label, p] of Object.entries(pdf.node)) row(`PDF read, Node (${label})`, `${f(p.pagesPerS, 0)} pages/s (${f(p.mb)} MB in ${f(p.ms, 0)} ms); memory high-water ${f(p.rssPeakMb, 0)} MB RSS, ${f(p.highWaterGrowthMb, 0)} MB above the level before reading`);
  row(`PDF through add(), Chromium (${pdf.chromium.pages} pages)`, `${f(pdf.chromium.pagesPerS, 0)} pages/s, ${pdf.chromium.chunks} chunks in ${f(pdf.chromium.ms, 0)} ms; reading the PDF ${f(pdf.chromium.parseShare * 100, 0)}% of it`);
  if (jsonFile) writeFileSync(jsonFile, `${JSON.stringify(report, null, 2)}\n`);
} finally {
  await bench.close();
}
