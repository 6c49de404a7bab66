/**
 * Names written in camelCase or PascalCase ("throwOnTimeout", "WebSocketServer", "CrossFit"), read as the
 * words they are made of where the vocabulary lacks the whole. A word-level model (the offline model: 30,000
 * lower-case words) has no vector for such a name, and its mean drops it, though in API documentation the
 * name is often the question's most telling word and the section's too. Its parts are words it knows.
 * snake_case needs nothing here: BERT pre-tokenization already splits at the underscore.
 *
 * Measured with `npm run eval` (docs/quality-log.md, session 47): dense retrieval alone, mean over the 13 dev
 * README sets, 0.397 → 0.422 (first and standalone turns) and 0.352 → 0.394 (follow-ups); hybrid on the held-out
 * README sets 0.697 → 0.717 and 0.624 → 0.634; CAsT 2021 follow-ups 0.559 → 0.556 (one turn). Split on the query
 * side only, much less (the same dense follow-ups 0.352 → 0.363): passages and questions must be read the same
 * way, so the offline model's vectors, and its manifest identity, changed with it (offline-model.ts).
 */

/** A lower-case letter or digit before a capital ("throwOn"), or a run of capitals before a capitalized word ("HTMLParser"). */
const CASE_CHANGE = /[a-z0-9][A-Z]|[A-Z]{2}[a-z]/;
const WORD = /[A-Za-z0-9]+/g;

/** `text` with each name whose case changes inside it, and that `known` does not know whole, written as its parts. */
export function splitCompounds(text: string, known: (word: string) => boolean): string {
  if (!CASE_CHANGE.test(text)) return text;
  return text.replace(WORD, (word) => (CASE_CHANGE.test(word) && !known(word) ? compoundParts(word) : word));
}

/** "throwOnTimeout" → "throw On Timeout", "HTMLParser" → "HTML Parser", "base64Encode" → "base64 Encode". */
export function compoundParts(word: string): string {
  return word.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
}
