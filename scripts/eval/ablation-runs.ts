/**
 * What each part of the default condenser adds, on every set: the dev sets of `npm run eval:dev` and the held-out
 * README sets (aggregates only), with one part taken out at a time (ablation.ts, or one of expand's weights at 0).
 *
 *   npm run eval:ablation [-- --json FILE]
 *
 * Prints, per variant, the change from the full condenser in: CAsT 2021 follow-up MRR (hybrid), the three samples'
 * and the dev and held-out README sets' mean follow-up MRR, cast2019/2020 term F1, follow-ups changed (cast2019,
 * cast2021) and standalone turns changed (all three CAsT sets together). A part whose gain shows on the sets it was
 * built on and not on the held-out ones is the first to question.
 */
import { existsSync, writeFileSync } from 'node:fs';
import type { GateReason } from '../../src/chat/rules/gate';
import type { Ablation } from './ablation';
import { loadEvalSet } from './data';
import { devRuns } from './dev-runs';
import { evaluate, type EvalOptions, type EvalReport } from './evaluate';
import type { ExpandOptions } from '../../src/chat/expand';
import { runWithJsonFlag } from './json-flag-cli';

interface Variant { name: string; ablate?: Ablation; expand?: ExpandOptions; reading?: false }

const CONDENSE_REASONS: readonly GateReason[] = ['dangling-pronoun', 'demonstrative', 'ellipsis', 'which-one', 'comparative', 'substitution', 'fragment', 'implicit-topic', 'definite-description', 'bridging', 'missing-argument'];

export const VARIANTS: readonly Variant[] = [
  { name: 'full condenser' },
  { name: '− resolution (typed words + history words)', ablate: { resolve: false } },
  { name: '− history words', ablate: { terms: false } },
  { name: '− hedges', ablate: { hedge: false } },
  { name: '− reading context', reading: false },
  { name: '− first-turn floor', expand: { firstTurnWeight: 0 } },
  { name: '− answer names', expand: { answerNameWeight: 0 } },
  { name: '− previous everyday words', expand: { previousWordWeight: 0 } },
  ...CONDENSE_REASONS.map((reason) => ({ name: `− gate: ${reason}`, ablate: { keep: [reason] } })),
];

/** The figures compared, from one variant's reports by set name; `standaloneTurns` counts each CAsT set's standalone turns. */
export function figures(reports: ReadonlyMap<string, Omit<EvalReport, 'turns'>>, standaloneTurns: ReadonlyMap<string, number>): Record<string, number> {
  const mrr = (name: string) => reports.get(name)?.strategies.expand?.kinds?.followup.mrr ?? NaN;
  const mean = (names: string[]) => names.reduce((sum, n) => sum + mrr(n), 0) / names.length;
  const names = [...reports.keys()];
  const e = (name: string) => reports.get(name)?.strategies.expand;
  return {
    cast2021: mrr('cast2021'),
    samples: mean(names.filter((n) => n.startsWith('eval-sample'))),
    readmeDev: mean(names.filter((n) => n.startsWith('eval-readmes'))),
    readmeHeld: mean(names.filter((n) => n.startsWith('held'))),
    f1c19: e('cast2019')?.terms.f1 ?? NaN,
    f1c20: e('cast2020')?.terms.f1 ?? NaN,
    covered19: e('cast2019')?.changed.followup ?? NaN,
    covered21: e('cast2021')?.changed.followup ?? NaN,
    // Turns, not a mean of shares (cast2019 has 88 standalone turns, cast2020 10, cast2021 15).
    standaloneChanged: ['cast2019', 'cast2020', 'cast2021'].reduce((sum, n) => sum + Math.round((reports.get(n)?.gate?.changedStandalone ?? NaN) * (standaloneTurns.get(n) ?? NaN)), 0),
  };
}

async function main(json?: string): Promise<void> {
  // The default hybrid runs only: CAsT 2021's lexical, dense, phone and passages variants are dev-runs' business.
  const runs = devRuns(false, true).filter((r) => !r.name.startsWith('c21-'));
  for (const r of runs) if (!existsSync(r.options.data)) throw new Error(`${r.options.data} is missing (README sets: npm run eval:readmes)`);
  const standaloneTurns = new Map(runs.map((r) => [r.name, loadEvalSet(r.options.data).conversations.flatMap((c) => c.turns).filter((t) => t.kind === 'standalone').length]));
  const rows: { name: string; figures: Record<string, number> }[] = [];
  for (const v of VARIANTS) {
    const started = performance.now();
    const reports = new Map<string, Omit<EvalReport, 'turns'>>();
    for (const r of runs) {
      const options: EvalOptions = { ...r.options, strategies: ['expand'], parts: false, ...(v.ablate ? { ablate: v.ablate } : {}), ...(v.expand ? { expand: v.expand } : {}), ...(v.reading === false ? { reading: false } : {}) };
      reports.set(r.name, await evaluate(options));
    }
    rows.push({ name: v.name, figures: figures(reports, standaloneTurns) });
    console.error(`${v.name} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  console.log(table(rows));
  if (json) writeFileSync(json, `${JSON.stringify(rows, null, 2)}\n`);
}

const COLUMNS: [key: string, label: string][] = [
  ['cast2021', 'CAsT21 MRR'], ['samples', 'samples'], ['readmeDev', 'README dev'], ['readmeHeld', 'README held'],
  ['f1c19', 'F1 c19'], ['f1c20', 'F1 c20'], ['covered19', 'cov c19'], ['covered21', 'cov c21'], ['standaloneChanged', 'standalone chg'],
];

/** A Markdown table: the full condenser's figures, then each variant's change from them. */
export function table(rows: readonly { name: string; figures: Record<string, number> }[]): string {
  const base = rows[0]?.figures ?? {};
  const cell = (key: string, v: number, delta: boolean) => {
    if (!Number.isFinite(v)) return '–';
    if (key === 'standaloneChanged') return delta ? (v === 0 ? '0' : `${v > 0 ? '+' : ''}${Math.round(v)}`) : `${Math.round(v)} turns`;
    const scale = key.startsWith('cov') ? 100 : 1;
    const digits = key.startsWith('cov') ? 1 : 3;
    if (!delta) return (v * scale).toFixed(digits) + (scale === 100 ? '%' : '');
    const d = v * scale;
    return Math.abs(d) < 0.5 * 10 ** -digits ? '0' : `${d > 0 ? '+' : ''}${d.toFixed(digits)}`;
  };
  const lines = [`| variant | ${COLUMNS.map(([, l]) => l).join(' | ')} |`, `|---|${COLUMNS.map(() => '---').join('|')}|`];
  rows.forEach((row, i) => {
    lines.push(`| ${row.name} | ${COLUMNS.map(([k]) => cell(k, i === 0 ? row.figures[k] ?? NaN : (row.figures[k] ?? NaN) - (base[k] ?? NaN), i > 0)).join(' | ')} |`);
  });
  return lines.join('\n');
}

await runWithJsonFlag(import.meta.filename, 'usage: npm run eval:ablation [-- --json FILE]', main);
