/**
 * The rules condenser: turns a follow-up into a standalone question with no
 * model. It splices the fragment of an ellipsis into the previous question
 * (itself resolved the same way), replaces a dangling pronoun or demonstrative
 * with the conversation's most salient topic, and otherwise adds that topic as
 * context. Deterministic, and it always says what it did.
 */
import { pointsAtPrevious } from './discourse-deixis';
import { decide, determinesNext, referenceIndex, type GateDecision } from './gate';
import { tokenize } from './tokenize';
import { isContentWord, isNoun } from './words';
import { readableHistory } from './read-bounds';
import { sentencesOf } from './sentences';
import { isWrittenAsName, stemsOf, trackTopics, type HistoryTurn, type Topic } from './topics';
import { COMMON_VERBS, DETERMINERS as DETERMINER_WORDS, ELLIPSIS_OPENERS, FUNCTION_WORDS, NO_PERSON_HEADS, PERSONAL_PRONOUNS, PLURAL_PRONOUNS, PREPOSITIONS, REPAIR, TOPIC_SWITCH } from './word-lists';
import { escapeRegExp } from '../../util/escape-regexp';

export interface Condensation {
  question: string;
  /** What was done, for traces ("replaced “it” with “breast cancer”"). */
  reason: string;
  /** What a pronoun or demonstrative was read as; an appended topic is a guess and not listed. */
  antecedents?: string[];
  /** A name the question put aside ("and Plus?" after "… the Pro plan?": Pro): not searched as context either. */
  replaced?: string[];
  /**
   * A demonstrative and its noun where no topic is headed by that noun ("that option" where no topic is an option;
   * the noun alone is the question's own word, no antecedent): what it points at was said just before.
   */
  unnamed?: string;
}

const POSSESSIVES = new Set(['its', 'their', 'theirs', 'his', 'her', 'hers']);
const MAX_DEPTH = 4;

/** The question without its closing punctuation; a loop, not /[\s?.!]+$/, which costs a long run's length at each of its positions. */
function strip(q: string): string {
  let end = q.length;
  while (end > 0 && /[\s?.!]/.test(q.charAt(end - 1))) end--;
  return q.slice(0, end).trim();
}

/** The previous user question (small talk skipped), itself resolved to a standalone form. */
export function resolvedQuestion(history: readonly HistoryTurn[], depth = 0, rank: (h: readonly HistoryTurn[]) => Topic[] = trackTopics, asked?: AskedAs): string | undefined {
  const at = history.findLastIndex((t) => decide(t.user, true).action !== 'reply');
  const last = history[at];
  if (!last) return undefined;
  const known = asked?.(last);
  if (known !== undefined) return known;
  const earlier = history.slice(0, at);
  const decision = decide(last.user, earlier.length > 0);
  if (decision.action !== 'condense' || depth >= MAX_DEPTH) return last.user;
  return condenseWithRules(last.user, earlier, decision, depth + 1, rank).question;
}

/**
 * What an earlier turn was asked as, where the caller resolved it already (undefined: resolve it with these
 * rules): an ellipsis continues the previous question as it was searched, so it reads the same in both places.
 */
export type AskedAs = (turn: HistoryTurn) => string | undefined;

/**
 * `topics` replaces the built-in topic ranking (the corpus-aware condenser
 * ranks by specificity in the user's index); the same ranking resolves the
 * previous questions an ellipsis is spliced into.
 */
export function condenseWithRules(question: string, fullHistory: readonly HistoryTurn[], decision: GateDecision, depth = 0, rank: (h: readonly HistoryTurn[]) => Topic[] = trackTopics, asked?: AskedAs): Condensation {
  const history = readableHistory(fullHistory);
  const topics = rank(history);
  const top = topics[0];
  // An ellipsis continues the previous question, topic or not.
  if (decision.reason === 'ellipsis') return spliceEllipsis(question, history, top, depth, rank, asked);
  if (!top) return { question, reason: 'no topic in the history; kept as typed' };
  switch (decision.reason) {
    case 'dangling-pronoun':
    case 'demonstrative': return replaceReference(question, decision.evidence[0] ?? '', topics, history);
    // One topic, not the last two: on CAsT the second was noise more often than the other option
    // ("which is healthiest (almonds, cow milk)?"); "how is a container different?" names one side itself.
    case 'which-one':
    case 'comparative': return appendTopics(question, topics.slice(0, 1));
    default: return appendTopics(question, [top]);
  }
}

/**
 * The question an ellipsis continues: the last interrogative clause of the
 * previous question, without acknowledgements ("Thanks. …") or the
 * parentheticals an earlier resolution added.
 */
export function lastQuestionClause(question: string): string {
  const plain = question.replace(/\s*\([^()]*\)/g, '').trim();
  const written = sentencesOf(plain).map((x) => x.trim()).filter((x) => strip(x).length > 0);
  const sentences = written.map(strip);
  const asking = sentences.filter((x) => /^(?:\S+\s+)?(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|can|could|will|would|should|may|might|tell|explain|describe|list|give|show)\b/i.test(x));
  const last = asking.at(-1) ?? sentences.at(-1) ?? strip(plain);
  // "Does mustache.js escape HTML? how do I turn that off?" (expand.ts, restatedPrevious): a clause whose "that"
  // points at the sentence before it keeps that sentence, so "and for everything?" continues both.
  const at = sentences.lastIndexOf(last);
  return at > 0 && pointsAtPrevious(last) !== undefined ? `${written[at - 1] ?? ''} ${last}` : last;
}

/** "and how long does it take?": a question of its own after a continuation word, not a fragment to splice. */
const OWN_QUESTION = /^(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|can|could|will|would|should)\b/i;

/** The fragment after an ellipsis opener ("what about damaged items?" → "damaged items"), or '' for a bare one. */
function fragmentOf(typed: string): { opener: string; fragment: string } {
  // "Now, what about the causes in Asia?": a marker of a new turn in the talk before it (the gate reads past it too).
  // "Okay. Now, what about …": two such markers, read past one after the other.
  const body = typed.replace(TOPIC_SWITCH, '').replace(TOPIC_SWITCH, '');
  const opener = ELLIPSIS_OPENERS.exec(body);
  return { opener: opener?.[0] ?? '', fragment: opener ? body.slice(opener[0].length).trim().replace(/^[,:;-]\s*/, '') : '' };
}

/** "what about X?", "how about X?": X as an alternative to what was asked, not an addition to it ("and X?"). */
const ALTERNATIVE = new RegExp(String.raw`(?:what|how) about$|\b${REPAIR}$`, 'i');
/** A repair's opener ("No, I meant"): it corrects the previous question, never an older one. */
const REPAIR_OPENER = new RegExp(`${REPAIR}$`, 'i');

/** The X of "what about X?" / "how about X?" (an alternative to what was asked), or undefined. */
export function alternativeOf(question: string): string | undefined {
  const { opener, fragment } = fragmentOf(strip(question));
  if (!fragment || !ALTERNATIVE.test(opener) || (OWN_QUESTION.test(fragment) && fragment.split(/\s+/).length >= 3)) return undefined;
  return fragment;
}

/**
 * The question a new fragment continues: the previous question, except that
 * an alternative after an alternative replaces it ("…return something?",
 * "what about damaged items?", "what about opened ones?" asks about opened
 * ones, not both; "and to Canada?" still adds to the one before).
 */
function continuedQuestion(history: readonly HistoryTurn[], depth: number, rank: (h: readonly HistoryTurn[]) => Topic[], asked?: AskedAs): string | undefined {
  const at = history.findLastIndex((t) => decide(t.user, true).action !== 'reply');
  const last = history[at];
  if (last && at > 0 && depth < MAX_DEPTH && decide(last.user, true).reason === 'ellipsis') {
    const { opener, fragment } = fragmentOf(strip(last.user));
    if (fragment && ALTERNATIVE.test(opener) && !(OWN_QUESTION.test(fragment) && fragment.split(/\s+/).length >= 3)) return continuedQuestion(history.slice(0, at), depth + 1, rank, asked);
  }
  return resolvedQuestion(history, depth, rank, asked);
}

function spliceEllipsis(question: string, history: readonly HistoryTurn[], top: Topic | undefined, depth: number, rank: (h: readonly HistoryTurn[]) => Topic[], asked?: AskedAs): Condensation {
  const body = strip(question);
  const { opener, fragment } = fragmentOf(body);
  const continued = fragment && ALTERNATIVE.test(opener) ? continuedQuestion(history, depth, rank, asked) : resolvedQuestion(history, depth, rank, asked);
  const contrasting = fragment && ALTERNATIVE.test(opener) && !REPAIR_OPENER.test(opener);
  const previous = continued !== undefined && contrasting ? parallelQuestion(fragment, continued, history, asked) ?? continued : continued;
  if (!previous) return top ? appendTopics(question, [top]) : { question, reason: 'no earlier question; kept as typed' };
  if (fragment && OWN_QUESTION.test(fragment) && fragment.split(/\s+/).length >= 3) {
    return top ? appendTopics(fragment, [top]) : { question: fragment, reason: `a question of its own after “${opener}”` };
  }
  const base = lastQuestionClause(previous);
  if (!fragment) return { question: `${body}? (${base})`, reason: `attached the previous question “${base}”` };
  // "How much is the Pro plan?" … "and Plus?": a name left alone stands in for the name it contrasts with
  // (bare-argument ellipsis: the remnant replaces its correlate, a phrase of the same kind), not beside it.
  const contrast = contrastedName(base, fragment) ?? contrastedModifier(base, fragment, history);
  if (contrast) {
    const question = `${base.slice(0, contrast.index)}${contrast.replacement ?? fragment}${base.slice(contrast.index + contrast.name.length)}?`;
    return { question, reason: `put “${contrast.replacement ?? fragment}” in place of “${contrast.name}” in the previous question “${base}”`, antecedents: [], replaced: [contrast.name] };
  }
  const glue = /^(?:for|in|on|at|with|without|from|during|after|before|to|of|by|about|if|when)\b/i.test(fragment) ? ' ' : ', for ';
  return { question: `${base}${glue}${fragment}?`, reason: `spliced “${fragment}” into the previous question “${base}”` };
}

/** User turns an alternative may reach back to for the question it parallels, before the previous one. */
const PARALLEL_TURNS = 3;

/**
 * "What are the causes of stigma in Africa?", two questions about methods, then "Okay. Now, what about the causes in
 * Asia?": an alternative that repeats a noun with a new modifier ("the causes" + "in Asia") parallels the question
 * that asked about that noun, the newest such one of the last PARALLEL_TURNS before the previous question, where
 * the previous question does not name it (parallelism decides an ellipsis's antecedent clause). Matched on what the
 * user typed, not on how an earlier turn was resolved (a wrong guess there must not attract the remnant). Undefined
 * where the previous question names the noun, where the remnant is a noun alone ("what about my dog?" contrasts
 * with something the previous question asked about, not with an older mention of dogs), or where no question does.
 */
function parallelQuestion(fragment: string, previous: string, history: readonly HistoryTurn[], asked?: AskedAs): string | undefined {
  const head = modifiedHead(fragment);
  const names = (question: string) => tokenize(lastQuestionClause(question)).some((t) => t.word === head);
  if (head === undefined || names(previous)) return undefined;
  // A parallel alternative before ("what about the causes in Asia?") is read as it was asked ("What are the causes
  // of stigma in Asia?"), and its phrase is what this one replaces.
  const questions = history.filter((t) => decide(t.user, true).action !== 'reply').slice(0, -1);
  const parallel = questions.slice(-PARALLEL_TURNS).reverse().find((turn) => names(turn.user));
  return parallel && (asked?.(parallel) ?? parallel.user);
}

/**
 * The head of a remnant that is a noun with a modifier of its own, lower case: "the causes in Asia" → causes,
 * "damaged items" → items; undefined for a noun alone ("my dog"), a name, or a prepositional remnant ("for lobular").
 */
function modifiedHead(fragment: string): string | undefined {
  const tokens = tokenize(fragment);
  if (FUNCTION_WORDS.has(tokens[0]?.word ?? '') || PREPOSITIONS.has(tokens[0]?.word ?? '')) return undefined;
  const end = tokens.findIndex((t, i) => i > 0 && (FUNCTION_WORDS.has(t.word) || PREPOSITIONS.has(t.word)));
  const words = tokens.slice(0, end < 0 ? undefined : end);
  const phrase = words.filter((t) => !DETERMINER_WORDS.has(t.word));
  const head = phrase.at(-1);
  // After a determiner a word is a noun ("the causes"), whatever else it can be.
  const noun = head !== undefined && (isNoun(head.word) || DETERMINER_WORDS.has(words[0]?.word ?? ''));
  if (!head || !noun || /^\p{Lu}/u.test(fragment.slice(head.index, head.index + 1))) return undefined;
  // A modifier: a word before the head, or a phrase after it.
  const modified = phrase.length >= 2 || (end >= 0 && tokens.slice(end).some((t) => isContentWord(t.word)));
  return modified ? head.word : undefined;
}

/** Capitalized words (a name) inside a sentence, not its first word; "I" is no name. */
const NAME_RUN = /(?<=\S\s+)(?:\p{Lu}[\p{L}\p{N}+&.'-]*)(?:\s+\p{Lu}[\p{L}\p{N}+&.'-]*)*/gu;

/**
 * The name in `base` that a remnant name contrasts with: when the remnant is a
 * name of at most three words and `base` holds names, the last of them (the
 * focus of a question usually comes last: "How does Netflix compare to Hulu?").
 */
function contrastedName(base: string, fragment: string): Correlate | undefined {
  const words = fragment.split(/\s+/);
  if (words.length > 3 || !words.every((w) => /^\p{Lu}/u.test(w)) || words.includes('I')) return undefined;
  const names = [...base.matchAll(NAME_RUN)].filter((m) => m[0] !== 'I');
  const last = names.at(-1);
  if (!last || last[0].toLowerCase() === fragment.toLowerCase()) return undefined;
  // "Do we pay the First Lady?" then "and Ivanka?": a name that is a whole noun phrase after "the" takes the
  // article with it ("Do we pay Ivanka?"); before a noun ("the Pro plan") the article belongs to the noun.
  const article = /\bthe\s+$/i.exec(base.slice(0, last.index));
  const wholePhrase = !/^\s+[\p{Ll}\p{N}]/u.test(base.slice(last.index + last[0].length)) || /^\s+(?:and|or|to|than|vs|versus)\b/i.test(base.slice(last.index + last[0].length));
  if (article && wholePhrase) return { name: base.slice(article.index, last.index + last[0].length), index: article.index };
  return { name: last[0], index: last.index };
}

/** A remnant's correlate in the previous question: the text it replaces there, where, and what goes in (the remnant without a leading determiner). */
interface Correlate { name: string; index: number; replacement?: string }

/** A remnant that is a noun and a phrase after it: "the causes in Asia" (causes; in Asia). */
const REPEATED_NOUN = /^(?:(?:the|a|an|my|our|your)\s+)?([\p{L}-]+)\s+(\p{Ll}+\s+\S.*)$/u;

/** Prepositions whose phrase a remnant with the same preposition replaces ("per month" → "per year", "to Germany" → "to Canada"). */
const CONTRAST_PREPOSITIONS = /^(for|in|on|at|with|without|from|during|after|before|to|by|per|under|over|near|since|until)\s+(\S.*)$/i;

/**
 * The phrase in `base` a remnant that is no bare name contrasts with (the
 * same bare-argument ellipsis as a name's):
 * - a prepositional remnant replaces the last phrase of `base` with the same
 *   preposition: "and per year?" after "how much is Plus per month?";
 * - a remnant with a noun of `base` replaces that noun's modifiers: "what
 *   about dark chocolate?" after "is milk chocolate healthy?", "what about
 *   the Pro plan?" after "how many devices can the free plan sync?";
 * - a one-word remnant replaces a modifier only where the conversation says
 *   they are alternatives: "how long is standard delivery?", an answer
 *   "Standard shipping takes 3 to 7 days; express shipping arrives in 1 to
 *   2", then "what about express?" asks how long express delivery takes. The
 *   remnant and the modifier each stand before the same word somewhere in the
 *   conversation (parallel modifiers of one noun), or the remnant before the
 *   question's own noun ("express delivery").
 */
function contrastedModifier(base: string, fragment: string, history: readonly HistoryTurn[]): Correlate | undefined {
  const tokens = tokenize(base);
  const prepositional = CONTRAST_PREPOSITIONS.exec(fragment);
  if (prepositional) return samePreposition(base, tokens, (prepositional[1] ?? '').toLowerCase());
  // "what about the causes in Asia?" after "What are the causes of stigma in Africa?": the noun repeated, its
  // phrase with the same preposition is the contrast ("in Africa" → "in Asia").
  const repeated = REPEATED_NOUN.exec(fragment);
  const phrase = repeated ? CONTRAST_PREPOSITIONS.exec(repeated[2] ?? '') : null;
  if (repeated && phrase && tokens.some((t) => t.word === (repeated[1] ?? '').toLowerCase())) {
    const correlate = samePreposition(base, tokens, (phrase[1] ?? '').toLowerCase());
    if (correlate) return { ...correlate, replacement: repeated[2] ?? '' };
  }
  const core = fragment.replace(/^(?:the|a|an|my|our|your)\s+/i, '');
  if (COORDINATED.test(fragment)) return pluralProForm(base, tokens);
  // "And what about the cons?" after "What are the pros and cons?": one side of a pair the question asked about together.
  const side = conjunctOf(base, core);
  if (side) return side;
  const rank = RANKED.exec(fragment);
  if (rank) return sameRank(base, tokens, (rank[1] ?? '').toLowerCase());
  // "what about orders to Canada?" after "how do I track my order?": a noun of the question with a phrase of its own
  // after it replaces that noun and what stands before it ("how do I track orders to Canada?").
  const attached = /^([\p{L}-]+(?:\s+[\p{L}-]+){0,2})\s+(?:to|in|for|from|at|on|with|of|by|under|over)\s+([\p{L}-]+)/iu.exec(core);
  const object = attached?.[2]?.toLowerCase() ?? '';
  const nounFirst = tokenize(attached?.[1] ?? '').every((t) => modifiesNoun(t.word)) && isNoun(tokenize(attached?.[1] ?? '').at(-1)?.word ?? '') && !/est$/.test(attached?.[1] ?? '');
  // An infinitive ("the largest to ever walk the earth") is no phrase of the noun's.
  if (attached && nounFirst && (/^(?:the|a|an|my|our|your)$/.test(object) || modifiesNoun(object)) && !/ly$|^ever$/.test(object)) {
    const headStem = stemsOf(tokenize(attached[1] ?? '').at(-1)?.word ?? '')[0];
    for (let j = tokens.length - 1; j >= 0; j--) {
      const head = tokens[j] as { word: string; index: number };
      if (stemsOf(head.word)[0] !== headStem) continue;
      let from = j;
      while (from > 0 && isNoun(tokens[from - 1]?.word ?? '')) from--;
      // The phrase's determiner goes with it; the word before that is the question's verb ("track my order").
      if (from > 0 && /^(?:the|a|an|my|our|your|this|that)$/.test(tokens[from - 1]?.word ?? '')) from--;
      const index = (tokens[from] as { index: number }).index;
      return { name: base.slice(index, head.index + head.word.length), index, replacement: fragment };
    }
  }
  const remnant = tokenize(core).map((t) => t.word);
  if (remnant.length === 0 || remnant.length > 3 || !remnant.every(modifiesNoun)) return undefined;
  const modifies = (i: number) => modifiesNoun(tokens[i]?.word ?? '');
  const headStem = stemsOf(remnant.at(-1) ?? '')[0];
  if (remnant.length > 1) {
    // The remnant names its noun: the same noun in the question, with other modifiers before it.
    for (let j = tokens.length - 1; j > 0; j--) {
      const head = tokens[j] as { word: string; index: number };
      if (stemsOf(head.word)[0] !== headStem || !modifies(j - 1)) continue;
      let from = j - 1;
      while (from > 0 && modifies(from - 1)) from--;
      const index = (tokens[from] as { index: number }).index;
      const span = base.slice(index, head.index + head.word.length);
      return span.toLowerCase() === core.toLowerCase() ? undefined : { name: span, index, replacement: core };
    }
    return undefined;
  }
  if (!/^\p{Ll}[\p{Ll}-]*$/u.test(core)) return undefined;
  const word = remnant[0] as string;
  const following = wordsFollowing(history.flatMap((t) => [t.user, t.assistant]).join('\n').toLowerCase());
  const heads = (w: string): ReadonlySet<string> => following.get(w) ?? new Set();
  const remnantHeads = heads(word);
  if (remnantHeads.size === 0) return undefined;
  for (let i = tokens.length - 2; i >= 0; i--) {
    const modifier = tokens[i] as { word: string; index: number };
    if (modifier.word === word || !modifies(i) || /^\p{Lu}/u.test(base.charAt(modifier.index)) || !isContentWord((tokens[i + 1] as { word: string }).word)) continue;
    const nounStem = stemsOf((tokens[i + 1] as { word: string }).word)[0];
    const parallel = [...heads(modifier.word)].some((h) => remnantHeads.has(h));
    if (parallel || (nounStem !== undefined && remnantHeads.has(nounStem))) return { name: base.slice(modifier.index, modifier.index + modifier.word.length), index: modifier.index, replacement: core };
  }
  return undefined;
}

/** The pair "X and Y" / "X or Y" in `base` that `core`, one word, is a side of: the pair is its correlate. */
function conjunctOf(base: string, core: string): Correlate | undefined {
  if (!/^[\p{L}-]+$/u.test(core)) return undefined;
  const side = escapeRegExp(core);
  const pair = new RegExp(String.raw`(?<![\p{L}-])(?:${side}\s+(?:and|or)\s+[\p{L}-]+|[\p{L}-]+\s+(?:and|or)\s+${side})(?![\p{L}-])`, 'iu').exec(base);
  return pair ? { name: pair[0], index: pair.index, replacement: core } : undefined;
}

/**
 * For each word of `text`, the stems of the words right after it (spaces
 * between): "express shipping arrives" gives express → {ship}, shipping →
 * {arriv}. One pass over the conversation, whatever the question's length.
 */
function wordsFollowing(text: string): Map<string, Set<string>> {
  const following = new Map<string, Set<string>>();
  for (const m of text.matchAll(/(?<![\p{L}\p{N}])([\p{L}\p{N}]+(?:'\p{L}+)?)(?=\s+(\p{L}+))/gu)) {
    const word = m[1] ?? '';
    const stem = stemsOf(m[2] ?? '')[0] ?? '';
    const stems = following.get(word);
    if (stems) stems.add(stem);
    else following.set(word, new Set([stem]));
  }
  return following;
}

/** A word that may stand before a noun inside its phrase: a content word, no frequent verb. */
function modifiesNoun(word: string): boolean {
  return isContentWord(word) && !COMMON_VERBS.has(word);
}

/** "the second", "the oldest": a remnant that picks a member of a series by rank. */
const RANKED = /^the\s+(first|second|third|fourth|fifth|last|next|previous|final|\p{Ll}{2,}est)$/iu;
const ORDINALS: ReadonlySet<string> = new Set(['first', 'second', 'third', 'fourth', 'fifth', 'last', 'next', 'previous', 'final']);

/**
 * "What about the second?" after "What was characteristic about the first one?", "What about the oldest?"
 * after "Where is the youngest oceanic crust found?": the remnant's rank replaces the question's rank of the
 * same kind (an ordinal for an ordinal, a superlative for a superlative), each after "the".
 */
function sameRank(base: string, tokens: readonly { word: string; index: number }[], rank: string): Correlate | undefined {
  const ordinal = ORDINALS.has(rank);
  for (let i = tokens.length - 1; i > 0; i--) {
    const token = tokens[i] as { word: string; index: number };
    if ((tokens[i - 1] as { word: string }).word !== 'the' || token.word === rank) continue;
    if (ordinal ? ORDINALS.has(token.word) : /\p{Ll}{2,}est$/u.test(token.word) && !ORDINALS.has(token.word)) return { name: base.slice(token.index, token.index + token.word.length), index: token.index, replacement: rank };
  }
  return undefined;
}

/** "mania and depression", "Netflix or Hulu": a remnant that names two things. */
const COORDINATED = /^[\p{L}'-]+(?:\s+[\p{L}'-]+){0,2}\s+(?:and|or)\s+[\p{L}'-]+(?:\s+[\p{L}'-]+){0,2}$/u;
/** Pro-forms that stand for two or more things. */
const PLURAL_PRO_FORMS: ReadonlySet<string> = new Set(['both', 'either', 'neither', 'them', 'they', 'these', 'those']);

/**
 * "Can a person have both at the same time?" then "No, I meant mania and depression.": a remnant that names
 * two things replaces the pro-form that stood for them (the last one of `base` that no noun follows).
 */
function pluralProForm(base: string, tokens: readonly { word: string; index: number }[]): Correlate | undefined {
  for (let i = tokens.length - 1; i >= 0; i--) {
    const token = tokens[i] as { word: string; index: number };
    const next = tokens[i + 1]?.word;
    if (PLURAL_PRO_FORMS.has(token.word) && (next === undefined || (next !== 'of' && !isNoun(next)))) return { name: base.slice(token.index, token.index + token.word.length), index: token.index };
  }
  return undefined;
}

/** The last phrase of `base` after `preposition`: the preposition and the content words that follow it (a determiner may open them). */
function samePreposition(base: string, tokens: readonly { word: string; index: number }[], preposition: string): Correlate | undefined {
  for (let i = tokens.length - 2; i >= 0; i--) {
    if ((tokens[i] as { word: string }).word !== preposition) continue;
    let to = i + 1;
    if (/^(?:the|a|an|my|our|your)$/.test((tokens[to] as { word: string }).word)) to++;
    const start = to;
    while (to < tokens.length && modifiesNoun((tokens[to] as { word: string }).word)) to++;
    if (to === start) return undefined;
    const from = (tokens[i] as { index: number }).index;
    const last = tokens[to - 1] as { word: string; index: number };
    return { name: base.slice(from, last.index + last.word.length), index: from };
  }
  return undefined;
}

function replaceReference(question: string, word: string, topics: Topic[], history: readonly HistoryTurn[]): Condensation {
  const tokens = tokenize(question);
  const at = referenceIndex(question, tokens, word);
  const token = tokens[at];
  const top = agreeing(word, topics);
  if (!token) return appendTopics(question, [top]);
  const next = tokens[at + 1];
  // "that plan" → "the Plus plan": only a topic whose head (last word) is that noun; "that refund"
  // must not become "the refund window", where refund is a mere modifier of another head.
  const nounStem = next ? stemsOf(next.word)[0] ?? '' : '';
  const nounTopic = next ? topics.find((t) => t.stems.at(-1) === nounStem) : undefined;
  const determiner = next !== undefined && determinesNext(question, tokens, at);
  if (['this', 'that', 'these', 'those'].includes(word) && determiner) {
    if (nounTopic && nounTopic.stems.length > 1) {
      return { question: splice(question, token.index, next.index + next.word.length, `the ${nounTopic.phrase}`), reason: `read “${word} ${next.word}” as “${nounTopic.phrase}”`, antecedents: [nounTopic.phrase] };
    }
    const rewritten = splice(question, token.index, token.index + word.length, 'the');
    return nounTopic ? { question: rewritten, reason: `“${word} ${next.word}” names its topic; determiner made definite` }
      : { question: `${strip(rewritten)} (${top.phrase})?`, reason: `“${word} ${next.word}” read in the context of “${top.phrase}”`, antecedents: [top.phrase], unnamed: `${word} ${next.word}` };
  }
  // "they" is mostly generic ("what do they eat?" → "what do Spanish people eat?"): its phrase stays bare.
  const named = PLURAL_PRONOUNS.has(word) ? top.phrase : withDeterminer(top.phrase, history);
  if (word === 'there') return { question: splice(question, token.index, token.index + word.length, `in ${named}`), reason: `read “there” as “in ${named}”`, antecedents: [top.phrase] };
  // "it's" is a misspelled "its" after a verb that takes an object or a preposition ("describe it's growth", "about it's
  // history"), and "it is" elsewhere: first, after "if", a wh-word or an auxiliary, or a verb that takes a clause ("I heard it's …").
  const prior = tokens[at - 1]?.word ?? '';
  const objectSlot = (isContentWord(prior) && !CLAUSE_VERBS.has(prior)) || OBJECT_PREPOSITIONS.has(prior);
  const contracted = word === "it's" ? (objectSlot ? `${named}'s` : `${named} is`) : undefined;
  const replacement = contracted ?? (POSSESSIVES.has(word) ? `${named}'s` : named);
  // "It came broken?" → "The tablet came broken?": a sentence that began with the pronoun begins with its replacement.
  const initial = /^\p{Lu}/u.test(question.charAt(token.index)) && /^\p{Ll}/u.test(replacement) && /(?:^|[.!?]\s+)$/.test(question.slice(0, token.index));
  const written = initial ? replacement.charAt(0).toUpperCase() + replacement.slice(1) : replacement;
  return { question: splice(question, token.index, token.index + word.length, written), reason: `replaced “${word}” with “${named}”`, antecedents: [top.phrase] };
}

/** Verbs whose object is a clause ("I heard it's made from almonds"), and prepositions whose object is a noun phrase. */
const CLAUSE_VERBS: ReadonlySet<string> = new Set(['heard', 'hear', 'think', 'thought', 'know', 'knew', 'say', 'says', 'said', 'believe', 'guess', 'feel', 'felt', 'read', 'mean', 'suppose', 'assume', 'hope', 'seems', 'seem', 'sure', 'true']);
const OBJECT_PREPOSITIONS: ReadonlySet<string> = new Set(['about', 'of', 'for', 'with', 'on', 'in', 'to', 'from', 'at', 'by', 'into', 'over', 'under', 'during', 'without', 'between']);

/** Determiners a phrase may have been written with, and what the condensed question says instead. */
const DETERMINERS: Readonly<Record<string, string>> = { the: 'the', a: 'the', an: 'the', this: 'the', that: 'the', these: 'the', those: 'the', my: 'my', our: 'our', your: 'the' };

/**
 * A phrase as a pronoun's replacement, with the determiner it was written with: "a tablet" was
 * mentioned, so "what if it came broken?" asks about "the tablet"; "my order" stays the user's
 * ("your …" in a user's turn is generic or the site's, so "the"). A phrase written bare ("breast
 * cancer", "sharks", "Netflix") stays bare. The user's own turns are read first (newest first),
 * then the answers, whose possessives speak for the assistant.
 */
function withDeterminer(phrase: string, history: readonly HistoryTurn[]): string {
  // One word may stand between ("the same note", "my old phone": words no topic holds). Not before a longer name:
  // in "the Johnny Bench Award" the article is the award's, not Johnny Bench's.
  const pattern = new RegExp(`(?:^|[^\\p{L}\\p{N}'’-])(the|an?|this|that|these|those|my|our|your)\\s+(?:[\\p{L}-]+\\s+)?${escapeRegExp(phrase).replace(/\s+/g, '\\s+')}(?![\\p{L}\\p{N}])`, 'giu');
  const bare = new RegExp(`(?:^|[^\\p{L}\\p{N}'’-])${escapeRegExp(phrase).replace(/\s+/g, '\\s+')}(?![\\p{L}\\p{N}])`, 'iu');
  const name = isWrittenAsName(phrase);
  for (const role of ['user', 'assistant'] as const) {
    for (let t = history.length - 1; t >= 0; t--) {
      const text = (history[t] as HistoryTurn)[role];
      if (!bare.test(text)) continue;
      const found = [...text.matchAll(pattern)].find((m) => !(name && /^\s+\p{Lu}\p{Ll}/u.test(text.slice((m.index ?? 0) + m[0].length))))?.[1]?.toLowerCase();
      if (!found) return phrase;
      const determiner = role === 'assistant' ? 'the' : DETERMINERS[found] ?? 'the';
      return `${determiner} ${phrase}`;
    }
  }
  return phrase;
}

/** Plurals without an -s. */
const IRREGULAR_PLURALS = new Set(['people', 'children', 'men', 'women', 'police', 'mice', 'teeth', 'feet', 'geese', 'cattle', 'data', 'media', 'criteria', 'bacteria', 'fungi', 'phenomena']);
/** A name written as code: a dot or a hyphen inside a word ("URI.js", "word-wrap"), or a capital after a lower-case letter ("winkNLP"). */
const WRITTEN_AS_CODE = /\p{L}[.-]\p{L}|\p{Ll}\p{Lu}/u;
/** Singular nouns for groups, which English refers to as "they" as readily as "it". */
const COLLECTIVE_NOUNS = new Set(['government', 'team', 'company', 'band', 'group', 'family', 'staff', 'public', 'crew', 'committee', 'army', 'club', 'party', 'board', 'council', 'administration', 'audience', 'community', 'organization', 'organisation', 'firm', 'congress', 'parliament', 'court', 'union', 'church', 'navy', 'industry', 'population', 'tribe', 'squad', 'agency', 'department', 'ministry']);


/**
 * The antecedent a pronoun agrees with, among the topics close to the best:
 * he/she → a name (a capitalized phrase), they → a plural, it → a singular.
 * No agreeing topic: the best one.
 */
function agreeing(word: string, topics: Topic[]): Topic {
  return agreeingTopic(word, topics) ?? (topics[0] as Topic);
}

/** The topic close to the best that `word` agrees with (see agreeing), or undefined where none does. */
export function agreeingTopic(word: string, topics: readonly Topic[]): Topic | undefined {
  const top = topics[0];
  if (!top) return undefined;
  const close = topics.slice(0, 4).filter((t) => t.score >= top.score * 0.4);
  const head = (t: Topic) => t.phrase.split(/\s+/).at(-1)?.toLowerCase() ?? '';
  const plural = (t: Topic) => /[^s]s$/i.test(t.phrase) || IRREGULAR_PLURALS.has(head(t));
  // A collective noun takes either: "the US government … what did they do?", "the team … is it any good?".
  // He and she mean one person: a name written as one (every word capitalized: "Melania Trump", not "Melania
  // Trump religion"), not a plural ("Information Retrieval researchers") and not a name whose head is a place
  // or an institution ("the Kit Kat Club", "Salt Lake City").
  // (A capitalized head in -s is a name such as Sanders, no plural.)
  const commonPlural = (t: Topic) => plural(t) && /^\p{Ll}/u.test(t.phrase.split(/\s+/).at(-1) ?? '');
  const test = PERSONAL_PRONOUNS.has(word) ? (t: Topic) => isWrittenAsName(t.phrase) && !commonPlural(t) && !NO_PERSON_HEADS.has(head(t))
    : word === 'there' ? (t: Topic) => /^\p{Lu}/u.test(t.phrase)
    : PLURAL_PRONOUNS.has(word) ? (t: Topic) => plural(t) || COLLECTIVE_NOUNS.has(head(t))
      : (t: Topic) => !plural(t);
  const found = close.find(test);
  if (found || word !== 'it') return found;
  // "and the named entities?" then "can it count …": a plural cannot be "it"; past the topics close to the best, a
  // name further down may be (written as one, capitalized or as code, since a low-ranked phrase of everyday words
  // is as often a misread verb or adjective).
  const named = (t: Topic) => isWrittenAsName(t.phrase) || WRITTEN_AS_CODE.test(t.phrase);
  return topics.slice(0, 8).filter((t) => t.score >= top.score * 0.1 && named(t)).find(test);
}

function appendTopics(question: string, topics: Topic[]): Condensation {
  const phrases = topics.map((t) => t.phrase);
  return { question: `${strip(question)} (${phrases.join(', ')})?`, reason: `added the topic${phrases.length > 1 ? 's' : ''} “${phrases.join('”, “')}”` };
}

function splice(text: string, from: number, to: number, insert: string): string {
  return text.slice(0, from) + insert + text.slice(to);
}
