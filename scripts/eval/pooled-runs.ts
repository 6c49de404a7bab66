/**
 * The README sets pooled turn by turn: one README set holds a dozen first turns and thirty follow-ups, where one
 * turn moves a mean by 0.02–0.08, so "window beats expand on set 5" or "hybrid is below lexical on set 13" cannot
 * tell a real difference from noise. Pooled over every set of a group, with a paired interval, they can.
 *
 *   npm run eval:pooled [-- --json FILE]
 *
 * For the dev README sets, the held-out ones (their aggregates only: nothing here prints a turn) and all of them,
 * prints per comparison the pooled MRR difference, its paired 95% bootstrap interval over the turns, and how many
 * turns rank the gold passage higher and lower: the default condenser (`expand`) against the question as typed and
 * against `window` (follow-ups), its gap closure with its interval, and hybrid search against each part alone
 * (questions as typed on first and standalone turns, `expand` on follow-ups, as `npm run eval` ranks the parts).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { README_DEV, README_HELD } from './dev-runs';
import { evaluate, type TurnRow } from './evaluate';
import { closureInterval, pairedDifference, reciprocalRank, type PairedDifference } from './metrics';
import { EPSILON, pct, signed } from './report';
import { runWithJsonFlag } from './json-flag-cli';

const ROOT = resolve(import.meta.dirname, '../..');

/** One pooled comparison: mean(a) − mean(b) over the same turns. */
export interface Pooled extends PairedDifference {
  name: string;
  turns: number;
}

/** How one turn's reciprocal rank is read from its row (undefined: the row lacks it, and the turn is left out). */
type Read = (t: TurnRow) => number | undefined;

const rank = (s: 'raw' | 'window' | 'expand' | 'oracle'): Read => (t) => (t.rank[s] === undefined ? undefined : reciprocalRank(t.rank[s]));
const part = (s: 'raw' | 'expand', p: 'lexical' | 'dense'): Read => (t) => {
  const r = t.partRank?.[s]?.[p];
  return r === undefined ? undefined : reciprocalRank(r);
};
const isFollowup = (t: TurnRow) => t.kind === 'followup';
const asTyped = (t: TurnRow) => t.kind === 'first' || t.kind === 'standalone';

/** The comparisons made, in print order: which turns, and the two readings compared. */
export const COMPARISONS: readonly { name: string; turns: (t: TurnRow) => boolean; a: Read; b: Read }[] = [
  { name: 'follow-ups: expand − raw', turns: isFollowup, a: rank('expand'), b: rank('raw') },
  { name: 'follow-ups: expand − window', turns: isFollowup, a: rank('expand'), b: rank('window') },
  { name: 'first+standalone: expand − raw', turns: asTyped, a: rank('expand'), b: rank('raw') },
  { name: 'first+standalone: hybrid − lexical (as typed)', turns: asTyped, a: rank('raw'), b: part('raw', 'lexical') },
  { name: 'first+standalone: hybrid − dense (as typed)', turns: asTyped, a: rank('raw'), b: part('raw', 'dense') },
  { name: 'follow-ups: hybrid − lexical (expand)', turns: isFollowup, a: rank('expand'), b: part('expand', 'lexical') },
  { name: 'follow-ups: hybrid − dense (expand)', turns: isFollowup, a: rank('expand'), b: part('expand', 'dense') },
];

/** Every comparison over `turns` (rows of any number of sets, pooled); a turn that lacks either reading is left out. */
export function pooledComparisons(turns: readonly TurnRow[]): Pooled[] {
  return COMPARISONS.map(({ name, turns: which, a, b }) => {
    const xs: number[] = [];
    const ys: number[] = [];
    for (const t of turns) {
      if (!which(t)) continue;
      const x = a(t);
      const y = b(t);
      if (x === undefined || y === undefined) continue;
      xs.push(x);
      ys.push(y);
    }
    return { name, turns: xs.length, ...pairedDifference(xs, ys) };
  });
}

/** The default condenser's gap closure over pooled follow-ups, (expand − raw) / (oracle − raw), with its interval. */
export function pooledClosure(turns: readonly TurnRow[]): { turns: number; closure: number; interval: [number, number] | null } {
  const rows = turns.filter((t) => isFollowup(t) && ['raw', 'expand', 'oracle'].every((s) => t.rank[s as 'raw'] !== undefined));
  const of = (s: 'raw' | 'expand' | 'oracle') => rows.map((t) => reciprocalRank(t.rank[s] as number));
  const [raw, expand, oracle] = [of('raw'), of('expand'), of('oracle')];
  const sum = (v: number[]) => v.reduce((s, x) => s + x, 0);
  const gap = sum(oracle) - sum(raw);
  return { turns: rows.length, closure: gap !== 0 ? (sum(expand) - sum(raw)) / gap : NaN, interval: closureInterval(raw, expand, oracle) };
}

/** One line per comparison; "(below)" where the interval lies under zero, "(above)" where over it. */
export function pooledLines(group: string, turns: readonly TurnRow[]): string[] {
  const { turns: n, closure, interval } = pooledClosure(turns);
  return [
    `${group}: gap closure of expand over ${n} follow-ups ${Number.isFinite(closure) ? pct(closure) : '–'}${interval ? ` [${pct(interval[0])}, ${pct(interval[1])}]` : ''}`,
    ...pooledComparisons(turns).map((c) => {
      const mark = !c.ci ? '' : c.ci[1] < -EPSILON ? ' (below)' : c.ci[0] > EPSILON ? ' (above)' : '';
      const range = c.ci ? ` [${signed(c.ci[0])}, ${signed(c.ci[1])}]` : '';
      return `  ${c.name.padEnd(46)} ${String(c.turns).padStart(4)} turns  Δ ${signed(c.delta)}${range}  ${c.higher} higher / ${c.lower} lower${mark}`;
    }),
  ];
}

async function main(json?: string): Promise<void> {
  const groups = { dev: README_DEV, held: README_HELD };
  const turns: Record<string, TurnRow[]> = { dev: [], held: [] };
  const data = (n: string) => resolve(ROOT, `build/eval-readmes${n}`);
  // Every set checked before any runs, so a missing one fails at once rather than after the others.
  for (const n of [...README_DEV, ...README_HELD]) if (!existsSync(data(n))) throw new Error(`${data(n)} is missing (README sets: npm run eval:readmes)`);
  for (const [group, names] of Object.entries(groups)) {
    for (const n of names) {
      const report = await evaluate({ data: data(n), strategies: ['raw', 'window', 'expand', 'oracle'] });
      (turns[group] as TurnRow[]).push(...report.turns);
    }
  }
  const all = [...(turns.dev as TurnRow[]), ...(turns.held as TurnRow[])];
  const out: Record<string, { closure: ReturnType<typeof pooledClosure>; comparisons: Pooled[] }> = {};
  for (const [group, rows, label] of [['dev', turns.dev, `README dev sets (${README_DEV.length})`], ['held', turns.held, `README held-out sets (${README_HELD.length})`], ['all', all, `all README sets (${README_DEV.length + README_HELD.length})`]] as const) {
    console.log(pooledLines(label, rows as TurnRow[]).join('\n'));
    out[group] = { closure: pooledClosure(rows as TurnRow[]), comparisons: pooledComparisons(rows as TurnRow[]) };
  }
  if (json) writeFileSync(json, `${JSON.stringify(out, null, 2)}\n`);
}

await runWithJsonFlag(import.meta.filename, 'usage: npm run eval:pooled [-- --json FILE]', main);
