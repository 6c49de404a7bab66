/**
 * Implicit arguments: a noun or verb whose other side the question leaves
 * unsaid, so the conversation supplies it (gate reason `missing-argument`).
 * Relations ("the impact on biology"), parts ("the role of melatonin"),
 * stances ("the NFL policy"), responses, members, classes ("what kind"),
 * versions ("the variants"), help with no goal, processes with no object
 * ("after production") and accounts of nothing named ("a simpler explanation").
 */
import { ANAPHORIC_PRONOUNS, AUXILIARIES, COMMON_VERBS, DEMONSTRATIVES, DETERMINERS, QUESTION_AUXILIARIES } from './word-lists';
import type { Token } from './tokenize';
import { isContentWord, isNoun, POSSESSIVE_PRONOUNS, writtenCapitalized } from './words';

/** Nouns of a relation between two things: "the impact of X on Y", "the relationship of X to Y". */
const RELATIONS = new Set(['impact', 'impacts', 'effect', 'effects', 'influence', 'relationship', 'relation', 'connection', 'link', 'contribution', 'contributions', 'difference', 'differences', 'similarity', 'similarities']);
/** Nouns of a part something plays in a whole: "the role of X in Y". */
const PARTS = new Set(['role', 'contribution', 'purpose', 'importance', 'significance']);
/** Nouns that are always a version of something: "the freighter versions", "the variants", "alternatives". */
const VERSIONS = new Set(['version', 'versions', 'variant', 'variants', 'alternative', 'alternatives', 'edition', 'editions']);
/** What names that something right after it: "versions of Node", "an alternative to surgery", "alternatives for vegans". */
const VERSION_COMPLEMENTS = new Set(['of', 'to', 'for', 'from', 'besides', 'than']);
/** Verbs of helping and working, whose goal ("help with sleep", "work for weight loss") a follow-up leaves to the conversation. */
const EFFICACY = new Set(['help', 'helps', 'helped', 'work', 'works', 'worked']);
/** Nouns of a process done to something (complex event nominals: Grimshaw 1990), which takes that something as its object. */
const PROCESS_NOUNS = new Set(['usage', 'absorption', 'production', 'consumption', 'intake', 'processing', 'testing', 'storage', 'installation', 'treatment', 'removal', 'creation', 'preparation', 'manufacturing', 'manufacture', 'distribution', 'maintenance', 'cultivation', 'construction', 'extraction', 'disposal', 'adoption', 'abolition', 'regulation']);
/** Nouns of an account given of something: "a simpler explanation", "more details" (of what was asked). */
const ACCOUNTS = new Set(['explanation', 'explanations', 'description', 'descriptions', 'summary', 'overview', 'definition', 'details']);
const CLASSIFIERS = new Set(['kind', 'kinds', 'type', 'types', 'sort', 'sorts']);
/** Nouns of a stance or rule about a topic: "the NFL policy on steroids", "the French government's attitude toward drinking". */
const STANCES = new Set(['policy', 'policies', 'rules', 'laws', 'regulations', 'guidelines', 'recommendations', 'requirements', 'attitude', 'attitudes', 'stance', 'position', 'view', 'views', 'opinion', 'opinions', 'approach', 'improvements', 'criticism', 'criticisms', 'response', 'reaction', 'arguments', 'evidence']);
/** "other" that contrasts with nothing said before: "each other", "every other day", "in other words", "other than milk", "on the other hand". */
const NOT_CONTRASTING_BEFORE: ReadonlySet<string> = new Set(['each', 'every', 'one', 'among', 'the']);
const NOT_CONTRASTING_AFTER: ReadonlySet<string> = new Set(['than', 'words', 'hand', 'side', 'way']);
/** Verbs of responding, whose stimulus ("to X") a follow-up leaves out. */
const RESPONSES = new Set(['respond', 'responds', 'responded', 'react', 'reacts', 'reacted', 'retaliate', 'retaliated']);
/** What names a stance's topic after it: a preposition or a complement clause. */
const STANCE_COMPLEMENTS = new Set(['on', 'about', 'toward', 'towards', 'for', 'regarding', 'to', 'of', 'in', 'against', 'with', 'concerning', 'around', 'over', 'behind', 'that', 'at', 'from', 'between', 'among', 'within', 'under']);

/**
 * A relation with one side unnamed: the other side is the conversation's
 * topic. "What is the impact on modern biology?" (impact of what?), "What is
 * the role of melatonin?" (in what?), "Why is Batman not a member?" (of what?),
 * "What kind should I get?" (of what?).
 */
export function missingArgument(tokens: Token[], text: string): string | null {
  const words = tokens.map((t) => t.word);
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    const next = words[i + 1];
    // "What are other good sources of calcium?": other than what was said (not "each other", "other than", "in other words", "every other day").
    if (word === 'other' && !NOT_CONTRASTING_BEFORE.has(words[i - 1] ?? '') && !NOT_CONTRASTING_AFTER.has(next ?? '')) return word;
    // "How did the international community respond?": a response to something never named (not "React", a name).
    if (RESPONSES.has(word) && i === words.length - 1 && !writtenCapitalized(tokens[i] as Token, text)) return word;
    // "What is the NFL policy?", "What were Ziegler's improvements?": a stance whose topic is never said. Only after an
    // article, a possessive or a name ("the drug policy", "labeling rules" name their topic in the modifier).
    if (STANCES.has(word) && (next === undefined || !STANCE_COMPLEMENTS.has(next)) && (i === 0 || ownerOrArticle(tokens[i - 1] as Token, text))) return word;
    // "the impact on biology": the relation's first side ("of X") never named.
    if (RELATIONS.has(word) && (next === 'on' || next === 'to' || next === 'with') && !words.includes('between') && !words.slice(0, i).some((w) => w === 'of' || ANAPHORIC_PRONOUNS.has(w))) return word;
    // "the role of melatonin": what it plays a part in never named.
    if (PARTS.has(word) && next === 'of' && !words.slice(i + 2).some((w) => w === 'in' || w === 'to' || w === 'for' || w === 'on' || w === 'within')) return word;
    if ((word === 'member' || word === 'members') && next !== 'of' && words[i - 1] !== 'team') return word;
    // "When did indoor versions become common?", "What are the differences between the variants?": a version, variant
    // or alternative of something never named. Not with what it is one of or to ("versions of Node", "an alternative to
    // surgery", "alternatives for vegans"; "alternatives to avoid licensing issues" is an infinitive), not owned ("its
    // versions", "Node's") or named by a name before it ("Node versions", "a TypeScript version"), and not as a
    // modifier ("version history": the noun after it is the head).
    const infinitive = next === 'to' && COMMON_VERBS.has(words[i + 2] ?? '');
    if (VERSIONS.has(word) && (!VERSION_COMPLEMENTS.has(next ?? '') || infinitive) && !(next !== undefined && isNoun(next) && !AUXILIARIES.has(next)) && !(i > 0 && ownerOrArticle(tokens[i - 1] as Token, text) && words[i - 1] !== 'the')) return word;
    // "Does melatonin help?", "I heard eating eggs might help.", "Does freezing work?": whether something helps or works,
    // with what it helps with or works for never said (not "How does it work?", which asks how, or "any help", a noun).
    if (i === words.length - 1 && EFFICACY.has(word) && !DETERMINERS.has(words[i - 1] ?? '') && !ANAPHORIC_PRONOUNS.has(words[i - 1] ?? '') && !DEMONSTRATIVES.has(words[i - 1] ?? '')
      && (word.startsWith('help') || (QUESTION_AUXILIARIES.has(words[0] ?? '') && i >= 2))) return word;
    // "What is done with the whey after production?", "the effects of usage on brain chemicals": a process noun whose
    // object (production of cheese, usage of alcohol) is never said: not with "of"/"for" after it or after the compound
    // it begins ("the treatment options for breast cancer"), nor after a noun, adjective or other content word, which
    // may name it ("coffee production", "iron absorption", "rehab treatment"; "What improves absorption?" is kept).
    if (PROCESS_NOUNS.has(word) && !THEME_AFTER.has(words[compoundEnd(words, i + 1)] ?? '') && (i === 0 || !isContentWord(words[i - 1] ?? '') || COMMON_VERBS.has(words[i - 1] ?? '')) && !owned(words[i - 1] ?? '')) return word;
    // "I'd like a more scientific explanation.": an explanation, description or summary of something never named.
    if (ACCOUNTS.has(word) && !['of', 'for', 'about', 'on'].includes(next ?? '') && !owned(words[i - 1] ?? '')) return word;
    // "what kind should I get?": a class never named.
    if (CLASSIFIERS.has(word) && (words[i - 1] === 'what' || words[i - 1] === 'which') && next !== 'of') return word;
  }
  return null;
}

/** What names a process noun's object after it (or after the compound it begins): "production of cheese", "treatment options for acne". */
const THEME_AFTER: ReadonlySet<string> = new Set(['of', 'for']);

/** The position after the nouns that start at `from` (the rest of a compound: "options" in "treatment options for …"). */
function compoundEnd(words: readonly string[], from: number): number {
  let j = from;
  while (j < words.length && isNoun(words[j] ?? '') && !COMMON_VERBS.has(words[j] ?? '')) j++;
  return j;
}

/** "the", a possessive ("its", "Ziegler's", "government's") or a name written with a capital ("NFL", "EU"). */
function ownerOrArticle(token: Token, text: string): boolean {
  return token.word === 'the' || owned(token.word) || writtenCapitalized(token, text);
}

/** A possessive before a noun, pronoun ("its") or noun's ("government's"): it says whose the noun is. */
function owned(word: string): boolean {
  return POSSESSIVE_PRONOUNS.has(word) || /'s$/.test(word);
}
