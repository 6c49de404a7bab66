import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAMPLE_KB } from '../../demo/sample-kb';
import { embeddedFiles } from '../../src/embedding/embedded-files';
import { readSafetensorsFile, writeSafetensors } from '../../src/embedding/safetensors';
import { readVocabTable, vocabTensors } from '../../src/embedding/vocab-table';
import { generalTokenIds, wordLevelTokenIds } from '../../src/embedding/word-level-tokenizer';

const MODEL = resolve(import.meta.dirname, '../../.models/threadline-glove-30k');
const tokenizerJson = JSON.parse(readFileSync(resolve(MODEL, 'tokenizer.json'), 'utf8')) as Record<string, unknown>;
const tokenizerConfig = JSON.parse(readFileSync(resolve(MODEL, 'tokenizer_config.json'), 'utf8')) as Record<string, unknown>;

/** Deterministic text from a palette chosen to hit every branch of BERT normalization and pre-tokenization. */
function hostileTexts(count: number, seed = 7, only?: RegExp): string[] {
  const palette = [
    'refund', 'Refund', 'REFUND', 'window', 'the', 'damaged', 'Lumen', '30', 'days', '2FA', 'e-mail', "don't", 'U.S.A.',
    ' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u2028', '\u3000', '\u200b', '\ufeff', '\u0000', '\u0007', '\u007f', '\u000b', '\u000c', '\u001c', '\u001f', '\u00ad', '\ufffd',
    'é', 'e\u0301', 'Ångström', 'naïve', 'Straße', 'İstanbul', 'ΣΊΣΥΦΟΣ', 'Привет', 'ﬁ', 'Ⅻ', '①',
    '一', '中文字', '𠀀', '丽', '\u3400', '\u4dbf', '\uf900', '\ufaff', '\u33ff', '\ufb00', 'カタカナ', '한국어', '😀', '👍🏽', '\ud800', '\udc00', '\ue000', '\u{10fffd}',
    '.', ',', '!?', '—', '…', '›', '‹', '“', '”', '‘', '’', '•', '‰', '′', '⁄', '⁒', '\u2010', '\u2027', '\u2030', '\u205e', '\u200f', '\u2028', '\u202a', '\u202f', '\u205f', '\u2060', '«', '»', '¿', '@', '#', '$', '%', '^', '&', '*', '(', ')', '[', ']', '{', '}', '<', '>', '/', '\\', '|', '~', '`', '"', "'",
    '[UNK]', '[PAD]', '[unk]', '[PAD][UNK]', 'x[UNK]y', '__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf',
  ].filter((p) => !only || only.test(p));
  let state = seed;
  const next = () => { state = (state * 1_103_515_245 + 12_345) % 2_147_483_648; return state / 2_147_483_648; };
  return Array.from({ length: count }, () => {
    const n = Math.floor(next() * 40);
    let text = '';
    for (let i = 0; i < n; i++) text += palette[Math.floor(next() * palette.length)] ?? '';
    return text;
  });
}

async function expectSameIds(json: object, config: object, texts: readonly string[]): Promise<void> {
  const fast = wordLevelTokenIds(json, config);
  const general = await generalTokenIds(json, config);
  expect(fast).not.toBeNull();
  expect(fast?.unkId).toBe(general.unkId);
  expect(fast?.vocabSize).toBe(general.vocabSize);
  const differ = texts.filter((t) => JSON.stringify(fast?.encode(t)) !== JSON.stringify(general.encode(t)));
  expect(differ.slice(0, 3).map((t) => [t, fast?.encode(t), general.encode(t)])).toEqual([]);
  // The count the chunker uses, taken without looking tokens up, is the number of ids.
  const miscounted = texts.filter((t) => fast?.count(t) !== general.encode(t).length);
  expect(miscounted.slice(0, 3).map((t) => [t, fast?.count(t), general.encode(t).length])).toEqual([]);
}

describe('word-level fast path: the same ids as @huggingface/tokenizers', () => {
  const corpus = readFileSync(resolve(import.meta.dirname, '../../docs/eval-sample/corpus.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { text: string }).text);
  // Plain ASCII (and General Punctuation) takes a shorter normalization and scan: generated strings of only such characters test them too.
  const texts = [...SAMPLE_KB.map((d) => d.markdown), ...corpus, ...hostileTexts(4000), ...hostileTexts(1000, 5, /^[\t\n\r\x20-\x7e]*$/), ...hostileTexts(1000, 3, /^[\t\n\r\x20-\x7e\u2010-\u2027\u2030-\u205e]*$/), '', '   ', '\u0000\u0000'];

  it('on the offline model: documents, evaluation passages and 4,000 generated hostile strings', async () => {
    await expectSameIds(tokenizerJson, tokenizerConfig, texts);
    expect(wordLevelTokenIds(tokenizerJson, tokenizerConfig)?.encode('Refund window [UNK] zzzqqq')).toEqual([expect.any(Number), expect.any(Number), 1, 1]);
  });

  it('under every normalizer setting, stripped added tokens, no unknown token, and no normalizer', async () => {
    const added = [{ id: 30_002, content: '<sep>', lstrip: true, rstrip: true, normalized: false, special: true }];
    const variants: { normalizer: unknown; added_tokens?: unknown[] }[] = [
      { normalizer: { type: 'BertNormalizer', clean_text: false, handle_chinese_chars: false, lowercase: false, strip_accents: null } },
      { normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, lowercase: true, strip_accents: false } },
      { normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: false, lowercase: false, strip_accents: true } },
      { normalizer: null, added_tokens: [...(tokenizerJson.added_tokens as unknown[]), ...added] },
    ];
    const withSep = [...hostileTexts(1500, 11), ...hostileTexts(300, 3, /^[\t\n\r\x20-\x7e]*$/)].map((t, i) => (i % 3 === 0 ? `${t} <sep> ${t}<sep>` : t));
    for (const variant of variants) {
      const json = { ...tokenizerJson, ...variant };
      await expectSameIds(json, tokenizerConfig, withSep);
      await expectSameIds(json, { ...tokenizerConfig, unk_token: undefined }, withSep.slice(0, 300));
    }
  });

  it('declines configurations it does not repeat exactly (they take the general tokenizer)', () => {
    const model = tokenizerJson.model as Record<string, unknown>;
    expect(wordLevelTokenIds({ ...tokenizerJson, model: { ...model, type: 'WordPiece' } })).toBeNull();
    expect(wordLevelTokenIds({ ...tokenizerJson, pre_tokenizer: { type: 'Whitespace' } })).toBeNull();
    expect(wordLevelTokenIds({ ...tokenizerJson, normalizer: { type: 'Lowercase' } })).toBeNull();
    expect(wordLevelTokenIds({ ...tokenizerJson, post_processor: { type: 'BertProcessing' } })).toBeNull();
    expect(wordLevelTokenIds({ ...tokenizerJson, added_tokens: [{ id: 5, content: 'x', normalized: true }] })).toBeNull();
    expect(wordLevelTokenIds({ ...tokenizerJson, model: { ...model, vocab: { a: 0, b: 'one' } } })).toBeNull();
    expect(wordLevelTokenIds(tokenizerJson, { remove_space: true })).toBeNull();
    expect(wordLevelTokenIds('not json')).toBeNull();
  });

  it('the vocabulary read from model.safetensors (vocab-table.ts) gives the ids tokenizer.json gives: every word, documents and hostile text', () => {
    const { tensors, metadata } = readSafetensorsFile(readFileSync(resolve(MODEL, 'model.safetensors')).buffer);
    const table = readVocabTable(tensors);
    const embedded = embeddedFiles(metadata);
    expect(table?.size).toBe(30_002);
    expect((embedded?.tokenizer as { model: { vocab?: unknown } }).model.vocab).toBeUndefined(); // the words are only in the tensors
    const fromTable = wordLevelTokenIds(embedded?.tokenizer, embedded?.tokenizerConfig, table ?? undefined);
    const fromJson = wordLevelTokenIds(tokenizerJson, tokenizerConfig);
    expect(fromTable?.unkId).toBe(fromJson?.unkId);
    expect(fromTable?.vocabSize).toBe(fromJson?.vocabSize);
    const vocab = (tokenizerJson.model as { vocab: Record<string, number> }).vocab;
    const misread = Object.entries(vocab).filter(([word, id]) => table?.lookup(word) !== id);
    expect(misread.slice(0, 3)).toEqual([]);
    for (const absent of ['zzzqqq', '', 'Refund', 'refunds!', '__proto__', 'constructor', 'x'.repeat(300), '\u0100', 'é']) {
      expect(table?.lookup(absent), absent).toBe(Object.hasOwn(vocab, absent) ? vocab[absent] : undefined);
    }
    const differ = texts.filter((t) => JSON.stringify(fromTable?.encode(t)) !== JSON.stringify(fromJson?.encode(t)));
    expect(differ.slice(0, 3)).toEqual([]);
  });

  it('a hostile vocabulary table makes lookups miss, never read out of bounds or loop; a malformed one is refused naming the problem', () => {
    const words = ['[PAD]', '[UNK]', 'refund', 'window', 'damaged'];
    const good = vocabTensors(words);
    const read = (over: Partial<typeof good>) => {
      const all = { ...good, ...over } as typeof good;
      return readVocabTable(readSafetensorsFile(writeSafetensors(all).slice().buffer).tensors);
    };
    expect(read({})?.lookup('window')).toBe(3);
    // Every slot points at one word: only that word is found, every other lookup misses after one pass.
    const full = new Uint16Array(good['vocab.slots']?.shape[0] ?? 0).fill(3);
    expect(read({ 'vocab.slots': { dtype: 'U16', shape: [full.length], bytes: new Uint8Array(full.buffer) } })?.lookup('window')).toBe(undefined);
    expect(read({ 'vocab.slots': { dtype: 'U16', shape: [full.length], bytes: new Uint8Array(full.buffer) } })?.lookup('refund')).toBe(2);
    // Ids past the vocabulary read as misses.
    const wild = new Uint16Array(full.length).fill(65_535);
    expect(read({ 'vocab.slots': { dtype: 'U16', shape: [wild.length], bytes: new Uint8Array(wild.buffer) } })?.lookup('refund')).toBe(undefined);
    expect(() => read({ 'vocab.slots': { dtype: 'U16', shape: [3], bytes: new Uint8Array(6) } })).toThrow(/power of two/);
    expect(() => read({ 'vocab.lengths': { dtype: 'U8', shape: [5], bytes: Uint8Array.of(5, 5, 6, 6, 200) } })).toThrow(/add up to/);
    const f32 = writeSafetensors({ ...good, 'vocab.slots': { dtype: 'F32', shape: [2], bytes: new Uint8Array(8) } });
    expect(() => readVocabTable(readSafetensorsFile(f32.slice().buffer).tensors)).toThrow(/U16 or I32/);
    const partial = Object.fromEntries(Object.entries(good).filter(([name]) => name !== 'vocab.bytes'));
    expect(() => readVocabTable(readSafetensorsFile(writeSafetensors(partial).slice().buffer).tensors)).toThrow(/all three/);
    expect(() => vocabTensors(['a', 'a'])).toThrow(/two ids/);
    expect(() => vocabTensors(['\u0100'])).toThrow(/above U\+00FF/);
  });
});
