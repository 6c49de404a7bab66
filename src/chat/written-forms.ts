/**
 * What a visitor left out when typing, put back before the condenser reads
 * a message. Many people type in lower case and without apostrophes (on a
 * phone above all), and the condenser reads names by their capitals ("does
 * plus keep version history?" after "is the Pro plan worth it?" is a remnant
 * that replaces a name only if "plus" is one) and questions by their words
 * ("whats that?" points back as "what's that?" does). A message with no
 * capital letter at all gets, word by word, the form the documents write that
 * word in inside their sentences (TermStats' `form`), and "i" becomes "I"; a
 * message with any capital is read as typed (its writer capitalizes, so a
 * lower-case "turkey" there is meant that way). Contractions that can be
 * nothing else get their apostrophe ("dont", "whats", "ive"; not "its",
 * "ill", "were", "well", which are words too).
 */
import type { TermStats } from '../retriever';

/** The form the documents write a (lower-case) word in, when that is not lower case. */
export type WrittenForm = (word: string) => string | undefined;

export const NO_FORMS: WrittenForm = () => undefined;

export function writtenFormsFrom(stats: TermStats): WrittenForm {
  const forms = new Map<string, string>();
  for (const { word, form } of stats.terms) {
    // Only a change of case: a form that spells the word differently (or a tampered reply) is ignored.
    if (typeof form === 'string' && form.toLowerCase() === word.toLowerCase()) forms.set(word.toLowerCase(), form);
  }
  return (word) => forms.get(word);
}

/** `text` with the capitals its writer left out, where it has none at all; otherwise `text` itself. */
export function restoreCase(text: string, form: WrittenForm): string {
  if (/\p{Lu}/u.test(text)) return text;
  return text.replace(COMPOUND, (compound) => {
    const parts = compound.split(JOINER);
    if (parts.length === 1) return compound === 'i' ? 'I' : form(compound) ?? compound;
    // "es-module-lexer", "magic-string": a name written as code, in lower case, whatever its parts are elsewhere
    // ("Lexer" in a title). Its parts get their capitals only where every part has some ("js-yaml" → "JS-YAML").
    const forms = parts.map((part) => (JOINER.test(part) ? part : form(part)));
    return forms.every((f) => f !== undefined) ? forms.join('') : compound;
  });
}

/** A word, or words joined by hyphens, underscores or dots with nothing between ("es-module-lexer", "node.js"). */
const COMPOUND = /(?<![\p{L}\p{N}])[\p{L}\p{N}]+(?:[-_.][\p{L}\p{N}]+)*(?![\p{L}\p{N}])/gu;
const JOINER = /([-_.])/u;

/** `text` read as written: its capitals (restoreCase) and its contractions' apostrophes put back. */
export function asWritten(text: string, form: WrittenForm): string {
  return restoreApostrophes(restoreCase(text, form));
}

/** Contractions that are no other word without their apostrophe ("its", "ill", "were", "well", "lets", "id" are), by that spelling. */
const CONTRACTIONS: ReadonlyMap<string, string> = new Map(`what's that's there's here's where's who's how's when's why's she's he's
  you're they're I'm I've we've you've they've it'll you'll they'll
  don't doesn't didn't isn't aren't wasn't weren't can't won't wouldn't shouldn't couldn't hasn't haven't hadn't mustn't needn't`
  .split(/\s+/).map((form) => [form.replace("'", '').toLowerCase(), form]));

/**
 * What may follow "it's" but never the possessive "its", which a noun phrase follows ("its output", "its very own",
 * "its only child"): an article, a negation, a participle of "be", or an adverb that modifies no noun.
 */
const AFTER_ITS_ONLY = /^(?:a|an|the|not|been|being|just|also|still|already|always|never|too|so|there|here|because)$/i;

/**
 * `text` with the apostrophes of unambiguous contractions put back ("dont" → "don't", "ive" → "I've"), and "its"
 * read as "it's" where the word after it cannot begin the noun phrase a possessive takes ("its just a string").
 */
export function restoreApostrophes(text: string): string {
  return contractions(text).replace(/(?<![\p{L}\p{N}'’])(its|Its)(\s+)(\p{L}+)(?![\p{L}\p{N}'’-])/gu, (whole, its: string, space: string, next: string) => (AFTER_ITS_ONLY.test(next) ? `${its.charAt(0)}t's${space}${next}` : whole));
}

function contractions(text: string): string {
  return text.replace(/(?<![\p{L}\p{N}'’])\p{L}+(?![\p{L}\p{N}'’])/gu, (word) => {
    const form = CONTRACTIONS.get(word);
    if (form !== undefined) return form;
    // A capital first letter stays ("Dont" → "Don't"); other capitals ("CANT", "IM") may be something else.
    const capitalized = word.length > 1 && word === word.charAt(0).toUpperCase() + word.slice(1).toLowerCase() ? CONTRACTIONS.get(word.toLowerCase()) : undefined;
    return capitalized === undefined ? word : capitalized.charAt(0).toUpperCase() + capitalized.slice(1);
  });
}
