import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
/** num, typed as a number for object matchers. */
const num = expect.any(Number) as unknown as number;

describe('npm run bench -- --quick (runs and emits every key; how fast is not asserted)', () => {
  it('writes the documented JSON shape', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'bench-')), 'bench.json');
    await run('npx', ['tsx', 'bench/run.ts', '--quick', '--json', file], { cwd: resolve(import.meta.dirname, '../..'), timeout: 230_000 });
    const report = JSON.parse(readFileSync(file, 'utf8')) as {
      machine: string; twoTabs?: unknown; pdf?: { node: Record<string, unknown>; chromium: unknown }; scan?: Record<string, unknown>; hydrate?: Record<string, unknown>; ingest?: unknown; ingestMarkdown?: unknown; ingestTransformer?: Record<string, unknown>; query?: unknown; mainThread?: unknown; peers?: Record<string, unknown>;
    };
    expect(typeof report.machine).toBe('string');
    for (const size of ['10000x384', '100000x384']) {
      expect(report.scan?.[size]).toMatchObject({
        f32: { ms: num, ratioToFloor: num, impl: expect.any(String) as string },
        f32Js: { ms: num }, f32Simd: { ms: num }, floorSimd: { ms: num },
        int8: { ms: num, ratioToFloor: num, recallAt10: num },
      });
    }
    const [hydrate] = Object.values(report.hydrate ?? {});
    expect(hydrate).toMatchObject({ ms: num, ratioToRawRead: num, mbPerS: num });
    expect(report.ingest).toMatchObject({ chunksPerS: num, overhead: num });
    expect(report.ingestMarkdown).toMatchObject({ chunksPerS: num, overhead: num, bareChunksPerS: num });
    for (const kind of ['sentences', 'markdown']) expect(report.ingestTransformer?.[kind]).toMatchObject({ chunksPerS: num, overhead: num, bareChunksPerS: num, overheads: [num] });
    expect(report.query).toMatchObject({ p50Ms: num, p95Ms: num });
    expect(report.mainThread).toMatchObject({ longestTaskMsIngest: num, longestTaskMsQuery: num });
    for (const peer of ['orama', 'langchain', 'hnswlib-wasm', 'voy-search', 'client-vector-search']) expect(report.peers?.[peer]).toBeDefined();
    expect(report.peers?.orama).toMatchObject({ scanRatioToOurs: num });
    expect(report.twoTabs).toMatchObject({ aloneMs: num, withOtherTabMs: num, ratio: num });
    expect(report.pdf?.node['100 pages']).toMatchObject({ pagesPerS: num, rssPeakMb: num, highWaterGrowthMb: num });
    expect(report.pdf?.chromium).toMatchObject({ pages: 100, pagesPerS: num, parseShare: num });
  }, 240_000);
});
