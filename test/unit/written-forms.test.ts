import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../scripts/eval/evaluate';
import { table } from '../../scripts/eval/report';
import { typedOnPhone } from '../../scripts/eval/typing';
import { condenseTurn } from '../../src/chat/condense';
import { resolveAndExpand } from '../../src/chat/expand';
import { splitPreamble } from '../../src/chat/specific-gate';
import { asWritten, NO_FORMS, restoreApostrophes, restoreCase, writtenFormsFrom } from '../../src/chat/written-forms';
import { MemoryIndex } from '../../src/retrieval/memory-index';
import { writtenForm } from '../../src/retrieval/written-form';
import type { TermStats } from '../../src/retriever';

const PLANS = [
  'Plans and pricing › Pro plan. Pro costs $12 a month. It includes everything in Plus, shared team notebooks and version history.',
  'Plans and pricing › Plus plan. Plus costs $5 a month. Paying yearly saves two months: Plus is $50 a year.',
  'Orders › Tracking. You can track an order from the Orders page. Most orders arrive in five days.',
  'Support. Write to Lumen support from the app; Lumen answers within a day. Teams on Pro get an answer within the hour.',
];

function plansIndex(): MemoryIndex {
  const memory = new MemoryIndex(2);
  memory.addChunks(PLANS.map((text, key) => ({ key, docId: `d${key}`, text, context: text, headingPath: [], start: 0, end: text.length })), new Float32Array(PLANS.length * 2).fill(0.5));
  return memory;
}

describe('writtenForm: how the documents write a word inside their sentences', () => {
  it('finds a name from one capitalized occurrence inside a sentence, and ignores sentence and heading starts', () => {
    expect(writtenForm('plus', PLANS)).toBe('Plus'); // "everything in Plus," (the others begin a sentence or follow "›" or ":")
    expect(writtenForm('lumen', PLANS)).toBe('Lumen');
    // Only sentence-initial capitals: no evidence either way.
    expect(writtenForm('paying', PLANS)).toBeUndefined();
    expect(writtenForm('most', PLANS)).toBeUndefined();
  });

  it('needs three quarters of the occurrences: a word written both ways as often is no name', () => {
    expect(writtenForm('orders', ['See the Orders page.', 'Most big orders ship fast.', 'We track orders daily.'])).toBeUndefined();
    expect(writtenForm('orders', ['See the Orders page.', 'Open the Orders page, then the Orders list.', 'We track orders daily.'])).toBe('Orders');
    expect(writtenForm('us', ['Made in the US and sold in the US.', 'Call us.'])).toBeUndefined(); // 2 of 3
    expect(writtenForm('usa', ['Made in the USA, sold in the USA.'])).toBe('USA');
  });

  it('is bounded and literal whatever it is given', () => {
    expect(writtenForm('', PLANS)).toBeUndefined();
    expect(writtenForm('x'.repeat(65), [`a ${'X'.repeat(65)} b`])).toBeUndefined();
    expect(writtenForm('a.b', ['see the A.B unit', 'an AxB grid'])).toBe('A.B'); // the dot is a dot, not any character
    expect(writtenForm('(', ['a ( b'])).toBeUndefined();
    const long = `${'word Name '.repeat(50_000)}`;
    expect(writtenForm('name', [long])).toBe('Name'); // stops counting after a few dozen occurrences
  });

  it('termStats reads a bounded amount of chunk text for forms, however large the chunks', () => {
    const memory = new MemoryIndex(2);
    // Twenty chunks of 300,000 characters, each naming Zed and Quux once inside a sentence: the budget (2 million) reads six.
    const huge = `${'filler words here '.repeat(16_000)}and Zed met Quux.`;
    memory.addChunks(Array.from({ length: 20 }, (_, key) => ({ key, docId: `d${key}`, text: huge, context: huge, headingPath: [], start: 0, end: huge.length })), new Float32Array(40).fill(0.5));
    expect(memory.termStats(['quux'], { forms: true }).terms[0]?.form).toBe('Quux');
    // "zed" spends the budget (one occurrence a chunk, so it reads all it may): "quux" then gets no form rather than more reading.
    expect(memory.termStats(['zed', 'quux'], { forms: true }).terms.map((t) => t.form)).toEqual(['Zed', undefined]);
  });

  it('termStats reports it only when asked, and only for words the index has', () => {
    const memory = plansIndex();
    expect(memory.termStats(['plus', 'lumen']).terms.every((t) => t.form === undefined)).toBe(true);
    const stats = memory.termStats(['plus', 'lumen', 'month', 'zebra'], { forms: true });
    expect(stats.terms.map((t) => t.form)).toEqual(['Plus', 'Lumen', undefined, undefined]);
  });
});

describe('asWritten: a message read with what its typist left out', () => {
  const forms = writtenFormsFrom(plansIndex().termStats(['plus', 'pro', 'lumen', 'notebooks'], { forms: true }));

  it('gives a message typed all in lower case the documents’ capitals, and "i" its own', () => {
    expect(restoreCase('does plus have version history? i wonder', forms)).toBe('does Plus have version history? I wonder');
    expect(restoreCase("i'm on pro", forms)).toBe("I'm on Pro");
    // A writer who capitalizes meant the lower case where it stands.
    expect(restoreCase('Does plus have version history?', forms)).toBe('Does plus have version history?');
    expect(restoreCase('does plus work?', NO_FORMS)).toBe('does plus work?');
  });

  it('leaves a name written as code whole: a part of "es-module-lexer" is not capitalized because the documents capitalize it elsewhere', () => {
    const parts: Record<string, string> = { lexer: 'Lexer', map: 'Map', node: 'Node', js: 'JS', yaml: 'YAML', jean: 'Jean', paul: 'Paul' };
    const forms = (word: string) => parts[word];
    expect(restoreCase('which node versions does es-module-lexer support', forms)).toBe('which Node versions does es-module-lexer support');
    expect(restoreCase('can i use source-map-support or source_map here', forms)).toBe('can I use source-map-support or source_map here');
    expect(restoreCase('is node.js fine', (word) => (word === 'node' ? 'Node' : undefined))).toBe('is node.js fine');
    // Every part written with capitals: the compound is a name so written ("JS-YAML", "Jean-Paul").
    expect(restoreCase('is js-yaml safe? ask jean-paul', forms)).toBe('is JS-YAML safe? ask Jean-Paul');
    // A sentence's end is no joiner.
    expect(restoreCase('i use node. lexer too', forms)).toBe('I use Node. Lexer too');
  });

  it('puts back the apostrophe of contractions that are no other word, and leaves those that are', () => {
    expect(restoreApostrophes('whats that? ive heard it doesnt work, dont you think')).toBe("what's that? I've heard it doesn't work, don't you think");
    expect(restoreApostrophes('Thats odd. im sure')).toBe("That's odd. I'm sure");
    expect(restoreApostrophes('its color, ill health, we were well, lets see')).toBe('its color, ill health, we were well, lets see');
    expect(restoreApostrophes("don't CANT IM")).toBe("don't CANT IM");
    expect(asWritten('whats plus', forms)).toBe("what's Plus");
    // "its" before what no possessive takes is "it's"; before a noun phrase, the possessive.
    expect(restoreApostrophes('what if its just a string? its not there, Its a bug')).toBe("what if it's just a string? it's not there, It's a bug");
    expect(restoreApostrophes('its output, its very own type, its only child, its ever-growing list, its so-called cache')).toBe('its output, its very own type, its only child, its ever-growing list, its so-called cache');
  });

  it('trusts a form only as a change of case (a tampered reply cannot rewrite the question)', () => {
    const stats: TermStats = { terms: [{ word: 'plus', term: 'plus', importance: 1, form: '<img src=x>' }, { word: 'pro', term: 'pro', importance: 1, form: 'PRO' }], reference: 1, chunks: 1 };
    const tampered = writtenFormsFrom(stats);
    expect(restoreCase('plus or pro', tampered)).toBe('plus or PRO');
  });
});

describe('a visitor on a phone is read as one at a keyboard', () => {
  const memory = plansIndex();
  const retriever = { termStats: (words: readonly string[], options?: { forms?: boolean }) => Promise.resolve(memory.termStats(words, options)) };
  const specificity = () => 0.6;

  it('a lower-case remnant name replaces the name it contrasts with, as the capitalized one does', async () => {
    const keyboard = await condenseTurn('and Plus?', [{ user: 'How much is the Pro plan?', assistant: 'Pro costs $12 a month.' }], [], { retriever, llm: undefined, mode: 'auto' });
    const phone = await condenseTurn('and plus', [{ user: 'how much is the pro plan', assistant: 'Pro costs $12 a month.' }], [], { retriever, llm: undefined, mode: 'auto' });
    expect(keyboard.question).toBe('How much is the Plus plan?');
    expect(phone.question).toBe('how much is the Plus plan?');
    // Without the index's forms, "plus" is no name and is spliced after the question instead.
    expect(resolveAndExpand('and plus', [{ user: 'how much is the pro plan', assistant: '' }], specificity).question).not.toMatch(/the plus plan/i);
  });

  it('asks the index for its forms only where a message of the conversation has no capital', async () => {
    const asked: (boolean | undefined)[] = [];
    const spy = { termStats: (words: readonly string[], options?: { forms?: boolean }) => { asked.push(options?.forms); return Promise.resolve(memory.termStats(words, options)); } };
    await condenseTurn('And Plus?', [{ user: 'How much is the Pro plan?', assistant: '' }], [], { retriever: spy, llm: undefined, mode: 'auto' });
    await condenseTurn('and plus', [{ user: 'How much is the Pro plan?', assistant: '' }], [], { retriever: spy, llm: undefined, mode: 'auto' });
    expect(asked).toEqual([false, true]);
  });

  it('a question kept as typed is searched and shown exactly as typed', () => {
    const r = resolveAndExpand('whats the  lumen support address', [{ user: 'hi', assistant: '' }], specificity, {}, writtenFormsFrom(memory.termStats(['lumen'], { forms: true })));
    expect(r.decision.action).toBe('keep');
    expect(r.question).toBe('whats the  lumen support address');
    expect(r.query.text).toBe('whats the  lumen support address');
  });

  it('a last sentence worded as a question is one without its question mark', () => {
    expect(splitPreamble('That sounds easy to spot. how do they get away with it')).toEqual({ preamble: 'That sounds easy to spot.', ask: 'how do they get away with it' });
    expect(splitPreamble('Are sharks endangered? If so, which species')).toEqual({ preamble: 'Are sharks endangered?', ask: 'If so, which species' });
    expect(splitPreamble('I live in Seattle. I have a big lawn')).toEqual({ preamble: '', ask: 'I live in Seattle. I have a big lawn' });
  });
});

describe('npm run eval -- --typing phone', () => {
  it('reads every user turn as typed on a phone, and says so', async () => {
    expect(typedOnPhone('What’s the refund window? ')).toBe('whats the refund window');
    const r = await evaluate({ data: resolve(import.meta.dirname, '../../docs/eval-sample-3'), strategies: ['raw', 'expand'], typing: 'phone' });
    expect(r.typing).toBe('phone');
    expect(r.turns.every((t) => t.user === typedOnPhone(t.user))).toBe(true);
    expect(table(r)).toContain('typed as on a phone');
  });
});
