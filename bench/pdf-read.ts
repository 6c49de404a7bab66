/**
 * npx tsx bench/pdf-read.ts PAGES: reads a generated PDF of PAGES pages with
 * the parser the worker runs, in a fresh process so its memory figures are
 * its own, and prints JSON: pages/s and the resident-memory high-water mark
 * while reading (RSS sampled every 2 ms; the OS's maxRSS is no use here: a
 * child inherits its parent's across fork and exec), against the RSS just
 * before reading, with the file already in memory.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadPdfjs } from '../src/ingest/binary-parsers';
import { parsePdf } from '../src/ingest/pdf';
import { syntheticCorpus, vocabulary } from './corpus';
import { pdfManual } from './pdf-corpus';

const pages = Number(process.argv[2] ?? 100);
const vocab = vocabulary(JSON.parse(readFileSync(resolve(import.meta.dirname, '../.models/threadline-glove-30k/tokenizer.json'), 'utf8')) as { model: { vocab: Record<string, number> } });
const text = syntheticCorpus(vocab, 3_000 * 60, 60 * 50).flatMap((d) => d.text.split(/(?<=\.)\s+/)).filter((x) => !x.startsWith('#')).slice(0, 3_000);
const pdfjs = await loadPdfjs();
await parsePdf(pdfManual(text, 2), pdfjs, 'warm.pdf');
const bytes = pdfManual(text, pages);
const before = process.memoryUsage().rss / 1e6;
let peak = before;
const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss / 1e6); }, 2);
const started = performance.now();
const parsed = await parsePdf(bytes, pdfjs, 'manual.pdf');
const ms = performance.now() - started;
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss / 1e6);
console.log(JSON.stringify({ pages, mb: bytes.length / 1e6, textMb: parsed.text.length / 1e6, ms, pagesPerS: pages / (ms / 1000), rssBeforeMb: before, rssPeakMb: peak, highWaterGrowthMb: peak - before }));
