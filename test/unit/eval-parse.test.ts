import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEvalSet } from '../../scripts/eval/data';
import { parseEvalSet } from '../../scripts/eval/parse';

const line = (value: unknown) => JSON.stringify(value);
const turn = (id: string, kind: string, gold: string[] = ['p1']) => ({ id, user: 'refund window?', rewrite: 'refund window?', assistant: '', gold, kind });
const corpus = [line({ id: 'p1', text: 'Refunds within 30 days.' }), line({ id: 'p2', text: 'Shipping takes 3 days.', source: 'shipping' })].join('\n');
const conversations = line({ id: 'c1', turns: [turn('t1', 'first'), turn('t2', 'followup', ['p2'])] });

describe('an evaluation set as npm run eval and the Evaluate panel read it (scripts/eval/parse.ts)', () => {
  it('reads both files, and a set without a corpus (gate and term resolution only)', () => {
    const set = parseEvalSet(corpus, `${conversations}\n\n`);
    expect(set.passages).toEqual([{ id: 'p1', text: 'Refunds within 30 days.' }, { id: 'p2', text: 'Shipping takes 3 days.', source: 'shipping' }]);
    expect(set.conversations[0]?.turns.map((t) => [t.id, t.kind, t.gold])).toEqual([['t1', 'first', ['p1']], ['t2', 'followup', ['p2']]]);
    expect(parseEvalSet(null, line({ id: 'c1', turns: [turn('t1', 'first', [])] })).passages).toBeNull();
  });

  it('reads files saved with a byte-order mark and Windows line ends', () => {
    const set = parseEvalSet(`\uFEFF${corpus.replaceAll('\n', '\r\n')}\r\n`, `\uFEFF${conversations}\r\n`);
    expect(set.passages?.map((p) => p.id)).toEqual(['p1', 'p2']);
    expect(set.conversations).toHaveLength(1);
  });

  it('refuses a passage id given twice, which would rank the gold passage twice (R@10 2.0), naming both lines', () => {
    expect(() => parseEvalSet(`${corpus}\n${line({ id: 'p1', text: 'again' })}`, conversations)).toThrow('corpus.jsonl:3: passage id "p1" repeats corpus.jsonl:1');
  });

  it('refuses a conversation or turn id given twice (reports and comparisons find turns by id)', () => {
    expect(() => parseEvalSet(corpus, `${conversations}\n${line({ id: 'c1', turns: [turn('t9', 'first')] })}`)).toThrow('conversations.jsonl:2: conversation id "c1" repeats conversations.jsonl:1');
    expect(() => parseEvalSet(corpus, line({ id: 'c1', turns: [turn('t1', 'first'), turn('t1', 'followup')] }))).toThrow('conversations.jsonl:1 turn 2: turn id "t1" repeats conversations.jsonl:1 turn 1');
  });

  it('says which line is not an object, instead of failing inside the reader', () => {
    expect(() => parseEvalSet('null', conversations)).toThrow('corpus.jsonl:1: must be a JSON object');
    expect(() => parseEvalSet(corpus, '[1, 2]')).toThrow('conversations.jsonl:1: must be a JSON object');
    expect(() => parseEvalSet(corpus, line({ id: 'c1', turns: [null] }))).toThrow('conversations.jsonl:1 turn 1: must be a JSON object');
    expect(() => parseEvalSet(corpus, line({ id: 'c1', turns: [{ ...turn('t1', 'first'), gold: 'p1' }] }))).toThrow('conversations.jsonl:1 turn 1: gold must be an array of passage ids');
    expect(() => parseEvalSet(corpus, '{"id": "c1", "turns": [')).toThrow('conversations.jsonl:1: not valid JSON');
  });

  it('names a gold passage that is not in the corpus, and gold passages in a folder with no corpus.jsonl', () => {
    expect(() => parseEvalSet(corpus, line({ id: 'c1', turns: [turn('t1', 'first', ['p7'])] }))).toThrow('conversations.jsonl:1 turn 1: gold passage p7 is not in corpus.jsonl');
    expect(() => parseEvalSet(null, conversations)).toThrow('conversations.jsonl:1 turn 1: gold passages are listed, but the set has no corpus.jsonl');
  });

  it('names what a folder lacks, and npm run eval refuses a negative --expand weight with a message, exit code 1', () => {
    const empty = mkdtempSync(join(tmpdir(), 'tl-eval-'));
    expect(() => loadEvalSet(empty)).toThrow(`${empty} holds no conversations.jsonl: an evaluation set is a folder with conversations.jsonl and, optionally, corpus.jsonl`);
    const run = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'scripts/eval/run.ts', ...args], { cwd: resolve(import.meta.dirname, '../..'), encoding: 'utf8' });
    const negative = run(['--data', 'docs/eval-sample', '--expand', 'historyWeight=-1']);
    expect(negative.status).toBe(1);
    expect(negative.stderr).toContain('--expand historyWeight must be a number of at least 0, got "historyWeight=-1"');
    expect(run(['--data', 'docs/eval-sample', '--expand', 'maxTerms=2.5']).stderr).toContain('--expand maxTerms must be a whole number of at least 0');
  });
});
