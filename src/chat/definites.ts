/**
 * Definite descriptions and short names read as the fuller phrase the
 * conversation used before: "the College" as "the Electoral College", "this
 * theory" as "the Catecholamine Theory", "Bench" as "Johnny Bench". Used by
 * the resolver (expand.ts) before anything else reads a question.
 */
import { determinesNext } from './rules/gate';
import { tokenize } from './rules/tokenize';
import { isNoun } from './rules/words';
import { shortNames } from './rules/short-name';
import { SPECIFIC, type Specificity } from './specificity';
import { candidatePhrases, stemsOf, type HistoryTurn } from './rules/topics';

/**
 * Definite descriptions the user's earlier turns named more fully: "How would
 * the College be abolished?" after "… the Electoral College …" means the
 * Electoral College. A bare "the <noun>" (no modifier, no "of …" after it)
 * presents its referent as known; when an earlier user turn holds a phrase
 * with that head noun and a specific modifier, that phrase is what it refers
 * to. The most recent such turn wins; only where the user's turns have none
 * is the last answer read, for a name ("the Coast" → "the Amalfi Coast").
 */
export function resolveDefinites(ask: string, history: readonly HistoryTurn[], specificity: Specificity, demonstrative?: string): { question: string; antecedents: string[]; evidence: string[] } {
  const tokens = tokenize(ask);
  let question = ask;
  let shift = 0;
  const antecedents: string[] = [];
  const evidence: string[] = [];
  for (let i = 0; i + 1 < tokens.length; i++) {
    const determiner = tokens[i] as { word: string; index: number };
    const noun = tokens[i + 1] as { word: string; index: number };
    const after = tokens[i + 2]?.word;
    // A noun after it makes a compound ("the Stanford experiment"); a participle does not ("was the Squad established").
    const compound = after !== undefined && isNoun(after) && !/^.{2,}[^e]ed$/.test(after);
    if ((determiner.word !== 'the' && determiner.word !== demonstrative) || !isNoun(noun.word) || compound || after === 'of') continue;
    // A demonstrative only where it determines its noun ("this theory"), not as a pronoun ("does this slow the cache down?").
    if (determiner.word !== 'the' && !determinesNext(ask, tokens, i)) continue;
    // Only the determiner and the noun, adjacent: "the Stanford experiment" already says which.
    if (ask.slice(determiner.index + determiner.word.length, noun.index).trim() !== '') continue;
    const head = stemsOf(noun.word)[0] ?? noun.word;
    const fuller = fullerPhrase(head, history, specificity);
    if (!fuller) continue;
    // "this theory" → "the Catecholamine Theory": once named, the phrase takes the definite article.
    const from = (determiner.word === 'the' ? noun.index : determiner.index) + shift;
    const to = noun.index + noun.word.length + shift;
    const replacement = determiner.word === 'the' ? fuller : `the ${fuller}`;
    question = question.slice(0, from) + replacement + question.slice(to);
    shift += replacement.length - (to - from);
    antecedents.push(fuller);
    evidence.push(`${determiner.word} ${noun.word}`);
  }
  // "Did Bench make it into Cooperstown?" → "Did Johnny Bench make it into Cooperstown?"
  let moved = 0;
  for (const name of shortNames(question, history)) {
    const at = name.index + moved;
    question = question.slice(0, at) + name.full + question.slice(at + name.short.length);
    moved += name.full.length - name.short.length;
    antecedents.push(name.full);
    evidence.push(name.short);
  }
  return { question, antecedents, evidence };
}

/**
 * The most recent user phrase ending in `head` whose other words are specific
 * together; failing that, the first such phrase of the last answer ("the
 * Coast" after an answer about the Amalfi Coast: what was just said is known).
 */
function fullerPhrase(head: string, history: readonly HistoryTurn[], specificity: Specificity): string | undefined {
  // An answer's words are not scored (only the user's are looked up in the index): there, a name ("Amalfi") is what is specific.
  const fuller = (text: string, named: boolean) => phrasesByHead(text).get(head)?.find((phrase) => {
    const modifiers = phrase.split(/\s+/).slice(0, -1);
    return named ? modifiers.every((w) => /^\p{Lu}\p{Ll}/u.test(w)) : modifiers.reduce((sum, w) => sum + specificity(w.toLowerCase()), 0) >= SPECIFIC;
  });
  for (let t = history.length - 1; t >= 0; t--) {
    const found = fuller((history[t] as HistoryTurn).user, false);
    if (found) return found;
  }
  return fuller(history.at(-1)?.assistant ?? '', true);
}

/** The phrases of more than one word of a text, by the stem of their last word (each text indexed once: a question may hold many definite nouns). */
const byHead = new WeakMap<readonly string[], Map<string, string[]>>();
function phrasesByHead(text: string): Map<string, string[]> {
  const phrases = candidatePhrases(text);
  let index = byHead.get(phrases);
  if (!index) {
    index = new Map();
    for (const phrase of phrases) {
      const words = phrase.split(/\s+/);
      const head = words.length >= 2 ? stemsOf(words.at(-1) ?? '')[0] : undefined;
      if (head === undefined) continue;
      const same = index.get(head);
      if (same) same.push(phrase);
      else index.set(head, [phrase]);
    }
    // Keyed by the remembered phrase list, so it lives as long as topics.ts remembers that text.
    byHead.set(phrases, index);
  }
  return index;
}

/** What the trace says of them. */
export function readDefinites(definite: { antecedents: string[]; evidence: string[] }): string {
  // "the college" as "the Electoral College"; a name said short ("Bench", no article) as the name in full.
  return `read ${definite.evidence.map((e, i) => `“${e}” as “${/\s/.test(e) ? 'the ' : ''}${definite.antecedents[i] ?? ''}”`).join(', ')}`;
}
