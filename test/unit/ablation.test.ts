import { describe, expect, it } from 'vitest';
import { ablated } from '../../scripts/eval/ablation';
import { figures, table, VARIANTS } from '../../scripts/eval/ablation-runs';
import type { EvalReport } from '../../scripts/eval/evaluate';
import { resolveAndExpand } from '../../src/chat/expand';
import { REFERENCE_REASONS } from '../../src/chat/specific-gate';
import type { Specificity } from '../../src/chat/specificity';

/** A scripted specificity (a fake of the index's statistics): listed words are specific, others not. */
const specific = (words: Record<string, number>): Specificity => (w) => words[w.toLowerCase()] ?? 0.1;
const spec = specific({ warranty: 0.9, refund: 0.9, window: 0.6 });
const history = [{ user: 'How long is the refund window?', assistant: 'Returns are accepted within 30 days.' }, { user: 'Is there a warranty?', assistant: 'Two years.' }];

describe('ablations of the default condenser (scripts/eval/ablation.ts)', () => {
  const full = resolveAndExpand('how long does it last?', history, spec);

  it('the turn they are tried on is resolved, expanded and hedged', () => {
    expect(full.decision).toMatchObject({ action: 'condense', reason: 'dangling-pronoun' });
    expect(full.query.text).not.toBe('how long does it last?');
    expect(full.query.terms.length).toBeGreaterThan(0);
    expect(full.query.hedge).toBeDefined();
  });

  it('takes out one part each, leaving the others', () => {
    const unresolved = ablated(full, 'how long does it last?', history, { resolve: false });
    expect(unresolved.query).toEqual({ ...full.query, text: 'how long does it last?' });
    expect(unresolved.question).toBe('how long does it last?');
    expect(ablated(full, 'how long does it last?', history, { terms: false }).query).toEqual({ ...full.query, terms: [] });
    expect(ablated(full, 'how long does it last?', history, { hedge: false }).query).toEqual({ text: full.query.text, terms: full.query.terms });
    expect(ablated(full, 'how long does it last?', history, {})).toBe(full);
  });

  it('a reason kept is searched as a kept question is: as typed, the previous question beside it', () => {
    const kept = ablated(full, 'how long does it last?', history, { keep: ['dangling-pronoun'] });
    expect(kept.decision).toMatchObject({ action: 'keep', reason: 'self-contained' });
    expect(kept.query).toEqual({ text: 'how long does it last?', terms: [], hedge: 'Is there a warranty? how long does it last?', hedgeWeight: 0.15 });
    // Another reason's turns are untouched.
    expect(ablated(full, 'how long does it last?', history, { keep: ['ellipsis'] })).toBe(full);
  });

  it('tries every reason the gate condenses for', () => {
    const kept = new Set(VARIANTS.flatMap((v) => v.ablate?.keep ?? []));
    for (const reason of [...REFERENCE_REASONS, 'fragment', 'implicit-topic', 'bridging'] as const) expect(kept.has(reason)).toBe(true);
  });
});

describe('npm run eval:ablation (scripts/eval/ablation-runs.ts)', () => {
  const report = (followup: number, f1: number, changedStandalone: number): Omit<EvalReport, 'turns'> => ({
    strategies: { expand: { kinds: { followup: { mrr: followup } }, terms: { f1 }, changed: { followup: 0.9 } } },
    gate: { changedStandalone },
  } as unknown as Omit<EvalReport, 'turns'>);
  const standaloneTurns = new Map([['cast2019', 88], ['cast2020', 10], ['cast2021', 15]]);

  it('averages each group of sets and counts standalone turns changed', () => {
    const f = figures(new Map([
      ['cast2019', report(NaN, 0.6, 7 / 88)], ['cast2020', report(NaN, 0.4, 1 / 10)], ['cast2021', report(0.55, 0.25, 1 / 15)],
      ['eval-readmes', report(0.8, 0, 0)], ['eval-readmes-2', report(0.6, 0, 0)], ['held-13', report(0.5, 0, 0)],
    ]), standaloneTurns);
    expect(f.cast2021).toBe(0.55);
    expect(f.readmeDev).toBeCloseTo(0.7);
    expect(f.readmeHeld).toBe(0.5);
    expect(f.f1c20).toBe(0.4);
    expect(f.standaloneChanged).toBe(9);
  });

  it('prints the full condenser, then each variant as a change from it', () => {
    const out = table([
      { name: 'full condenser', figures: { cast2021: 0.559, covered19: 0.903, standaloneChanged: 9 } },
      { name: '− hedges', figures: { cast2021: 0.547, covered19: 0.903, standaloneChanged: 5 } },
    ]);
    expect(out).toContain('| full condenser | 0.559 |');
    expect(out).toContain('| 90.3% |');
    expect(out).toContain('| − hedges | -0.012 |');
    expect(out).toMatch(/\| − hedges .*\| 0 \| – \| -4 \|$/m);
  });
});
