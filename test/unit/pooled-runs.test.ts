import { describe, expect, it } from 'vitest';
import { pooledClosure, pooledComparisons, pooledLines } from '../../scripts/eval/pooled-runs';
import type { TurnRow } from '../../scripts/eval/evaluate';

const turn = (kind: TurnRow['kind'], rank: TurnRow['rank'], partRank?: TurnRow['partRank']): TurnRow => ({
  id: `t-${Math.random()}`, kind, user: 'u', rewrite: 'r', gate: 'kept', question: 'q', terms: [], rank, ...(partRank ? { partRank } : {}),
});

describe('npm run eval:pooled (scripts/eval/pooled-runs.ts)', () => {
  it('pools turns of several sets into paired differences, counting the turns each way', () => {
    // Two "sets" of follow-ups: expand finds the gold passage first where raw found it third, once it loses a rank.
    const setA = [turn('followup', { raw: 3, window: 1, expand: 1, oracle: 1 }), turn('followup', { raw: 1, window: 2, expand: 2, oracle: 1 })];
    const setB = [turn('followup', { raw: 0, window: 0, expand: 2, oracle: 1 }), turn('first', { raw: 1, window: 1, expand: 1, oracle: 1 }, { raw: { lexical: 2, dense: 1 }, expand: { lexical: 2, dense: 1 } })];
    const byName = new Map(pooledComparisons([...setA, ...setB]).map((c) => [c.name, c]));
    const vsRaw = byName.get('follow-ups: expand − raw');
    expect(vsRaw?.turns).toBe(3);
    // (1 + 1/2 + 1/2) / 3 − (1/3 + 1 + 0) / 3
    expect(vsRaw?.delta).toBeCloseTo((2 - 4 / 3) / 3, 12);
    expect([vsRaw?.higher, vsRaw?.lower]).toEqual([2, 1]);
    expect(vsRaw?.ci?.[0]).toBeLessThanOrEqual(vsRaw?.delta ?? NaN);
    expect(vsRaw?.ci?.[1]).toBeGreaterThanOrEqual(vsRaw?.delta ?? NaN);
    expect(byName.get('follow-ups: expand − window')?.delta).toBeCloseTo((2 - 1.5) / 3, 12);
    // Part ranks exist on the first turn only: the follow-ups lack them and are left out, not counted as misses.
    const vsLexical = byName.get('first+standalone: hybrid − lexical (as typed)');
    expect([vsLexical?.turns, vsLexical?.delta, vsLexical?.higher]).toEqual([1, 0.5, 1]);
    expect(byName.get('follow-ups: hybrid − lexical (expand)')?.turns).toBe(0);
  });

  it('reports the pooled gap closure as sums over every turn, not a mean of the sets\' closures', () => {
    const rows = [turn('followup', { raw: 0, expand: 1, oracle: 1 }), turn('followup', { raw: 1, expand: 2, oracle: 1 }), turn('followup', { raw: 2, expand: 2, oracle: 1 })];
    const { turns, closure } = pooledClosure(rows);
    expect(turns).toBe(3);
    // (expand − raw) / (oracle − raw) over the sums: (2 − 1.5) / (3 − 1.5).
    expect(closure).toBeCloseTo(1 / 3, 12);
    const lines = pooledLines('set', rows);
    expect(lines[0]).toMatch(/^set: gap closure of expand over 3 follow-ups 33\.3%/);
    expect(lines.find((l) => l.includes('expand − raw') && l.includes('follow-ups'))).toMatch(/3 turns +Δ \+0\.167/);
  });

  it('marks an interval wholly below zero as below', () => {
    const rows = Array.from({ length: 30 }, () => turn('followup', { raw: 1, window: 1, expand: 3, oracle: 1 }));
    const line = pooledLines('set', rows).find((l) => l.includes('expand − raw') && l.startsWith('  follow-ups'));
    expect(line).toMatch(/Δ −0\.667 \[−0\.667, −0\.667\] {2}0 higher \/ 30 lower \(below\)$/);
  });
});
