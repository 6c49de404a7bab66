import { describe, expect, it } from 'vitest';
import { expansionTerms, resolveAndExpand } from '../../src/chat/expand';
import { decide } from '../../src/chat/rules/gate';
import { compactSpace, MAX_READ_ANSWER, MAX_READ_QUESTION, MAX_READ_TURNS, MAX_READ_USER, readableHistory } from '../../src/chat/rules/read-bounds';
import { condenseWithRules } from '../../src/chat/rules/rules-condenser';
import { candidatePhrases, type HistoryTurn } from '../../src/chat/rules/topics';
import type { Specificity } from '../../src/chat/specificity';

/** A scripted specificity (a fake of the index's statistics): listed words are specific, others not. */
const specific = (words: Record<string, number>): Specificity => (w) => words[w.toLowerCase()] ?? 0.1;
const turn = (user: string, assistant = ''): HistoryTurn => ({ user, assistant });
const filler = (chars: number) => 'and then we talked about some things '.repeat(Math.ceil(chars / 37)).slice(0, chars);

describe('what the condenser reads of a conversation', () => {
  it('a conversation within bounds is read whole, as the same array', () => {
    const history = [turn('What is the Electoral College?', 'It elects the president.'), turn('How are electors chosen?')];
    expect(readableHistory(history)).toBe(history);
  });

  it('of a long session: the first turn and the latest ones', () => {
    const history = Array.from({ length: 40 }, (_, i) => turn(`question ${i}`));
    const read = readableHistory(history);
    expect(read).toHaveLength(MAX_READ_TURNS);
    expect(read.map((t) => t.user)).toEqual(['question 0', ...Array.from({ length: MAX_READ_TURNS - 1 }, (_, i) => `question ${40 - MAX_READ_TURNS + 1 + i}`)]);
  });

  it('a long message is read from its end (where its question is), a long answer from its start, both at word boundaries', () => {
    const user = `Tell me about zeppelins. ${filler(5_000)} Why did the Hindenburg burn?`;
    const assistant = `The Hindenburg was a German airship. ${filler(9_000)} The end.`;
    const [read] = readableHistory([turn(user, assistant)]);
    expect(read?.user.length).toBeLessThanOrEqual(MAX_READ_USER);
    expect(read?.user.endsWith('Why did the Hindenburg burn?')).toBe(true);
    expect(user.includes(` ${read?.user ?? ''}`)).toBe(true); // starts at a word
    expect(read?.assistant.length).toBeLessThanOrEqual(MAX_READ_ANSWER);
    expect(read?.assistant.startsWith('The Hindenburg was a German airship.')).toBe(true);
    expect(assistant.startsWith(`${read?.assistant ?? ''} `)).toBe(true); // ends at a word
  });

  it('an answer made of code names adds at most maxTerms of them, from its first 4,000 characters, in bounded time', () => {
    const answer = Array.from({ length: 3_000 }, (_, i) => `call${i}Name(x) snake_${i}`).join(' ');
    const started = performance.now();
    const out = resolveAndExpand('what happens to it then?', [turn('Can a task give up if it takes too long?', answer)], specific({ task: 0.3 }));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(out.query.terms.map((t) => t.term)).toEqual(Array.from({ length: 12 }, (_, i) => `call${i}name`));
  });

  it('runs of white space are read as one space (or one line break); short ones are left alone', () => {
    expect(compactSpace(`what${' '.repeat(5_000)}is it?`)).toBe('what is it?');
    expect(compactSpace(`first line${' \n'.repeat(50)}second`)).toBe('first line\nsecond');
    expect(compactSpace('So, there are two types.  Is the other fat good?')).toBe('So, there are two types.  Is the other fat good?');
  });

  it('a question longer than the condenser reads is kept as typed, as "long-message" (a first turn stays "first-turn")', () => {
    const long = `${filler(MAX_READ_QUESTION)} What about it?`;
    const history = [turn('What is the Electoral College?')];
    const spec = specific({ electoral: 0.9, college: 0.6 });
    expect(resolveAndExpand(long, history, spec)).toMatchObject({ decision: { action: 'keep', reason: 'long-message' }, question: long, query: { text: long, terms: [] } });
    expect(resolveAndExpand(long, [], spec).decision.reason).toBe('first-turn');
    expect(decide(long, true)).toMatchObject({ action: 'keep', reason: 'long-message' });
    // Just under the bound, the same question is condensed as before.
    expect(resolveAndExpand('What about it?', history, spec).decision.action).toBe('condense');
  });

  it('a topic named only in a turn the condenser no longer reads is not an antecedent', () => {
    const spec = specific({ zeppelins: 0.9, hindenburg: 0.9 });
    const named = (gap: number) => [turn('Tell me something interesting.'), turn('What are zeppelins?'), ...Array.from({ length: gap }, () => turn('OK.')), turn('Why did they stop flying?')].slice(0, -1);
    expect(resolveAndExpand('Why did they stop flying?', named(3), spec).antecedents).toEqual(['zeppelins']);
    expect(resolveAndExpand('Why did they stop flying?', named(MAX_READ_TURNS), spec).antecedents).not.toContain('zeppelins');
    // History words follow the same bound.
    expect(expansionTerms('Why did they stop flying?', named(3), spec).map((t) => t.term)).toContain('zeppelins');
    expect(expansionTerms('Why did they stop flying?', named(MAX_READ_TURNS), spec).map((t) => t.term)).not.toContain('zeppelins');
  });
});

// A hang guard, not a speed goal: each case takes tens of milliseconds; before these bounds (on the page's main
// thread, where a chat session condenses) the first four took 15 s to over 150 s each, so 5 s separates the two by far.
// The fifth took 1.6 s before: it checks the outcome, not the time.
describe('hostile conversations', { timeout: 5_000 }, () => {
  const mix = (words: string[], chars: number, salt: number) => Array.from({ length: chars / 3 }, (_, i) => words[(i + salt) % words.length]).join(' ').slice(0, chars);
  const shapes: Record<string, (chars: number, salt: number) => string> = {
    'pronouns, articles and names': (n, s) => mix(['it', 'the', 'Apple', 'and', 'what', 'about', 'there', 'in', 'Tokyo', 'this'], n, s),
    'definite nouns': (n, s) => mix(['the', 'College', 'of', 'the', 'Electoral', 'College', 'this', 'theory'], n, s),
    'a run of spaces': (n, s) => `what${' '.repeat(n - 12)}x it ${s}`,
    'a run of punctuation': (n, s) => `what ${'?.'.repeat((n - 12) / 2)} it ${s}`,
    'coordinated ellipses': (n, s) => `What about ${'cats and '.repeat((n - 20) / 9)}it ${s}`,
  };
  for (const [name, shape] of Object.entries(shapes)) {
    it(`${name}: 40 turns of 20,000/10,000 characters, condensed within bounds`, () => {
      const history = Array.from({ length: 40 }, (_, i) => turn(shape(20_000, i), shape(10_000, i)));
      const question = `${shape(MAX_READ_QUESTION - 10, 99)}?`;
      const spec = specific({ apple: 0.9, tokyo: 0.9, college: 0.6, electoral: 0.9, theory: 0.6, cats: 0.7 });
      const resolved = resolveAndExpand(question, history, spec);
      expect(['keep', 'condense']).toContain(resolved.decision.action);
      expect(resolved.query.terms.length).toBeLessThanOrEqual(12);
      const decision = decide(question, true);
      const rules = decision.action === 'condense' ? condenseWithRules(question, history, decision).question : question;
      expect(typeof rules).toBe('string');
    });
  }
});

describe('what is remembered between calls changes no result', () => {
  it('a decision handed out is the caller\'s own: changing it changes no later decision', () => {
    const first = decide('What about it?', true);
    first.evidence.push('mutated');
    expect(decide('What about it?', true).evidence).not.toContain('mutated');
    expect(decide('What about it?', false).reason).toBe('first-turn'); // the first turn of a session is keyed apart
  });

  it('phrases of a text are the same list each time, and cannot be changed', () => {
    const text = 'What are the symptoms of breast cancer?';
    expect(candidatePhrases(text)).toBe(candidatePhrases(text));
    expect(Object.isFrozen(candidatePhrases(text))).toBe(true);
    expect(candidatePhrases(text)).toEqual(['symptoms', 'breast cancer']);
  });

  it('a verb is no part of a topic: after a subject pronoun, and at the end of a question that asks for its object', () => {
    expect(candidatePhrases('how do I install idb')).toEqual(['idb']);
    expect(candidatePhrases('How can I test IndexedDB code in Node?')).toEqual(['IndexedDB code', 'Node']);
    expect(candidatePhrases('Which models does WebLLM support?')).toEqual(['models', 'WebLLM']);
    expect(candidatePhrases('How much does an Irish Wolfhound weigh?')).toEqual(['Irish Wolfhound']);
    // The object stays where nothing was asked for in front, and "you" after no auxiliary is an object.
    expect(candidatePhrases('Why did Dali choose surrealism?').at(-1)).toMatch(/surrealism$/);
    expect(candidatePhrases('Will they email you receipts?')).toEqual(['receipts']);
  });

  it('a quantifier is no part of a topic ("how many promises", "mammals with many legs")', () => {
    expect(candidatePhrases('How do I limit how many promises run at once with p-queue?')).toEqual(['promises', 'p-queue']);
    expect(candidatePhrases('Which mammals have several toes?')).toEqual(['mammals', 'toes']);
  });
});
