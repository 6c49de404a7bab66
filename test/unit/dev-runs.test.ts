import { describe, expect, it } from 'vitest';
import { changedTurns, compareSummaries, devRuns, README_HELD } from '../../scripts/eval/dev-runs';
import type { EvalReport, TurnRow } from '../../scripts/eval/evaluate';

const row = (id: string, question: string, rank: number): TurnRow => ({ id, kind: 'followup', user: 'how do I stop that?', rewrite: '', gate: 'condensed', reason: 'demonstrative', question, terms: [], rank: { expand: rank } });

const report = (followup: number, f1: number): Omit<EvalReport, 'turns'> => ({
  data: 'x', retrieval: 'hybrid', k: 10, depth: 10, corpus: true, answers: 'as-given', typing: 'as-given', reading: true, specificity: 'corpus', skipped: [], model: 'm', ms: 0,
  strategies: {
    expand: {
      kinds: Object.fromEntries((['first', 'standalone', 'followup', 'all'] as const).map((k) => [k, { n: 1, mrr: k === 'followup' ? followup : 1, r1: 0, r5: 0, r10: 0, ndcg10: 0 }])) as never,
      gapClosure: null, regression: 0, terms: { p: 0, r: 0, f1 }, changed: { first: 0, standalone: 0, followup: 0.5 },
    },
  },
} as unknown as Omit<EvalReport, 'turns'>);

describe('npm run eval:dev (scripts/eval/dev-runs.ts)', () => {
  it('runs every dev set with its per-turn file, and the held-out sets by their reports only', () => {
    const names = devRuns(false, true);
    expect(names.map((r) => r.name)).toEqual(expect.arrayContaining(['cast2019', 'cast2021', 'c21-lex', 'eval-sample', 'eval-readmes', 'eval-readmes-17']));
    const held = names.filter((r) => r.name.startsWith('held'));
    expect(held.map((r) => r.name)).toEqual(README_HELD.map((n) => `held${n}`));
    expect(held.every((r) => !r.turns)).toBe(true);
    expect(devRuns(false, false).some((r) => r.name.startsWith('held'))).toBe(false);
    // Typed as on a phone: the samples and README sets, each with typing set.
    expect(devRuns(true, false).every((r) => r.options.typing === 'phone' && !r.name.startsWith('c'))).toBe(true);
  });

  it('marks what moved, set by set, and lists the turns that changed', () => {
    expect(compareSummaries('set', report(0.5, 0.2), report(0.5, 0.2))).not.toContain('*');
    const moved = compareSummaries('set', report(0.5, 0.2), report(0.55, 0.2));
    expect(moved).toContain('followup 0.500→0.550 *');
    expect(moved).toContain('F1 0.200→0.200');
    const before = [row('a-1', 'how do I stop grep?', 3), row('a-2', 'same', 1)];
    const after = [row('a-1', 'will it find eslint? how do I stop that?', 1), row('a-2', 'same', 1)];
    const lines = changedTurns(before, after);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/a-1 .* rank 3 → 1/);
    expect(lines[0]).toContain('after:  will it find eslint? how do I stop that?');
    expect(changedTurns(before, [after[1] as TurnRow])[0]).toMatch(/a-1: missing after/);
  });

  it('shows hybrid less lexical alone where the reports ranked the parts (EvalReport.parts)', () => {
    const vsLexical = (kept: number, followup: number) => ({
      raw: { firstStandalone: { lexical: { delta: kept } }, followup: { lexical: { delta: 0 } } },
      expand: { firstStandalone: { lexical: { delta: 0 } }, followup: { lexical: { delta: followup } } },
    });
    const line = compareSummaries('set', { ...report(0.5, 0.2), parts: vsLexical(-0.02, 0.01) as never }, { ...report(0.5, 0.2), parts: vsLexical(0.01, 0.01) as never });
    expect(line).toContain('hybrid−lexical first+standalone -0.020→0.010 *');
    expect(line).toContain('follow-ups 0.010→0.010');
    expect(compareSummaries('set', report(0.5, 0.2), report(0.5, 0.2))).not.toContain('hybrid−lexical');
  });
});
