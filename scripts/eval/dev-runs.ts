/**
 * The condenser's working loop, as the quality log's rounds run it: every dev set evaluated into a folder
 * (one report and one per-turn file each), then two such folders compared, set by set and turn by turn.
 *
 *   npm run eval:dev -- run OUT [--phone] [--held]
 *   npm run eval:dev -- compare A B [--turns]
 *
 * `run` evaluates the dev sets (CAsT 2019/2020/2021, the three samples, README sets 1–12, 17 and 20; CAsT 2021 also
 * lexical only, dense only, with passages as answers and typed as on a phone) into OUT/<name>.json and
 * OUT/<name>.turns. `--phone`: the samples and README sets typed as on a phone instead. `--held`: the held-out
 * README sets as well, their reports only (OUT/held-<n>.json): no per-turn file, so that nobody reads their turns
 * by accident. README sets must be written first (`npm run eval:readmes`, or scripts/eval/write-readme-set.ts).
 *
 * `compare` prints, for each set in both folders, the default condenser's (expand) follow-up MRR and what else
 * moved (first and standalone MRR, term F1, follow-ups changed, standalone turns changed); `--turns`, each turn
 * whose gate, question, added words or rank changed (held-out sets have none to show).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { evaluate, type EvalOptions, type EvalReport, type TurnRow } from './evaluate';

const ROOT = resolve(import.meta.dirname, '../..');
const CAST = (year: number) => resolve(ROOT, `../shared/eval/cast${year}`);
export const README_DEV = ['', '-2', '-3', '-4', '-5', '-6', '-7', '-8', '-9', '-10', '-11', '-12', '-17', '-20'];
/** Held out: measured by their aggregates only, until one of them is read (then it moves to README_DEV). */
export const README_HELD = ['-13', '-14', '-15', '-16', '-18', '-19', '-21'];

interface Run { name: string; options: Omit<EvalOptions, 'strategies'>; turns: boolean }

/** The runs `run` makes, by name. */
export function devRuns(phone: boolean, held: boolean): Run[] {
  const typing = phone ? { typing: 'phone' as const } : {};
  const docs = [
    ...['docs/eval-sample', 'docs/eval-sample-2', 'docs/eval-sample-3'].map((d) => ({ name: d.slice(5), data: resolve(ROOT, d) })),
    ...README_DEV.map((n) => ({ name: `eval-readmes${n}`, data: resolve(ROOT, `build/eval-readmes${n}`) })),
  ].map(({ name, data }) => ({ name, options: { data, ...typing }, turns: true }));
  const cast = phone ? [] : [
    { name: 'cast2019', options: { data: CAST(2019) }, turns: true },
    { name: 'cast2020', options: { data: CAST(2020) }, turns: true },
    { name: 'cast2021', options: { data: CAST(2021) }, turns: true },
    { name: 'c21-lex', options: { data: CAST(2021), retrieval: 'lexical' as const }, turns: true },
    { name: 'c21-dense', options: { data: CAST(2021), retrieval: 'dense' as const }, turns: true },
    { name: 'c21-pass', options: { data: CAST(2021), answers: 'passages' as const }, turns: true },
    { name: 'c21-phone', options: { data: CAST(2021), typing: 'phone' as const }, turns: true },
  ];
  const heldOut = held ? README_HELD.map((n) => ({ name: `held${n}`, options: { data: resolve(ROOT, `build/eval-readmes${n}`), ...typing }, turns: false })) : [];
  return [...cast, ...docs, ...heldOut];
}

async function run(out: string, phone: boolean, held: boolean): Promise<void> {
  mkdirSync(out, { recursive: true });
  for (const r of devRuns(phone, held)) {
    if (!existsSync(r.options.data)) throw new Error(`${r.options.data} is missing (README sets: npm run eval:readmes)`);
    const started = performance.now();
    const report = await evaluate({ ...r.options, strategies: ['raw', 'window', 'rules', 'expand', 'oracle'] });
    const { turns, ...summary } = report;
    writeFileSync(resolve(out, `${r.name}.json`), `${JSON.stringify(summary, null, 2)}\n`);
    if (r.turns) writeFileSync(resolve(out, `${r.name}.turns`), `${turns.map((t) => JSON.stringify(t)).join('\n')}\n`);
    console.log(`${r.name.padEnd(16)} ${line(summary)}  (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  }
}

type Summary = Omit<EvalReport, 'turns'>;
const f3 = (x: number | null | undefined) => (x == null ? '  -  ' : x.toFixed(3));
const pct = (x: number | undefined) => `${(100 * (x ?? 0)).toFixed(1)}%`;

function line(s: Summary): string {
  const e = s.strategies.expand;
  return e?.kinds ? `expand follow-up MRR ${f3(e.kinds.followup.mrr)}, raw ${f3(s.strategies.raw?.kinds?.followup.mrr)}, window ${f3(s.strategies.window?.kinds?.followup.mrr)}` : `terms F1 ${f3(e?.terms.f1)}, follow-ups changed ${pct(e?.changed.followup)}`;
}

/** One set's figures before → after, changed ones marked with '*'. */
export function compareSummaries(name: string, a: Summary, b: Summary): string {
  const ea = a.strategies.expand;
  const eb = b.strategies.expand;
  const cell = (label: string, x: number | null | undefined, y: number | null | undefined, show: (v: number | null | undefined) => string = f3) =>
    `${label} ${show(x)}→${show(y)}${Math.abs((y ?? 0) - (x ?? 0)) > 1e-9 ? ' *' : ''}`;
  const cells = (['followup', 'first', 'standalone'] as const).flatMap((k) => (ea?.kinds || eb?.kinds ? [cell(k, ea?.kinds?.[k].mrr, eb?.kinds?.[k].mrr)] : []));
  cells.push(cell('F1', ea?.terms.f1, eb?.terms.f1), cell('changed', ea?.changed.followup, eb?.changed.followup, (v) => pct(v ?? 0)), cell('standalone changed', ea?.changed.standalone, eb?.changed.standalone, (v) => pct(v ?? 0)));
  // Hybrid less lexical alone (EvalReport.parts): questions as typed (raw), and the default condenser's follow-ups.
  if (a.parts || b.parts) {
    cells.push(cell('hybrid−lexical first+standalone', a.parts?.raw?.firstStandalone.lexical.delta, b.parts?.raw?.firstStandalone.lexical.delta));
    cells.push(cell('follow-ups', a.parts?.expand?.followup.lexical.delta, b.parts?.expand?.followup.lexical.delta));
  }
  return `${name.padEnd(16)} ${cells.join('  ')}`;
}

/** The turns whose gate, question, added words or rank under expand differ between two runs of one set. */
export function changedTurns(a: readonly TurnRow[], b: readonly TurnRow[]): string[] {
  const after = new Map(b.map((t) => [t.id, t]));
  return a.flatMap((x) => {
    const y = after.get(x.id);
    if (!y) return [`   ${x.id}: missing after`];
    const same = x.question === y.question && x.gate === y.gate && x.reason === y.reason && x.rank.expand === y.rank.expand && JSON.stringify(x.terms) === JSON.stringify(y.terms);
    return same ? [] : [`   ${x.id} [${x.kind}] ${x.gate}/${x.reason ?? ''} → ${y.gate}/${y.reason ?? ''}, rank ${x.rank.expand ?? '-'} → ${y.rank.expand ?? '-'}\n     typed:  ${x.user}\n     before: ${x.question}\n     after:  ${y.question}`];
  });
}

function compare(a: string, b: string, turns: boolean): void {
  for (const dir of [a, b]) if (!existsSync(dir)) throw new Error(`${dir}: no such folder (write one with npm run eval:dev -- run ${dir})`);
  const read = <T>(file: string) => JSON.parse(readFileSync(file, 'utf8')) as T;
  const rows = (file: string) => readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as TurnRow);
  const names = readdirSync(b).filter((f) => f.endsWith('.json') && existsSync(resolve(a, f))).map((f) => f.slice(0, -5)).sort();
  if (!names.length) throw new Error(`no report in both ${a} and ${b}`);
  for (const name of names) {
    console.log(compareSummaries(name, read<Summary>(resolve(a, `${name}.json`)), read<Summary>(resolve(b, `${name}.json`))));
    const ta = resolve(a, `${name}.turns`);
    const tb = resolve(b, `${name}.turns`);
    if (turns && existsSync(ta) && existsSync(tb)) for (const l of changedTurns(rows(ta), rows(tb))) console.log(l);
  }
}

const USAGE = 'usage: npm run eval:dev -- run OUT [--phone] [--held] | compare A B [--turns]';

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const [command, ...rest] = process.argv.slice(2);
  const flags = new Set(rest.filter((x) => x.startsWith('--')));
  const paths = rest.filter((x) => !x.startsWith('--'));
  try {
    const known = command === 'run' ? ['--phone', '--held'] : ['--turns'];
    const unknown = [...flags].filter((f) => !known.includes(f));
    if (unknown.length) throw new Error(`${USAGE}\n(unknown option ${unknown.join(', ')})`);
    if (command === 'run' && paths.length === 1) await run(resolve(paths[0] as string), flags.has('--phone'), flags.has('--held'));
    else if (command === 'compare' && paths.length === 2) compare(resolve(paths[0] as string), resolve(paths[1] as string), flags.has('--turns'));
    else throw new Error(USAGE);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
