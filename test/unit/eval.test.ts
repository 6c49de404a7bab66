import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluate, type EvalReport } from '../../scripts/eval/evaluate';
import { svgChart, table } from '../../scripts/eval/report';
import { FakeLlm } from '../fakes/fake-llm';

const CAST = resolve(import.meta.dirname, '../../../shared/eval/cast2021');
const present = existsSync(resolve(CAST, 'corpus.jsonl'));
if (!present) console.log(`eval test skipped: no evaluation data at ${CAST}`);

/** The condense prompt ends with "Last message: X\n\nStandalone question:"; this fake echoes X (an identity rewrite). */
const echoLlm = () => new FakeLlm({ condense: (last) => /Last message: (.*)\n/.exec(last)?.[1] ?? '' });
const withoutTime = (r: EvalReport) => ({ ...r, ms: 0 });

describe.skipIf(!present)('npm run eval on cast2021 (determinism and sanity only, no quality thresholds)', () => {
  it('gives identical numbers twice, every strategy has every kind, oracle ≥ raw on follow-ups', async () => {
    const a = await evaluate({ data: CAST, llm: echoLlm() });
    const b = await evaluate({ data: CAST, llm: echoLlm() });
    expect(withoutTime(b)).toEqual(withoutTime(a));
    expect(Object.keys(a.strategies).sort()).toEqual(['concat', 'expand', 'hedged', 'llm', 'oracle', 'raw', 'rules', 'window']);
    for (const s of Object.values(a.strategies)) {
      for (const kind of ['first', 'standalone', 'followup', 'all'] as const) expect(s?.kinds?.[kind].n).toBeGreaterThan(0);
    }
    expect(a.strategies.oracle!.kinds!.followup.mrr).toBeGreaterThanOrEqual(a.strategies.raw!.kinds!.followup.mrr);
    expect(a.strategies.oracle!.terms.f1).toBe(1);
    expect(a.strategies.raw!.terms).toEqual({ p: 0, r: 0, f1: 0 });
    expect(a.turns).toHaveLength(239);
    expect(a.turns.every((t) => t.rank.oracle !== undefined)).toBe(true);
    expect(a.strategies.raw!.gapClosure).toBe(0);
    expect(a.strategies.oracle!.gapClosure).toBe(1);
    expect(table(a)).toContain('followup MRR');
    expect(svgChart(a)).toMatch(/^<svg[\s\S]*<\/svg>$/);
  });

  it('skips the llm strategy without an LLM and honours --retrieval and --strategies', async () => {
    const r = await evaluate({ data: CAST, strategies: ['raw', 'llm', 'oracle'], retrieval: 'lexical', k: 20 });
    expect(r.skipped).toEqual(['llm']);
    expect(Object.keys(r.strategies)).toEqual(['raw', 'oracle']);
    expect(r).toMatchObject({ retrieval: 'lexical', k: 20, depth: 20 });
  });
});
