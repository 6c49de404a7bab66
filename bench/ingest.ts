/**
 * npx tsx bench/ingest.ts [DOCS] [RUNS] [--markdown CHARS]
 * Only the ingest row of `npm run bench`: add() of DOCS one-sentence
 * documents (with --markdown, Markdown pages of about 4,000 characters,
 * CHARS in all) against the bare embedder on the same chunks, RUNS times in one
 * page (default 2,000 and 3), a line of JSON per run, with the floor (the bare
 * embedder plus one transaction storing its output) and the time to replace
 * one of those documents afterwards. For A/B work on the write path, where the
 * whole bench takes too long to repeat.
 */
import { benchPage } from './bench-page';

const markdownAt = process.argv.indexOf('--markdown');
const markdownChars = markdownAt > 0 ? Number(process.argv[markdownAt + 1] ?? 300_000) : 0;
const [docsArg, runsArg] = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--markdown');
const docs = Number(docsArg ?? 2000);
const runs = Number(runsArg ?? 3);
const { page, open, close } = await benchPage();
try {
  await open();
  await page.evaluate(() => window.bench.ingestVsBare(200)); // warm-up, not reported
  for (let i = 0; i < runs; i++) {
    const r = markdownChars ? await page.evaluate((c) => window.bench.ingestMarkdownVsBare(c), markdownChars) : await page.evaluate((n) => window.bench.ingestVsBare(n), docs);
    console.log(JSON.stringify({ chunks: r.chunks, ms: Math.round(r.ms), bareMs: Math.round(r.bareMs * 10) / 10, chunksPerS: Math.round(r.chunksPerS), bareChunksPerS: Math.round(r.bareChunksPerS), overhead: `+${Math.round(r.overhead * 100)}%`, floorMs: Math.round(r.floorMs * 10) / 10, floorOverhead: `+${Math.round(r.floorOverhead * 100)}%`, replaceOneMs: Math.round(r.replaceOneMs * 10) / 10 }));
  }
} finally {
  await close();
}
