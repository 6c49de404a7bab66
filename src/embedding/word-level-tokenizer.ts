/**
 * Token ids for a static model, and a fast path for the offline model's kind
 * of tokenizer.json (WordLevel with BERT normalization and pre-tokenization).
 *
 * Building `@huggingface/tokenizers`' general Tokenizer from a 30k-word
 * vocabulary copies it into two Maps and an array, and reading its size copies
 * it again: about 20 ms on every page load, before the first question can be
 * embedded. The fast path reads the parsed vocabulary object as it is and
 * repeats the general tokenizer's steps for this one configuration, with its
 * character classes and its quirks (the same regular expressions, UTF-16 unit
 * loops where it loops over units, the unknown token taken from
 * tokenizer_config.json as its word-level model does), so the ids are the
 * same: `test/unit/word-level-tokenizer.test.ts` compares them on documents,
 * evaluation passages and generated hostile text. Any other configuration
 * uses the general tokenizer.
 */
import { GENERAL_PUNCTUATION_RANGES, PLAIN_TEXT } from '../text/plain-text';
import type { VocabLookup, VocabTable } from './vocab-table';

export interface TokenIds {
  /** Ids of `text`'s tokens, no special tokens added; an unknown word without an unknown token is `undefined`, as in the general tokenizer. */
  encode(text: string): (number | undefined)[];
  /** `encode(text).length`, without looking the tokens up (the chunker counts every sentence it reads). */
  count(text: string): number;
  readonly unkId: number | undefined;
  /** One more than the largest id, added tokens included. */
  readonly vocabSize: number;
}

/** The general tokenizer, for any tokenizer.json; imported only then, so the offline model's worker does not carry it. */
export async function generalTokenIds(json: object, config: object): Promise<TokenIds> {
  const { Tokenizer } = await import('@huggingface/tokenizers');
  const tokenizer = new Tokenizer(json, config);
  let max = -1;
  for (const id of tokenizer.get_vocab(true).values()) if (id > max) max = id;
  const encode = (text: string) => tokenizer.encode(text, { add_special_tokens: false }).ids;
  return {
    encode,
    count: (text) => encode(text).length,
    unkId: tokenizer.model?.unk_token_id,
    vocabSize: max + 1,
  };
}

/**
 * Text the scan below reads instead of the pre-tokenizer's Unicode regular expression (several times
 * faster, no match array): plain text (plain-text.ts). Control characters are scannable: part of a
 * word, as the general tokenizer reads them.
 */
const SCANNABLE = PLAIN_TEXT;
/** The first unit of GENERAL_PUNCTUATION_RANGES; PUNCTUATION_UNITS covers them up to U+205E. */
const GENERAL_PUNCTUATION = 0x2010;
/** Which of those General Punctuation units are `\p{P}` (the rest, such as U+2044 FRACTION SLASH, are symbols, part of a word), asked of the same property the regular expression uses. */
const PUNCTUATION_UNITS = Uint8Array.from({ length: 0x205f - GENERAL_PUNCTUATION }, (_, i) => (/\p{P}/u.test(String.fromCharCode(GENERAL_PUNCTUATION + i)) ? 1 : 0));

/**
 * The pre-tokens of SCANNABLE text, as `PRE_TOKEN` finds them: runs of characters that are neither
 * whitespace (`\s`: tab to carriage return, space) nor punctuation (the four ASCII ranges `PUNCTUATION`
 * names, which hold every ASCII `\p{P}`, and the `\p{P}` units above), and each punctuation character
 * alone. Calls `visit` with each pre-token's bounds; returns their number.
 */
function scan(text: string, visit?: (from: number, to: number) => void): number {
  let count = 0;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const space = c === 32 || (c >= 9 && c <= 13);
    const punctuation = c < 128
      ? (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126)
      : PUNCTUATION_UNITS[c - GENERAL_PUNCTUATION] === 1;
    if (!space && !punctuation) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0) { visit?.(start, i); count++; start = -1; }
    if (punctuation) { visit?.(i, i + 1); count++; }
  }
  if (start >= 0) { visit?.(start, text.length); count++; }
  return count;
}

/** The same character classes as the general tokenizer's BERT pre-tokenizer. */
const PUNCTUATION = '\\p{P}\\u0021-\\u002F\\u003A-\\u0040\\u005B-\\u0060\\u007B-\\u007E';
const PRE_TOKEN = new RegExp(`[^\\s${PUNCTUATION}]+|[${PUNCTUATION}]`, 'gu');
/**
 * What cleaning drops, code point by code point: NUL, U+FFFD, and control, format, private-use and
 * surrogate code points but tab and line breaks (the general tokenizer tests each one-code-point string
 * with `/^\p{Cc}|\p{Cf}|\p{Co}|\p{Cs}$/u`, which for one code point means any of the four). Whitespace
 * left after that becomes a space (its `/^\s$/`).
 */
const DROPPED = /[\0\uFFFD]|(?![\t\n\r])[\p{Cc}\p{Cf}\p{Co}\p{Cs}]/gu;
const WHITESPACE = /\s/gu;
/**
 * A UTF-16 unit in a CJK ideograph block, spaced out. The general tokenizer loops over units, so the
 * astral blocks it lists (U+20000 and up) never match a unit and are left out here too.
 */
const CHINESE_UNIT = /[\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF]/g;
const MARK = /\p{Mn}/gu;

interface BertNormalizerConfig { type: 'BertNormalizer'; clean_text?: boolean; handle_chinese_chars?: boolean; lowercase?: boolean; strip_accents?: boolean | null }
interface AddedTokenJson { id: number; content: string; lstrip?: boolean; rstrip?: boolean; normalized?: boolean; special?: boolean }

/** Printable ASCII, tabs, line breaks and the General Punctuation above: text that cleaning, Chinese-character spacing and accent stripping leave as it is, but for whitespace. */
const PLAIN = new RegExp(`^[\\t\\n\\r\\x20-\\x7e${GENERAL_PUNCTUATION_RANGES}]*$`);

function normalizer(config: BertNormalizerConfig | null): (text: string) => string {
  if (!config) return (text) => text;
  return (input) => {
    // Most documents are plain ASCII and punctuation: the steps below then only turn tabs and line breaks into spaces and lower-case
    // (the same result, without a regular expression test per character).
    if (PLAIN.test(input)) {
      const cleaned = config.clean_text ? input.replace(/[\t\n\r]/g, ' ') : input;
      return config.lowercase ? cleaned.toLowerCase() : cleaned;
    }
    let text = input;
    // The general tokenizer's loops, as regular expressions over the same units (a per-character loop with a
    // test per character cost more than the rest of embedding a chunk with a curly quote or an accent in it).
    if (config.clean_text) text = text.replace(DROPPED, '').replace(WHITESPACE, ' ');
    if (config.handle_chinese_chars) text = text.replace(CHINESE_UNIT, ' $& ');
    if (config.lowercase) {
      text = text.toLowerCase();
      if (config.strip_accents !== false) text = text.normalize('NFD').replace(MARK, '');
    } else if (config.strip_accents) {
      text = text.normalize('NFD').replace(MARK, '');
    }
    return text;
  };
}

/** Splits around added tokens, longest match first, as the general tokenizer's dictionary splitter does. */
function splitAdded(text: string, contents: readonly string[]): string[] {
  if (!contents.some((c) => text.includes(c))) return [text];
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length;) {
    let match = '';
    for (const c of contents) if (c.length > match.length && text.startsWith(c, i)) match = c;
    if (!match) { i++; continue; }
    if (i > start) out.push(text.slice(start, i));
    out.push(match);
    i += match.length;
    start = i;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

/**
 * The fast path, or null when tokenizer.json (or its config) is not the configuration it repeats exactly.
 * `table`: the vocabulary read from model.safetensors (vocab-table.ts), for a tokenizer.json written without
 * its `vocab`; with it, the ids are looked up there.
 */
export function wordLevelTokenIds(json: unknown, config: unknown = {}, table?: VocabTable): TokenIds | null {
  if (!json || typeof json !== 'object') return null;
  const t = json as { model?: { type?: unknown; vocab?: unknown }; normalizer?: unknown; pre_tokenizer?: unknown; post_processor?: unknown; added_tokens?: unknown };
  const c = (config ?? {}) as { unk_token?: unknown; remove_space?: unknown; do_lowercase_and_remove_accent?: unknown; target_lang?: unknown };
  const vocab = t.model?.vocab;
  if (t.model?.type !== 'WordLevel' || (!table && (!vocab || typeof vocab !== 'object' || Array.isArray(vocab)))) return null;
  if (t.post_processor != null || (t.pre_tokenizer as { type?: unknown } | null)?.type !== 'BertPreTokenizer') return null;
  if (t.normalizer != null && (t.normalizer as { type?: unknown }).type !== 'BertNormalizer') return null;
  if (c.remove_space === true || c.do_lowercase_and_remove_accent || c.target_lang) return null;
  const added = Array.isArray(t.added_tokens) ? (t.added_tokens as AddedTokenJson[]) : [];
  // Added tokens matched after normalization, or oddly formed, take the general path.
  if (added.some((a) => typeof a.content !== 'string' || !a.content || !Number.isInteger(a.id) || (a.normalized ?? !a.special))) return null;
  let max = -1;
  let find: VocabLookup;
  if (table) {
    max = table.size - 1;
    find = table.lookup;
  } else {
    const ids = vocab as Record<string, unknown>;
    for (const key in ids) {
      const id = ids[key];
      if (typeof id !== 'number' || !Number.isInteger(id) || id < 0) return null;
      if (id > max) max = id;
    }
    find = (token) => (Object.hasOwn(ids, token) ? (ids[token] as number) : undefined);
  }
  const addedTokens = new Map<string, AddedTokenJson>();
  for (const a of added) {
    addedTokens.set(a.content, a);
    if (a.id > max) max = a.id;
  }
  const contents = [...addedTokens.keys()];
  const unkId = typeof c.unk_token === 'string' ? find(c.unk_token) : undefined;
  const normalize = normalizer((t.normalizer ?? null) as BertNormalizerConfig | null);
  const idOf = (token: string): number | undefined => addedTokens.get(token)?.id ?? find(token) ?? unkId;
  const encode = (text: string): (number | undefined)[] => {
    const sections = splitAdded(text, contents);
    for (let i = 0; i < sections.length; i++) {
      const token = addedTokens.get(sections[i] ?? '');
      if (!token) continue;
      if (token.lstrip && i > 0) sections[i - 1] = (sections[i - 1] ?? '').trimEnd();
      if (token.rstrip && i < sections.length - 1) sections[i + 1] = (sections[i + 1] ?? '').trimStart();
    }
    const out: (number | undefined)[] = [];
    for (const section of sections) {
      if (!section) continue;
      const added = addedTokens.get(section);
      if (added) { out.push(added.id); continue; }
      const normalized = normalize(section);
      if (!normalized) continue;
      const normalizedAdded = addedTokens.get(normalized);
      if (normalizedAdded) { out.push(normalizedAdded.id); continue; }
      if (SCANNABLE.test(normalized)) scan(normalized, (from, to) => out.push(idOf(normalized.slice(from, to))));
      else for (const token of normalized.trim().match(PRE_TOKEN) ?? []) out.push(idOf(token));
    }
    return out;
  };
  return {
    unkId,
    vocabSize: max + 1,
    encode,
    count(text) {
      // With no added token in it, the text is one section of normalized text: one token per pre-token.
      if (splitAdded(text, contents).length !== 1 || addedTokens.has(text)) return encode(text).length;
      const normalized = normalize(text);
      if (!normalized) return 0;
      if (addedTokens.has(normalized)) return 1;
      return SCANNABLE.test(normalized) ? scan(normalized) : (normalized.trim().match(PRE_TOKEN) ?? []).length;
    },
  };
}

/** The fast path where it applies, else the general tokenizer. */
export async function tokenIds(json: object, config: object): Promise<TokenIds> {
  return wordLevelTokenIds(json, config) ?? generalTokenIds(json, config);
}
