import { describe, expect, it } from 'vitest';
import { cleanRewrite, guardRewrite } from '../../src/chat/guards';
import { checkCitations } from '../../src/chat/citations';
import { truncateToTokens, windowTurns } from '../../src/chat/memory';
import type { SearchHit } from '../../src/retrieval/memory-index';

const history = "what's the refund window? You can return any product within 30 days.";

describe('rewrite guards', () => {
  it('keeps the first non-empty line and strips preambles and quotes', () => {
    expect(cleanRewrite('\n\nWhat is the refund window for damaged items?\nThis question asks about…')).toBe('What is the refund window for damaged items?');
    expect(cleanRewrite('Sure! The standalone question is: "What is the refund window for damaged items?"')).toBe('What is the refund window for damaged items?');
    expect(cleanRewrite('Standalone question: What is X?')).toBe('What is X?');
    expect(cleanRewrite("Here's the rewritten question: 'What is X?'")).toBe('What is X?');
    expect(cleanRewrite('- **What is X?**')).toBe('What is X?');
  });

  it('accepts a clean rewrite', () => {
    expect(guardRewrite('What is the refund window for damaged items?', 'what about damaged items?', history)).toEqual({ ok: true, question: 'What is the refund window for damaged items?', cleaned: false });
  });

  it('rejects empty, overlong, drifting and answering outputs', () => {
    expect(guardRewrite('  \n ', 'what about damaged items?', history)).toMatchObject({ ok: false, problem: 'empty' });
    expect(guardRewrite(`What is ${'very '.repeat(100)}long?`, 'what about damaged items?', history)).toMatchObject({ ok: false, problem: 'overlong' });
    expect(guardRewrite('How do penguins sleep in Antarctica?', 'what about damaged items?', history)).toMatchObject({ ok: false, problem: 'drift' });
    expect(guardRewrite('Damaged items can be refunded within 60 days.', 'what about damaged items?', history)).toMatchObject({ ok: false, problem: 'answer-leak' });
    expect(guardRewrite('What about damaged items? They are refunded within 60 days.', 'what about damaged items?', history)).toMatchObject({ ok: false, problem: 'answer-leak' });
  });
});

describe('citations', () => {
  const hit = (n: number): SearchHit => ({ chunkKey: n, docId: `d${n}`, text: 't', headingPath: [`H${n}`], start: 0, end: 1, score: 1, title: `T${n}` });
  it('keeps valid markers, removes invented ones and reports them', () => {
    const out = checkCitations('Refunds take 5 days [2]. Damaged items get 60 days [1, 7]. See also [9].', [hit(1), hit(2)]);
    expect(out.answer).toBe('Refunds take 5 days [2]. Damaged items get 60 days [1]. See also.');
    expect(out.citations.map((c) => [c.n, c.docId, c.label])).toEqual([[2, 'd2', 'T2 › H2'], [1, 'd1', 'T1 › H1']]);
    expect(out.invalid).toEqual([7, 9]);
  });

  // A hang guard: before, a run of spaces in the model's answer was rescanned from each of its positions (1.6 s for 40,000).
  it('an answer with a long run of spaces is checked in linear time', { timeout: 5_000 }, () => {
    const out = checkCitations(`Refunds take 5 days${' '.repeat(200_000)}[1] .`, [hit(1)]);
    expect(out.answer).toBe('Refunds take 5 days [1].');
  });
});

describe('memory window', () => {
  const turns = Array.from({ length: 30 }, (_, i) => ({ user: `question ${i} ${'word '.repeat(10)}`, assistant: `answer ${i} ${'word '.repeat(60)}` }));
  const count = (t: string) => t.split(/\s+/).filter(Boolean).length;
  it('keeps the newest turns within both the turn and token budgets', () => {
    const w = windowTurns(turns, { turns: 6, maxTokens: 300 }, count);
    expect(w.at(-1)?.user).toBe(turns.at(-1)?.user);
    expect(w.length).toBeLessThanOrEqual(6);
    expect(w.reduce((n, t) => n + count(t.user) + count(t.assistant) + 8, 0)).toBeLessThanOrEqual(300);
    expect(windowTurns(turns, { turns: 3, maxTokens: 10_000 }, count)).toHaveLength(3);
  });
  it('truncates a single oversized answer instead of dropping all history', () => {
    const w = windowTurns([{ user: 'q', assistant: 'x '.repeat(5_000) }], { maxTokens: 200 }, count);
    expect(w).toHaveLength(1);
    expect(count(w[0]!.assistant)).toBeLessThanOrEqual(200);
    expect(truncateToTokens('short', 10, count)).toBe('short');
  });
});
