/**
 * Names as prose writes them: runs of capitalized words ("Johnny Lee Bench", "Cincinnati Reds"). A word that
 * opens a sentence capitalized and is no content word ("The", "When", "Did") is no part of one.
 */
import { isContentWord } from './words';

/** A word written as a name: capitalized, then lowercase ("Bench", "O'Neil"), not an acronym ("MVP"). */
const NAME_WORD = /^\p{Lu}\p{Ll}+(?:['’-]\p{Lu}?\p{Ll}+)*$/u;

export interface NameRun {
  /** The run's words, as written. */
  words: string[];
  /** Where the run starts in the text. */
  index: number;
  /** Whether its first word opens a sentence (where any word is capitalized). */
  opensSentence: boolean;
}

/** The runs of name words in `text`, in order; words in a run are separated by spaces only. */
export function nameRuns(text: string): NameRun[] {
  const runs: NameRun[] = [];
  let current: NameRun | undefined;
  let end = 0;
  let first = true;
  for (const m of text.matchAll(/\p{L}[\p{L}'’-]*/gu)) {
    const between = text.slice(end, m.index);
    // A sentence opens after . ! ? : ; a quotation mark or a bracket, or at the very beginning.
    const opensSentence = first || /[.!?:;"“”()[\]]/.test(between);
    first = false;
    end = m.index + m[0].length;
    const name = NAME_WORD.test(m[0]) && !(opensSentence && !isContentWord(m[0].toLowerCase()));
    if (!name) { current = undefined; continue; }
    if (current && /^[^\S\n]+$/.test(between)) { current.words.push(m[0]); continue; }
    current = { words: [m[0]], index: m.index, opensSentence };
    runs.push(current);
  }
  return runs;
}
