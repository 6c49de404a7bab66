/**
 * Benchmark code that runs inside the page (main thread). The Node runner
 * (bench/run.ts) drives it through page.evaluate and prints the numbers.
 */
import * as Comlink from 'comlink';
import { createThreadline } from '../src/index';
import type { BenchWorkerApi } from './bench.worker';
import type { EmbedderOptions } from '../src/embedding/embedder-options';
import { median, percentile, syntheticCorpus, vocabulary } from './corpus';
import { pdfManual } from './pdf-corpus';

function benchWorker(): Comlink.Remote<BenchWorkerApi> {
  return Comlink.wrap<BenchWorkerApi>(new Worker(new URL('./bench.worker.ts', import.meta.url), { type: 'module' }));
}

/** Sentences of the synthetic corpus (realistic word statistics). */
async function sentences(count: number): Promise<string[]> {
  return syntheticCorpus(await loadVocab(), count * 70, 70 * 60).flatMap((d) => d.text.split(/(?<=\.)\s+/)).filter((x) => !x.startsWith('#')).slice(0, count);
}

/** Longest main-thread task (Long Tasks API) while `work` runs. */
async function longestTask<T>(work: () => Promise<T>): Promise<{ value: T; longestTaskMs: number }> {
  let longest = 0;
  const observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) longest = Math.max(longest, e.duration); });
  observer.observe({ type: 'longtask' });
  const value = await work();
  await new Promise((r) => setTimeout(r, 100));
  for (const e of observer.takeRecords()) longest = Math.max(longest, e.duration);
  observer.disconnect();
  return { value, longestTaskMs: longest };
}

async function loadVocab(): Promise<string[]> {
  const res = await fetch('/threadline-glove-30k/tokenizer.json');
  return vocabulary((await res.json()) as { model: { vocab: Record<string, number> } });
}

const bench = {
  async peers(sizes: number[], dims: number, runs: number, hnswN: number) {
    return benchWorker().peers(await sentences(4_000), sizes, dims, runs, hnswN);
  },
  async scan(sizes: number[], dims: number, runs: number) {
    return benchWorker().scan(await sentences(4_000), sizes, dims, runs);
  },
  async hydrate(n: number, dims: number, runs: number) {
    return benchWorker().hydrate(await sentences(4_000), n, dims, runs);
  },
  /** `model`: the embedder both sides use (default: the offline model). */
  async ingestVsBare(chunkCount: number, model: EmbedderOptions = {}, rounds = 1) {
    const texts = await sentences(chunkCount);
    return benchWorker().ingest(texts.map((text, i) => ({ id: `s${i}`, text })), model, rounds);
  },
  /** The same comparison on documents as sites have them: Markdown pages of about 4,000 characters, ≥ `chars` in all. */
  async ingestMarkdownVsBare(chars: number, model: EmbedderOptions = {}, rounds = 1) {
    return benchWorker().ingest(syntheticCorpus(await loadVocab(), chars), model, rounds);
  },
  /** search() p50/p95 from the main thread on an index of `chunks` chunks. */
  async query10k(chunks: number, count: number) {
    const name = `bench-query-${Date.now()}`;
    await benchWorker().prepareIndex(name, await sentences(chunks));
    return this.queries(name, count);
  },
  /** Longest main-thread task during an ingest of `chunks` chunks and during 100 queries. */
  async mainThread(chunks: number) {
    const texts = await sentences(chunks);
    const tl = await createThreadline({ name: `bench-main-${Date.now()}` });
    await tl.embed(['warm up']);
    const ingest = await longestTask(() => tl.add(texts.map((text, i) => ({ id: `m${i}`, text }))));
    const query = await longestTask(async () => { for (let i = 0; i < 100; i++) await tl.search(texts[i * 7] ?? 'refund', { k: 10 }); });
    await tl.dispose();
    return { longestTaskMsIngest: ingest.longestTaskMs, longestTaskMsQuery: query.longestTaskMs, chunks: ingest.value.chunks };
  },

  /**
   * One timed ingest of `docs` one-sentence documents into `name` (first
   * seeding it with `base` chunks when asked), for the two-tab comparison:
   * the caller runs it alone, then with another tab holding the same index.
   */
  async tabIngest(name: string, base: number, docs: number, tag: string) {
    const texts = await sentences(Math.max(base, docs));
    if (base > 0) await this.seed(name, base);
    const tl = await createThreadline({ name });
    await tl.embed(['warm up']);
    const started = performance.now();
    const result = await tl.add(texts.slice(0, docs).map((text, i) => ({ id: `${tag}${i}`, text: `${text} (${tag})` })));
    const ms = performance.now() - started;
    await tl.dispose();
    return { ms, chunks: result.chunks };
  },
  /** An index of `base` one-sentence chunks, written directly (no ingest), so two seeds are identical. */
  async seed(name: string, base: number) {
    await benchWorker().prepareIndex(name, await sentences(base));
  },
  /** The other tab: an instance on the same index, kept open (it follows every commit). */
  async holdOpen(name: string) {
    const tl = await createThreadline({ name });
    (window as unknown as { held: unknown }).held = tl;
    return (await tl.stats()).chunks;
  },

  /** Offline model in the retrieval worker: load (worker start + model) and embedding throughput. */
  async embedder(count: number) {
    const vocab = await loadVocab();
    const sentences = syntheticCorpus(vocab, count * 60, 60 * 50).flatMap((d) => d.text.split(/(?<=\.)\s+/)).filter((s) => !s.startsWith('#')).slice(0, count);
    const started = performance.now();
    const tl = await createThreadline({ name: `bench-embedder-${Date.now()}` });
    await tl.embed(['warm up']);
    const loadMs = performance.now() - started;
    const t0 = performance.now();
    await tl.embed(sentences);
    const ms = performance.now() - t0;
    await tl.dispose();
    return { loadMs, sentences: sentences.length, sentencesPerS: sentences.length / (ms / 1000) };
  },

  /**
   * A generated `pages`-page PDF through add() in a fresh index: pages/s end
   * to end, and the share of the time spent reading the PDF (until the last
   * page's parse event; everything after is chunking, embedding and storing).
   */
  async pdfIngest(pages: number) {
    const bytes = pdfManual(await sentences(3_000), pages);
    const tl = await createThreadline({ name: `bench-pdf-${Date.now()}` });
    await tl.embed(['warm up']);
    // A first small PDF loads pdf.js, so the timed run measures reading, not the chunk download.
    await tl.add([{ id: 'warm.pdf', data: pdfManual(['Warm up.'], 1), format: 'pdf' }]);
    let parsedAt = 0;
    const started = performance.now();
    const result = await tl.add([{ id: 'manual.pdf', data: bytes, format: 'pdf' }], { onProgress: (p) => { if (p.phase === 'parse') parsedAt = performance.now(); } });
    const ms = performance.now() - started;
    await tl.dispose();
    return { pages, bytes: bytes.length, chunks: result.chunks, ms, pagesPerS: pages / (ms / 1000), parseShare: (parsedAt - started) / ms };
  },

  /** Ingest ≥ `chars` of Markdown; chunks/s end to end through add(). */
  async ingest(name: string, chars: number) {
    const docs = syntheticCorpus(await loadVocab(), chars);
    const tl = await createThreadline({ name });
    await tl.search('warm up the model', { k: 1 }).catch(() => []); // model load is not ingest
    await tl.embed(['warm up']);
    const started = performance.now();
    const result = await tl.add(docs);
    const ms = performance.now() - started;
    const stats = await tl.stats();
    await tl.dispose();
    return { docs: docs.length, chars: docs.reduce((n, d) => n + d.text.length, 0), chunks: result.chunks, ms, chunksPerS: result.chunks / (ms / 1000), stored: stats.chunks };
  },

  /** From createThreadline() to an index ready to search (hydrated from IndexedDB). */
  async reopen(name: string) {
    const started = performance.now();
    const tl = await createThreadline({ name });
    const readyMs = performance.now() - started;
    const firstQueryStarted = performance.now();
    await tl.search('first query loads the model', { k: 5 });
    const firstQueryMs = performance.now() - firstQueryStarted;
    const stats = await tl.stats();
    await tl.dispose();
    return { readyMs, firstQueryMs, chunks: stats.chunks, embeddedChunks: stats.embeddedChunks };
  },

  /** search() latency from the main thread, after a warm-up. */
  async queries(name: string, count: number) {
    const vocab = await loadVocab();
    const tl = await createThreadline({ name });
    const pick = (i: number) => [vocab[(i * 7919) % 3000], vocab[(i * 104729) % 8000], vocab[(i * 31) % 500]].join(' ');
    for (let i = 0; i < 20; i++) await tl.search(pick(i), { k: 10 });
    const times: number[] = [];
    // A follow-up's hedged search (a second text ranked and fused below, as a pronoun's or a kept question's is),
    // timed in turn with the plain one so that both see the same machine.
    const hedgedTimes: number[] = [];
    for (let i = 0; i < count; i++) {
      const text = `how does ${pick(i + 100)} work?`;
      const t0 = performance.now();
      await tl.search(text, { k: 10 });
      times.push(performance.now() - t0);
      const t1 = performance.now();
      await tl.search({ text, hedge: `what is ${pick(i + 200)}? ${text}`, hedgeWeight: 0.15 }, { k: 10 });
      hedgedTimes.push(performance.now() - t1);
    }
    await tl.dispose();
    times.sort((a, b) => a - b);
    hedgedTimes.sort((a, b) => a - b);
    return { count, p50Ms: percentile(times, 0.5), p95Ms: percentile(times, 0.95), medianMs: median(times), hedgedP50Ms: percentile(hedgedTimes, 0.5), hedgedP95Ms: percentile(hedgedTimes, 0.95) };
  },
};

declare global { interface Window { bench: typeof bench; benchReady: boolean } }
window.bench = bench;
window.benchReady = true;
