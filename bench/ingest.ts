/**
 * npx tsx bench/ingest.ts [DOCS] [RUNS] [--markdown CHARS] [--transformer] [--rounds N]
 * Only the ingest rows of `npm run bench`: add() of DOCS one-sentence
 * documents (with --markdown, Markdown pages of about 4,000 characters,
 * CHARS in all) against the bare embedder on the same chunks, RUNS times in one
 * page (default 2,000 and 3), a line of JSON per run, with the floor (the bare
 * embedder plus one transaction storing its output) and the time to replace
 * one of those documents afterwards. `--transformer`: both with the
 * transformer-shaped embedder (bench/transformer-model.ts) instead of the
 * offline model; `--rounds N`: add() and the bare embedder alternate N times in
 * each run (bench.worker.ts `ingest`). For A/B work on the write path, where the whole bench takes
 * too long to repeat.
 */
import { benchPage } from './bench-page';
import { TRANSFORMER, ensureTransformerModel } from './transformer-model';

const markdownAt = process.argv.indexOf('--markdown');
const markdownChars = markdownAt > 0 ? Number(process.argv[markdownAt + 1] ?? 300_000) : 0;
const [docsArg, runsArg] = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--markdown' && all[i - 1] !== '--rounds');
const roundsAt = process.argv.indexOf('--rounds');
const rounds = roundsAt > 0 ? Number(process.argv[roundsAt + 1] ?? 1) : 1;
const docs = Number(docsArg ?? 2000);
const runs = Number(runsArg ?? 3);
const model = process.argv.includes('--transformer') ? (ensureTransformerModel(), TRANSFORMER) : {};
const percent = (x: number) => `${x < 0 ? '−' : '+'}${Math.abs(Math.round(x * 1000) / 10)}%`;
const { page, open, close } = await benchPage();
try {
  await open();
  const warm = model === TRANSFORMER ? 20 : 200;
  await page.evaluate(({ n, m }) => window.bench.ingestVsBare(n, m), { n: warm, m: model }); // warm-up, not reported
  for (let i = 0; i < runs; i++) {
    const r = markdownChars
      ? await page.evaluate(({ c, m, k }) => window.bench.ingestMarkdownVsBare(c, m, k), { c: markdownChars, m: model, k: rounds })
      : await page.evaluate(({ n, m, k }) => window.bench.ingestVsBare(n, m, k), { n: docs, m: model, k: rounds });
    console.log(JSON.stringify({
      chunks: r.chunks, ms: Math.round(r.ms), bareMs: Math.round(r.bareMs * 10) / 10, chunksPerS: Math.round(r.chunksPerS), bareChunksPerS: Math.round(r.bareChunksPerS),
      overhead: percent(r.overhead), ownMs: Math.round(r.ownMs * 10) / 10, ownOverhead: percent(r.ownOverhead), overheads: r.overheads.map(percent), roundsMs: r.roundsMs.map(([a, b]) => [Math.round(a), Math.round(b)]), floorMs: Math.round(r.floorMs * 10) / 10, floorOverhead: percent(r.floorOverhead), replaceOneMs: Math.round(r.replaceOneMs * 10) / 10,
    }));
  }
} finally {
  await close();
}
