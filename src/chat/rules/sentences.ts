/**
 * A turn's sentences. A full stop, question mark, exclamation mark or
 * ellipsis ends a sentence only where it closes a word and white space
 * follows: "what does a leading ! do?" is one question (the "!" stands alone,
 * as a symbol does), and so are "is v2.0 out?" and "why not colors.js?".
 */
export function sentencesOf(text: string): string[] {
  const trimmed = text.trim();
  const sentences: string[] = [];
  let start = 0;
  // One pass over the runs of terminal punctuation and the space after them (a look-behind over the run
  // would rescan it at every position inside it).
  for (const end of trimmed.matchAll(/[.!?…]+\s+/gu)) {
    if (end.index === 0 || /\s/.test(trimmed.charAt(end.index - 1))) continue;
    sentences.push(trimmed.slice(start, end.index + end[0].trimEnd().length));
    start = end.index + end[0].length;
  }
  sentences.push(trimmed.slice(start));
  return sentences.filter((s) => s.length > 0);
}
