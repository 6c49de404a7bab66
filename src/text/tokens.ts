/**
 * Turns text into BM25 terms: Unicode-aware word split, accents folded,
 * lowercase, English stopwords dropped, a light stemmer (Porter's step 1:
 * plurals, -ed, -ing) so "refunds"/"refunded"/"refund" meet. Scripts written
 * without spaces (CJK, Thai, Lao, Khmer, Myanmar) go through Intl.Segmenter.
 */
import { PLAIN_TEXT } from './plain-text';
import { STOPWORDS } from './stopwords';

const NO_SPACE_SCRIPTS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const WORD = /[\p{L}\p{N}]+/gu;
const MAX_TERM_LENGTH = 64;

let segmenter: Intl.Segmenter | null | undefined;
function wordSegmenter(): Intl.Segmenter | null {
  if (segmenter === undefined) segmenter = typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity: 'word' }) : null;
  return segmenter;
}

/** The words of plain text (plain-text.ts: it needs no decomposition) are ASCII letters and digits. */
const PLAIN_WORD = /[a-z0-9]+/g;

/** The words of `text`, lower-cased, accents and compatibility forms folded (NFKD, marks dropped). */
function foldedWords(text: string): string[] {
  // Plain text needs no decomposition (a punctuation mark NFKD would expand, "…" → "...", splits words all the same),
  // and its `\p{L}` and `\p{N}` are ASCII letters and digits: one test, then a plain pattern, several times faster.
  if (PLAIN_TEXT.test(text)) return text.toLowerCase().match(PLAIN_WORD) ?? [];
  const folded = text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
  if (!NO_SPACE_SCRIPTS.test(folded)) return folded.match(WORD) ?? [];
  const seg = wordSegmenter();
  if (!seg) return folded.match(WORD) ?? [];
  const words: string[] = [];
  for (const s of seg.segment(folded)) if (s.isWordLike) words.push(...(s.segment.match(WORD) ?? []));
  return words;
}

/** A folded word that is a term: not a stopword, not absurdly long. */
const isTermWord = (w: string) => w.length <= MAX_TERM_LENGTH && !STOPWORDS.has(w);

/** Content words of `text`, folded but not stemmed (for display and topic tracking). */
export function contentWords(text: string): string[] {
  return foldedWords(text).filter(isTermWord);
}

const stems = new Map<string, string>();
const MAX_MEMO = 200_000;

/** BM25 terms of `text`. Stems are memoized: a corpus reuses a bounded vocabulary. */
export function lexicalTerms(text: string): string[] {
  // One pass (every chunk goes through here on ingest): contentWords' filter, then the memoized stem.
  const out: string[] = [];
  for (const w of foldedWords(text)) {
    if (!isTermWord(w)) continue;
    let s = stems.get(w);
    if (s === undefined) {
      s = stem(w);
      if (stems.size < MAX_MEMO) stems.set(w, s);
    }
    out.push(s);
  }
  return out;
}

const VOWEL = /[aeiouy]/;
function hasVowel(s: string): boolean {
  return VOWEL.test(s);
}

/** Porter step 1a–1c, enough to merge inflections without the over-stemming of later steps. */
export function stem(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  let w = word;
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ies')) w = w.slice(0, -2);
  else if (w.endsWith('ss')) { /* keep */ }
  else if (w.endsWith('s') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
  if (w.endsWith('eed')) {
    if (w.length > 4) w = w.slice(0, -1);
  } else {
    for (const suffix of ['ed', 'ing']) {
      if (w.endsWith(suffix) && hasVowel(w.slice(0, -suffix.length)) && w.length - suffix.length >= 3) {
        w = w.slice(0, -suffix.length);
        if (/(at|bl|iz)$/.test(w)) w += 'e';
        else if (/([^aeiouslz])\1$/.test(w)) w = w.slice(0, -1);
        break;
      }
    }
  }
  if (w.endsWith('y') && w.length > 3 && hasVowel(w.slice(0, -1))) w = `${w.slice(0, -1)}i`;
  return w;
}
