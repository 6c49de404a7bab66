import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAMPLE_KB } from '../../demo/sample-kb';
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
});
