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

/** The same character classes as the general tokenizer's BERT pre-tokenizer. */
const PUNCTUATION = '\\p{P}\\u0021-\\u002F\\u003A-\\u0040\\u005B-\\u0060\\u007B-\\u007E';
const PRE_TOKEN = new RegExp(`[^\\s${PUNCTUATION}]+|[${PUNCTUATION}]`, 'gu');
// The general tokenizer's test, kept as written (its alternation binds looser than the anchors).
const CONTROL = /^\p{Cc}|\p{Cf}|\p{Co}|\p{Cs}$/u;
const SPACE = /^\s$/;
const MARK = /\p{Mn}/gu;

interface BertNormalizerConfig { type: 'BertNormalizer'; clean_text?: boolean; handle_chinese_chars?: boolean; lowercase?: boolean; strip_accents?: boolean | null }
interface AddedTokenJson { id: number; content: string; lstrip?: boolean; rstrip?: boolean; normalized?: boolean; special?: boolean }

const isChinese = (cp: number) => (cp >= 19968 && cp <= 40959) || (cp >= 13312 && cp <= 19903) || (cp >= 131072 && cp <= 173791)
  || (cp >= 173824 && cp <= 177983) || (cp >= 177984 && cp <= 178207) || (cp >= 178208 && cp <= 183983) || (cp >= 63744 && cp <= 64255) || (cp >= 194560 && cp <= 195103);

/** Printable ASCII, tabs and line breaks: text that cleaning, Chinese-character spacing and accent stripping leave as it is, but for whitespace. */
const PLAIN_ASCII = /^[\t\n\r\x20-\x7e]*$/;

function normalizer(config: BertNormalizerConfig | null): (text: string) => string {
  if (!config) return (text) => text;
  return (input) => {
    // Most documents are plain ASCII: the steps below then only turn tabs and line breaks into spaces and lower-case
    // (the same result, without a regular expression test per character).
    if (PLAIN_ASCII.test(input)) {
      const cleaned = config.clean_text ? input.replace(/[\t\n\r]/g, ' ') : input;
      return config.lowercase ? cleaned.toLowerCase() : cleaned;
    }
    let text = input;
    if (config.clean_text) {
      let out = '';
      for (const char of text) {
        const cp = char.charCodeAt(0);
        if (cp === 0 || cp === 65533 || (char !== '\t' && char !== '\n' && char !== '\r' && CONTROL.test(char))) continue;
        out += SPACE.test(char) ? ' ' : char;
      }
      text = out;
    }
    if (config.handle_chinese_chars) {
      let out = '';
      for (let i = 0; i < text.length; i++) {
        const unit = text[i] ?? '';
        out += isChinese(unit.charCodeAt(0)) ? ` ${unit} ` : unit;
      }
      text = out;
    }
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

/** The fast path, or null when tokenizer.json (or its config) is not the configuration it repeats exactly. */
export function wordLevelTokenIds(json: unknown, config: unknown = {}): TokenIds | null {
  if (!json || typeof json !== 'object') return null;
  const t = json as { model?: { type?: unknown; vocab?: unknown }; normalizer?: unknown; pre_tokenizer?: unknown; post_processor?: unknown; added_tokens?: unknown };
  const c = (config ?? {}) as { unk_token?: unknown; remove_space?: unknown; do_lowercase_and_remove_accent?: unknown; target_lang?: unknown };
  const vocab = t.model?.vocab;
  if (t.model?.type !== 'WordLevel' || !vocab || typeof vocab !== 'object' || Array.isArray(vocab)) return null;
  if (t.post_processor != null || (t.pre_tokenizer as { type?: unknown } | null)?.type !== 'BertPreTokenizer') return null;
  if (t.normalizer != null && (t.normalizer as { type?: unknown }).type !== 'BertNormalizer') return null;
  if (c.remove_space === true || c.do_lowercase_and_remove_accent || c.target_lang) return null;
  const added = Array.isArray(t.added_tokens) ? (t.added_tokens as AddedTokenJson[]) : [];
  // Added tokens matched after normalization, or oddly formed, take the general path.
  if (added.some((a) => typeof a.content !== 'string' || !a.content || !Number.isInteger(a.id) || (a.normalized ?? !a.special))) return null;
  const ids = vocab as Record<string, unknown>;
  let max = -1;
  for (const key in ids) {
    const id = ids[key];
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0) return null;
    if (id > max) max = id;
  }
  const addedTokens = new Map<string, AddedTokenJson>();
  for (const a of added) {
    addedTokens.set(a.content, a);
    if (a.id > max) max = a.id;
  }
  const contents = [...addedTokens.keys()];
  const unkId = typeof c.unk_token === 'string' && Object.hasOwn(ids, c.unk_token) ? (ids[c.unk_token] as number) : undefined;
  const normalize = normalizer((t.normalizer ?? null) as BertNormalizerConfig | null);
  const idOf = (token: string): number | undefined => addedTokens.get(token)?.id ?? (Object.hasOwn(ids, token) ? (ids[token] as number) : unkId);
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
      for (const token of normalized.trim().match(PRE_TOKEN) ?? []) out.push(idOf(token));
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
      return addedTokens.has(normalized) ? 1 : (normalized.trim().match(PRE_TOKEN) ?? []).length;
    },
  };
}

/** The fast path where it applies, else the general tokenizer. */
export async function tokenIds(json: object, config: object): Promise<TokenIds> {
  return wordLevelTokenIds(json, config) ?? generalTokenIds(json, config);
}
