/**
 * Whether a message reads as English, for the rules that take topics from earlier turns: they are English
 * grammar, and a turn in another language read by them gives nonsense phrases ("Does it ship to Germany?" after
 * "Wie lange habe ich Zeit, etwas zurückzugeben?" was searched as "Does Und wie lange dauert ship to Germany?").
 * English prose is dense with grammatical words (of, the, is, how, it …) and everyday ones: a turn of five or
 * more words of which at most three in ten are either is taken for another language. Words are the
 * whitespace-separated runs of letters (code, numbers and URLs are no words of any language); everyday words
 * of one or two letters are left out, since other languages' articles and prepositions are among them in the
 * frequency list ("de", "la", "un", "al"). A shorter turn is judged with the rest of the conversation; alone
 * ("Tesla Model 3 price") it counts as English: too few words to tell. Measured on the evaluation sets'
 * 1,963 English texts of five or more words: 7 taken for another language, all answers made mostly of
 * code or product names.
 */
import { COMMON_WORDS } from './common-words';
import { ANAPHORIC_PRONOUNS, AUXILIARIES, DETERMINERS, FUNCTION_WORDS, WH_WORDS } from './word-lists';

const MIN_WORDS = 5;
const MIN_ENGLISH_SHARE = 0.3;
const ENGLISH = new Set([
  ...COMMON_WORDS.filter((w) => w.length > 2),
  ...FUNCTION_WORDS, ...AUXILIARIES, ...DETERMINERS, ...WH_WORDS, ...ANAPHORIC_PRONOUNS,
  'i', 'you', 'we', 'me', 'us', 'my', 'your', 'and', 'or', 'not', 'no', 'there', 'here', 'to', 'as', 'than', 'then', 'also', 'very', 'more', 'most', 'some', 'any', 'all',
]);

/**
 * `context`: the conversation's other texts of the same speaker, which decide for a turn too short to tell
 * ("Und bei beschädigten Artikeln?" in a German conversation).
 */
export function readsAsEnglish(text: string, context: readonly string[] = []): boolean {
  const own = counted(text);
  return own.words >= MIN_WORDS ? english(own) : english(plus(own, context.map(counted).reduce(plus, NONE)));
}

/**
 * `readsAsEnglish(text, texts)` for each of `texts` (one speaker's turns of a conversation), each text's words
 * counted once: the topic rankers ask this of every turn at every question, and asking it turn by turn read the
 * whole conversation again for each short turn.
 */
export function englishTexts(texts: readonly string[]): boolean[] {
  const counts = texts.map(counted);
  const all = counts.reduce(plus, NONE);
  return counts.map((own) => (own.words >= MIN_WORDS ? english(own) : english(plus(own, all))));
}

/** A text's words, and how many of them are English grammatical or everyday words. */
interface Counts { words: number; english: number }
const NONE: Counts = { words: 0, english: 0 };
const plus = (a: Counts, b: Counts): Counts => ({ words: a.words + b.words, english: a.english + b.english });

function counted(text: string): Counts {
  const words = wordsOf(text);
  let english = 0;
  for (const word of words) if (ENGLISH.has(word)) english++;
  return { words: words.length, english };
}

function english(counts: Counts): boolean {
  return counts.words < MIN_WORDS || counts.english / counts.words > MIN_ENGLISH_SHARE;
}

const WORD = /^\p{L}+(?:['’-]\p{L}+)*$/u;
const EDGES = /^[^\p{L}]+|[^\p{L}]+$/gu;

function wordsOf(text: string): string[] {
  const words: string[] = [];
  for (const token of text.split(/\s+/)) {
    const word = token.replace(EDGES, '');
    if (WORD.test(word)) words.push(word.toLowerCase());
  }
  return words;
}
