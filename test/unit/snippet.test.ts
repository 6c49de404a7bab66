import { describe, expect, it } from 'vitest';
import { extractiveAnswer } from '../../src/chat/extractive';
import { pickSnippet } from '../../src/chat/snippet';

describe('extractive snippet (the short answer without a language model)', () => {
  const intro = 'Harbor is a self-hosted photo backup server. It keeps every photo you take on a machine you own.';
  const install = 'Harbor runs anywhere Docker does. To install Harbor, download the compose file and run docker compose up in its folder. The first start creates an admin account.';

  it('within a passage, prefers the sentence with the word that tells passages apart over the topic word every passage repeats', () => {
    const s = pickSnippet('how do I install Harbor?', 'how do I install Harbor?', [`${intro} ${install}`, 'Harbor backs up photos from phones. Harbor keeps albums in sync.']);
    expect(s?.passage).toBe(0);
    expect(s?.text).toContain('To install Harbor, download the compose file');
    expect(s?.text).not.toContain('self-hosted photo backup server');
  });

  it('counts a question word in a passage\'s heading for its sentences ("Refund window" → "…within 30 days")', () => {
    const window = { text: 'Start a return from the Orders page. You can return any product within 30 days of delivery for a full refund.', heading: 'Refund policy Refund window' };
    expect(pickSnippet("what's the refund window?", "what's the refund window?", [window])?.text).toContain('within 30 days');
  });

  it('keeps retrieval\'s order: a lower passage that repeats the typed words (the distractor) never beats the first passage that holds a question word', () => {
    const arrival = 'If your order arrives damaged or broken in transit, the refund window is longer: report it within 60 days.';
    const warranty = 'Items damaged by misuse, drops or water are not covered. There is no refund for misuse.';
    expect(pickSnippet('what about damaged items?', 'what about damaged items?', [arrival, warranty])).toMatchObject({ passage: 0, text: arrival });
    // A first passage with no question word at all gives way to the next.
    expect(pickSnippet('what about damaged items?', 'what about damaged items?', ['Shipping takes three days.', warranty])?.passage).toBe(1);
  });

  it('quotes a passage that is one short sentence ("Get decorated Source."): its heading is kept apart, so it is the answer, not a label', () => {
    const original = { text: 'Get decorated Source.', heading: 'webpack-sources ReplaceSource Public methods original' };
    const replace = { text: 'Replaces chars from start to end with replacement. Locations are not influenced by other replacements.', heading: 'webpack-sources ReplaceSource Public methods replace' };
    const q = 'how do I get the source that a ReplaceSource decorates?';
    expect(pickSnippet(q, q, [original, replace])).toMatchObject({ passage: 0, text: 'Get decorated Source.' });
    // A short passage that holds no question word ("Example:") still gives way to the next.
    expect(pickSnippet(q, q, [{ text: 'Example:', heading: 'webpack-sources Usage' }, replace])?.passage).toBe(1);
  });

  it('weighs the words the user typed above words the condenser added', () => {
    const passage = 'The refund window is 30 days for most products. Orders ship from Berlin. Damaged items are replaced at no cost within a year.';
    const s = pickSnippet('what about damaged items?', 'what is the refund window for damaged items?', [passage]);
    expect(s?.text).toBe('Damaged items are replaced at no cost within a year.');
  });

  it('takes along a neighbouring sentence that holds a question word too, and gives nothing when no sentence holds one', () => {
    const s = pickSnippet('how long does shipping take', 'how long does shipping take', ['Shipping takes three days. Express shipping takes one day. Prices vary.']);
    expect(s?.text).toBe('Shipping takes three days. Express shipping takes one day.');
    expect(pickSnippet('what about warranties?', 'what about warranties?', ['Shipping takes three days.'])).toBeNull();
  });

  it('leads the extractive answer with the snippet and its citation; passages mark the snippet sentences', () => {
    const hit = (text: string, key: number) => ({ key, chunkKey: key, docId: `d${key}`, text, context: text, headingPath: [], start: 0, end: text.length, score: 1 });
    const { text, passages, snippet } = extractiveAnswer('how do I install Harbor?', 'how do I install Harbor?', [hit('Pricing is per month.', 1), hit(install, 2)]);
    expect(text.startsWith(`${snippet?.text ?? '?'} [2]`)).toBe(true);
    expect(passages[1]?.sentences.filter((s) => s.highlight).map((s) => s.text).join(' ')).toBe(snippet?.text);
  });
});
