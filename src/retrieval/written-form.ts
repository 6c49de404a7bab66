/**
 * How the documents write a word inside their sentences, when that is not
 * lower case: "Netflix", "US", "Pro", "2FA". A visitor typing on a phone
 * writes "netflix", "us", "pro"; the condenser reads names by their capitals
 * (who "he" can be, which remnant replaces which name, what is specific), and
 * gets them back from the index being searched, not from a word list.
 */
import { escapeRegExp } from '../util/escape-regexp';

/** Chunks read per word, and occurrences counted at most: enough to tell a name from a word, bounded per turn. */
export const FORM_SAMPLE_CHUNKS = 24;
const MAX_OCCURRENCES = 48;

/**
 * The form `word` takes in `texts` where it does not begin a sentence or a
 * heading, when one form other than lower case holds at least three quarters
 * of those occurrences (one is enough: inside a sentence, English capitalizes
 * names only); undefined otherwise (a word the documents write in lower case
 * as often, or one seen only sentence-initially, proves nothing).
 */
export function writtenForm(word: string, texts: Iterable<string>): string | undefined {
  if (word === '' || word.length > 64) return undefined;
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(word)}(?![\\p{L}\\p{N}])`, 'giu');
  const forms = new Map<string, number>();
  let seen = 0;
  for (const text of texts) {
    for (const match of text.matchAll(pattern)) {
      if (startsUnit(text, match.index)) continue;
      forms.set(match[0], (forms.get(match[0]) ?? 0) + 1);
      if (++seen >= MAX_OCCURRENCES) break;
    }
    if (seen >= MAX_OCCURRENCES) break;
  }
  let best = '';
  let count = 0;
  for (const [form, n] of forms) if (n > count) [best, count] = [form, n];
  return count * 4 >= seen * 3 && best !== best.toLowerCase() ? best : undefined;
}

/**
 * True where a word at `at` begins a sentence, a heading or a list item:
 * only opening quotes or brackets between it and the text's start, a
 * sentence's end, a line break, a heading separator or a bullet.
 */
function startsUnit(text: string, at: number): boolean {
  for (let i = at - 1; i >= 0; i--) {
    const c = text.charAt(i);
    if (/[\s"'“‘([{*_#>]/u.test(c)) {
      if (c === '\n') return true;
      continue;
    }
    return /[.!?:;›»|•·–—-]/u.test(c);
  }
  return true;
}
