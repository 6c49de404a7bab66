/**
 * npm run eval -- --data DIR [--strategies LIST] [--retrieval hybrid|dense|lexical] [--k 10] [--json FILE] [--svg FILE] [--turns FILE] [--llm MODULE] [--expand k=v,...] [--answers as-given|gold|passages] [--typing as-given|phone] [--reading on|off]
 * DIR without corpus.jsonl: gate and term resolution only.
 * MODULE (optional) exports `default` or `createLlm()` returning an Llm, for the `llm` strategy.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Llm } from '../../src/llm/llm';
import type { SearchMode } from '../../src/retrieval/memory-index';
import { ALL_STRATEGIES, evaluate, type Strategy } from './evaluate';
import { svgChart, table } from './report';
import { isTyping } from './typing';
import { isAnswers } from './answers';
import { EXPAND_DEFAULTS } from '../../src/chat/expand';

/** The options `--expand` takes: every ExpandOptions key, so a new one needs no second list here. */
const EXPAND_KEYS = Object.keys(EXPAND_DEFAULTS);

const USAGE = 'usage: npm run eval -- --data DIR [--strategies raw,rules,...] [--retrieval hybrid|dense|lexical] [--k 10] [--json FILE] [--svg FILE] [--turns FILE] [--llm MODULE] [--expand historyWeight=0.3,decay=0.7,firstTurnWeight=0.5,answerNameWeight=0.15,previousWordWeight=0.15] [--answers as-given|gold|passages] [--typing as-given|phone] [--reading on|off]';

function parse(argv: string[]) {
  const opts: Record<string, string> = {};
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i];
    const value = argv[i + 1];
    if (!key?.startsWith('--') || value === undefined) throw new Error(`${USAGE}\n(bad argument near "${key ?? ''}")`);
    opts[key.slice(2)] = value;
  }
  if (!opts.data) throw new Error(`${USAGE}\n(--data is required)`);
  const strategies = (opts.strategies?.split(',').map((s) => s.trim()) ?? [...ALL_STRATEGIES]) as Strategy[];
  for (const s of strategies) if (!ALL_STRATEGIES.includes(s)) throw new Error(`unknown strategy "${s}"; choose from ${ALL_STRATEGIES.join(', ')}`);
  const retrieval = (opts.retrieval ?? 'hybrid') as SearchMode;
  if (!['hybrid', 'dense', 'lexical'].includes(retrieval)) throw new Error('--retrieval must be hybrid, dense or lexical');
  const expand: Record<string, number> = {};
  for (const pair of opts.expand?.split(',') ?? []) {
    const [key, value] = pair.split('=');
    if (!key || !EXPAND_KEYS.includes(key) || !Number.isFinite(Number(value))) throw new Error(`--expand takes ${EXPAND_KEYS.join(', ')} = a number, got "${pair}"`);
    // A weight below 0 would push the conversation's words down instead of adding them; maxTerms counts words.
    if (Number(value) < 0 || (key === 'maxTerms' && !Number.isInteger(Number(value)))) throw new Error(`--expand ${key} must be ${key === 'maxTerms' ? 'a whole number' : 'a number'} of at least 0, got "${pair}"`);
    expand[key] = Number(value);
  }
  const answers = opts.answers ?? 'as-given';
  if (!isAnswers(answers)) throw new Error('--answers must be as-given, gold or passages');
  const typing = opts.typing ?? 'as-given';
  if (!isTyping(typing)) throw new Error('--typing must be as-given or phone');
  const reading = opts.reading ?? 'on';
  if (reading !== 'on' && reading !== 'off') throw new Error('--reading must be on or off');
  return { reading: reading === 'on', answers, typing, expand, data: opts.data, strategies, retrieval, k: Number(opts.k ?? 10), json: opts.json, svg: opts.svg, turns: opts.turns, llm: opts.llm };
}

async function loadLlm(module: string | undefined): Promise<Llm | undefined> {
  if (!module) return undefined;
  const mod = (await import(pathToFileURL(resolve(module)).href)) as { default?: Llm; createLlm?: () => Promise<Llm> | Llm };
  return mod.createLlm ? await mod.createLlm() : mod.default;
}

try {
  const args = parse(process.argv.slice(2));
  const llm = await loadLlm(args.llm);
  const report = await evaluate({ reading: args.reading, answers: args.answers, typing: args.typing, expand: args.expand, data: args.data, strategies: args.strategies, retrieval: args.retrieval, k: args.k, ...(llm ? { llm } : {}) });
  console.log(table(report));
  const { turns, ...summary } = report;
  if (args.json) writeFileSync(args.json, `${JSON.stringify(summary, null, 2)}\n`);
  if (args.svg && report.corpus) writeFileSync(args.svg, svgChart(report));
  if (args.turns) writeFileSync(args.turns, turns.map((t) => JSON.stringify(t)).join('\n') + '\n');
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
