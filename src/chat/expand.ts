/**
 * The corpus-aware condenser: resolve, then expand.
 *
 * 1. Gate (specific-gate.ts): the English gate (rules/gate.ts) finds dangling
 *    references and fragments; specificity in the user's own index decides the rest. A turn
 *    with no word specific in this corpus needs the conversation; one that
 *    names something specific stands alone.
 * 2. Resolve: the rules condenser's resolution (pronoun → topic, ellipsis
 *    spliced into the previous question's last clause, topic appended),
 *    with topics ranked by specificity and recency over the user's own turns.
 * 3. Expand (Historical Query Expansion, Lin et al. 2020): specific words of
 *    earlier user turns join the lexical query at a weight below the turn's
 *    own words (recent turns more, the first turn, which names the
 *    conversation's topic, most), so they can break ties but never outvote it.
 */
import type { WeightedTerm } from '../retriever';
import type { SearchedQuery } from './searched-query';
import { contentWords, lexicalTerms } from '../text/tokens';
import { decide, determinesNext, referenceIndex, type GateDecision } from './rules/gate';
import { isSmalltalk } from './rules/smalltalk';
import { tokenize } from './rules/tokenize';
import { agreeingTopic, alternativeOf, condenseWithRules } from './rules/rules-condenser';
import { answerPerson } from './rules/answer-person';
import { repeatedAction } from './rules/verb-phrase';
import { pointsAtPrevious } from './rules/discourse-deixis';
import { generalSpecificity, SPECIFIC, type Specificity } from './specificity';
import { candidatePhrases, isAspect, isWrittenAsName, stemsOf, subjectPhrases, type HistoryTurn, type Topic } from './rules/topics';
import { englishTexts } from './rules/english';
import { compactSpace, MAX_READ_QUESTION, readableHistory } from './rules/read-bounds';
import { sentencesOf } from './rules/sentences';
import { ANAPHORIC_PRONOUNS, INTERJECTIONS, PERSONAL_PRONOUNS, PLURAL_PRONOUNS } from './rules/word-lists';
import { escapeRegExp } from '../util/escape-regexp';
import { namesInAnswer, namesInProse } from './identifiers';
import { asWritten, NO_FORMS, type WrittenForm } from './written-forms';
import { besidePrevious, hedged } from './hedge';
import { readDefinites, resolveDefinites } from './definites';
import { BARE_ASK, gateBySpecificity, pointsBack, REFERENCE_REASONS, SELF_REFERENCE_REASONS, specificWords, splitPreamble } from './specific-gate';

export interface ExpandOptions {
  /** Weight of the previous user turn's specific words. @default 0.3 */
  historyWeight?: number;
  /** Weight kept per turn of age. @default 0.7 */
  decay?: number;
  /** Weight of the first user turn's specific words (the conversation's topic). @default 0.5 */
  firstTurnWeight?: number;
  /** At most this many history words are added. @default 12 */
  maxTerms?: number;
  /**
   * Weight of the names the last answer wrote as code ("onIdle", "coerce(…)"), which the user's turns do not
   * hold: half the previous turn's, as the assistant's words are a guess at what the user meant. 0 adds none. @default 0.15
   */
  answerNameWeight?: number;
  /**
   * Weight of the previous question's other content words, the everyday ones the specificity test leaves out
   * ("records", "options", "hook"): half the previous turn's, as they name the topic less surely than its specific
   * words. In documentation such words are the API's own vocabulary, which a follow-up continues. 0 adds none.
   * It is also the weight at which a question kept as typed ranks the previous question beside it (0: none). @default 0.15
   */
  previousWordWeight?: number;
}

export const EXPAND_DEFAULTS = Object.freeze({ historyWeight: 0.3, decay: 0.7, firstTurnWeight: 0.5, maxTerms: 12, answerNameWeight: 0.15, previousWordWeight: 0.15 } satisfies Required<ExpandOptions>);

export interface ResolvedQuery {
  /** The gate's decision, with specificity taken into account. */
  decision: GateDecision;
  /** The resolved question, as shown. */
  question: string;
  /**
   * What is searched: `text` is embedded and its words weigh 1; `terms` are
   * history words added to the lexical query below 1, heaviest first; `hedge`,
   * for a reference resolved by a guess, is also ranked and fused at `hedgeWeight`.
   */
  query: SearchedQuery;
  /** What was done, for traces. */
  reason: string;
  /** What a pronoun or demonstrative was read as (none when kept as typed or only a topic was appended). */
  antecedents: string[];
}

/**
 * Topics of the user's own turns: noun phrases scored by how specific their
 * words are here and how recent the turn is; the first turn keeps a floor, as
 * it usually names what the conversation is about. The assistant's phrases
 * count only when the user's turns offer none.
 */
/**
 * A sentence's subject counts as two mentions (centering: the subject is the highest-ranked entity of an
 * utterance and what a following pronoun most often continues). Sensitivity in docs/quality-log.md.
 */
const SUBJECT_WEIGHT = 2;
export function rankTopics(history: readonly HistoryTurn[], specificity: Specificity, options: ExpandOptions = {}, preamble = ''): Topic[] {
  const { decay, firstTurnWeight } = { ...EXPAND_DEFAULTS, ...options };
  // The current message's own preamble ("It sounds like the Tesla is fast. What …") is the most recent mention of all.
  const turns = preamble ? [...history, { user: preamble, assistant: '' }] : history;
  const score = (role: 'user' | 'assistant') => {
    const phrases = new Map<string, Topic>();
    const english = englishTexts(turns.map((t) => t[role]));
    turns.forEach((turn, i) => {
      const age = turns.length - 1 - i;
      const recency = i === 0 ? Math.max(firstTurnWeight, decay ** age) : decay ** age;
      if (!english[i]) return; // these phrase rules read English only
      const subjects = subjectPhrases(turn[role]);
      candidatePhrases(turn[role]).filter((p) => !isAspect(p)).forEach((phrase, position) => {
        const specific = phrase.toLowerCase().split(/\s+/).reduce((sum, w) => sum + specificity(w), 0);
        if (specific === 0) return;
        // Later phrases of a question carry its focus ("the symptoms of breast cancer"); its subject, what it is about.
        const subject = subjects.has(phrase.toLowerCase()) ? SUBJECT_WEIGHT : 1;
        const value = subject * specific * recency * (1 + 0.05 * Math.min(position, 3));
        const stems = stemsOf(phrase);
        const key = stems.join(' ');
        const topic = phrases.get(key);
        if (!topic || topic.score < value) phrases.set(key, { phrase, stems, score: value });
      });
    });
    return [...phrases.values()].sort((a, b) => b.score - a.score || a.phrase.localeCompare(b.phrase));
  };
  const own = score('user');
  return own.length ? own : score('assistant');
}

/** HQE's weighted history words: specific words of earlier user turns not already in the question. */
export function expansionTerms(question: string, fullHistory: readonly HistoryTurn[], specificity: Specificity, options: ExpandOptions = {}): WeightedTerm[] {
  const { maxTerms } = { ...EXPAND_DEFAULTS, ...options };
  if (!(maxTerms > 0)) return [];
  const history = readableHistory(fullHistory);
  const own = new Set(lexicalTerms(question));
  const weights = new Map<string, number>();
  history.forEach((turn, i) => {
    const weight = historyTurnWeight(i, history.length, options);
    for (const word of specificWords(turn.user, specificity)) {
      if (own.has(stemsOf(word)[0] ?? word)) continue;
      weights.set(word, Math.max(weights.get(word) ?? 0, weight));
    }
  });
  return [...weights].map(([term, weight]) => ({ term, weight }))
    .sort((a, b) => b.weight - a.weight || a.term.localeCompare(b.term))
    .slice(0, maxTerms);
}

/**
 * What a condensed question adds below its own words: HQE's history words (expansionTerms), then the names
 * the last answer wrote as code that neither the question nor those words hold ("Set throwOnTimeout: true."
 * then "and make that an error?"), then the previous question's everyday words ("How do I read all the records
 * in a store with idb?" then "can I get just the first ten?": read, records, store). A developer's follow-up continues the API the answer just
 * named and the vocabulary the last question used; the user's turns rarely spell such names, and an answer's
 * everyday words are too many to add (README, Quality; docs/quality-log.md). Identifiers are rare outside code, and a previous
 * question's everyday words weigh too little to outrank a passage the question's own words find.
 * At most `maxTerms` in all.
 */
function historyTerms(question: string, history: readonly HistoryTurn[], specificity: Specificity, options: ExpandOptions, aside: ReadonlySet<string> = new Set()): WeightedTerm[] {
  const { maxTerms, answerNameWeight, previousWordWeight } = { ...EXPAND_DEFAULTS, ...options };
  if (!(maxTerms > 0)) return [];
  const terms = expansionTerms(question, history, specificity, options).filter((t) => !aside.has(t.term));
  const taken = new Set([...lexicalTerms(question), ...terms.flatMap((t) => lexicalTerms(t.term))]);
  const fresh = (word: string) => word.length > 1 && !aside.has(word) && !taken.has(stemsOf(word)[0] ?? word);
  const readable = readableHistory(history);
  // A name the index holds as one word; one it splits ("JEST_WORKER_ID": jest, worker, id) adds only everyday words.
  const names = answerNameWeight > 0 ? new Set(namesInAnswer(readable.at(-1)?.assistant ?? '').map((name) => contentWords(name)).flatMap((words) => (words.length === 1 ? words : []))) : new Set<string>();
  const added = [...names].filter(fresh).map((term) => ({ term, weight: answerNameWeight }));
  for (const t of added) taken.add(stemsOf(t.term)[0] ?? t.term);
  const previous = lastQuestion(readable) ?? '';
  const words = previousWordWeight > 0 ? [...new Set(contentWords(previous))].filter((w) => fresh(w) && !INTERJECTIONS.has(w)) : [];
  return [...terms, ...added, ...words.map((term) => ({ term, weight: previousWordWeight }))].slice(0, maxTerms);
}

/** The last user turn that asks something: small talk ("thanks!", the gate's only reply) is no question to continue or pair with. */
export function lastQuestion(turns: readonly HistoryTurn[]): string | undefined {
  return turns.findLast((turn) => !isSmalltalk(turn.user))?.user;
}

/** The weight of the words of user turn `i` of `count`: recent turns more (decay per turn of age), the first turn at least its own weight. Rounded for traces. */
function historyTurnWeight(i: number, count: number, options: ExpandOptions): number {
  const { historyWeight, decay, firstTurnWeight } = { ...EXPAND_DEFAULTS, ...options };
  return Math.round(Math.max(i === 0 ? firstTurnWeight : 0, historyWeight * decay ** (count - 1 - i)) * 1000) / 1000;
}

/**
 * Words written as names (capitalized inside a sentence: "Michael Jackson",
 * "CrossFit") are specific whatever their general frequency: newswire makes
 * many names common words.
 */
export function withNames(specificity: Specificity, texts: readonly string[]): Specificity {
  const names = new Set<string>();
  for (const text of texts) {
    // One space between words, so the look-behind reads one character, not every space of a long run before each word.
    for (const m of text.replace(/\s+/g, ' ').matchAll(/(?<=[\p{L}\p{N},;:'"’)] )(\p{Lu}[\p{L}\p{N}-]*)/gu)) if (m[1] && m[1] !== 'I') names.add(m[1].toLowerCase());
    // Identifiers ("CORRUPT_INDEX", "onModelMismatch") and functions named with "()" ("start()"): one name, however everyday its parts.
    for (const name of namesInProse(text)) names.add(name.toLowerCase());
    // Acronyms and codes, wherever they stand ("2FA", "CCD", "GMO"): capitals, with digits or not, and no everyday word ("OK").
    for (const m of text.matchAll(/(?<![\p{L}\p{N}])(\p{N}*\p{Lu}[\p{Lu}\p{N}]+)(?![\p{L}\p{N}])/gu)) {
      const word = (m[1] ?? '').toLowerCase();
      if (/\p{Lu}.*\p{Lu}|\p{N}/u.test(m[1] ?? '') && generalSpecificity(word) >= SPECIFIC) names.add(word);
    }
  }
  return (word) => {
    // The index holds a compound's parts ("p-queue": p, queue; "mustache.js"): it is as specific as its most specific part.
    const parts = /[\p{L}\p{N}][^\p{L}\p{N}\s]+[\p{L}\p{N}]/u.test(word) ? contentWords(word) : [];
    const s = parts.length > 1 ? Math.max(...parts.map((part) => specificity(part))) : specificity(word);
    return names.has(word.toLowerCase()) ? Math.max(s, SPECIFIC) : s;
  };
}

/** The history weight of a word: that of the most recent (or first) user turn that holds it. */
function turnWeight(word: string, history: readonly HistoryTurn[], options: ExpandOptions): number {
  let weight = 0;
  history.forEach((turn, i) => {
    if (contentWords(turn.user).includes(word)) weight = Math.max(weight, historyTurnWeight(i, history.length, options));
  });
  return weight;
}

/**
 * The user's earlier turns as this condenser resolved them, each with the
 * turns before it: "What are they used for?" after "What are Cubesats?" counts
 * as a second mention of Cubesats. The entity a conversation keeps returning
 * to is what its next pronoun most likely means (centering: the
 * backward-looking center persists), and only resolved turns show it.
 */
export function resolveHistory(history: readonly HistoryTurn[], specificity: Specificity, options: ExpandOptions = {}): HistoryTurn[] {
  return readHistory(history, specificity, options).turns;
}

/** resolveHistory, with what each turn's references were read as (user-named antecedents only). */
function readHistory(history: readonly HistoryTurn[], specificity: Specificity, options: ExpandOptions): { turns: ReadTurn[]; antecedents: Center[] } {
  const resolved: ReadTurn[] = [];
  const antecedents: Center[] = [];
  const userStems = new Set<string>();
  const persons = new Set<string>();
  // Only what each turn's references were read as is kept: its search words would be computed for nothing.
  const reading = { ...options, maxTerms: 0 };
  history.forEach((turn, i) => {
    // Only antecedents the user named: a phrase taken from an answer is a guess, and guesses must not reinforce themselves.
    const read = i === 0 || i < history.length - RESOLVED_TURNS ? undefined : resolveTurn(turn.user, history.slice(0, i), resolved.slice(), specificity, reading, antecedents.at(-1));
    const used = (read?.antecedents ?? []).filter((phrase) => stemsOf(phrase).every((st) => userStems.has(st)));
    for (const st of lexicalTerms(turn.user)) userStems.add(st);
    // The antecedent is a mention of its own, kept apart (in parentheses) so it never fuses with the turn's words.
    resolved.push({ user: used.length ? `${turn.user} (${used.join(') (')})` : turn.user, assistant: turn.assistant, ...(read?.decision.action === 'condense' ? { asked: read.question } : {}) });
    // "How about high cholesterol?" puts its alternative in place of what was asked about: the next "it" means it.
    const alternative = i > 0 ? alternativeOf(turn.user) : undefined;
    const instead = alternative ? candidatePhrases(alternative).filter((p) => !isAspect(p)).slice(0, 1) : [];
    // Small talk ("thanks!") is about nothing: the center before it carries over it.
    const smalltalk = decide(turn.user, i > 0).action === 'reply';
    const pronoun = read?.decision.reason === 'dangling-pronoun' ? read.decision.evidence[0]?.toLowerCase() : undefined;
    // Whoever "he" or "she" meant is a person from then on, and no later "it" or "they".
    // (Only a name: where none agreed, the pronoun fell back to the best topic, which says nothing of what it is.)
    if (pronoun && pronounKind(pronoun) === 'person') for (const phrase of used.filter(isWrittenAsName)) persons.add(stemsOf(phrase).join(' '));
    const previous = antecedents.at(-1) ?? { phrases: [] };
    antecedents.push({ ...(smalltalk ? previous : instead.length ? { phrases: instead } : { phrases: used, pronoun }), persons: [...persons] });
  });
  return { turns: resolved, antecedents };
}

/** An earlier turn as read: its antecedents in parentheses after the user's words, and the question it was searched as where it was condensed. */
interface ReadTurn extends HistoryTurn { asked?: string }

/** What the previous user turn's references were read as, and the pronoun that referred to it (none for an alternative or a definite). */
interface Center { phrases: readonly string[]; pronoun?: string | undefined; persons?: readonly string[] }

/** True when `word` in `text` is a pronoun, not a determiner: it determines no noun after it ("fix that?", "that is", "is that safe?", not "that refund"). */
function standsAlone(text: string, word: string): boolean {
  const tokens = tokenize(text);
  const at = referenceIndex(text, tokens, word);
  return at >= 0 && !determinesNext(text, tokens, at);
}

/** he/she (one person), they (a plural or a group), it (a thing): a pronoun continues a center only of its own kind. */
function pronounKind(word: string): 'person' | 'plural' | 'thing' {
  const w = word.toLowerCase().replace(/['’]s$/, '');
  if (PERSONAL_PRONOUNS.has(w)) return 'person';
  return PLURAL_PRONOUNS.has(w) ? 'plural' : 'thing';
}

/** Turns resolved again for the topic ranking; older ones count as typed (their weight is ≤ 0.7¹⁰ anyway). */
const RESOLVED_TURNS = 10;

/**
 * Gate, resolve, expand: one turn's query. Messages are read as written
 * (written-forms.ts): `forms` puts back the capitals of one typed all in
 * lower case, and contractions get their apostrophes, so a visitor on a
 * phone is read as one at a keyboard.
 */
export function resolveAndExpand(typed: string, fullHistory: readonly HistoryTurn[], corpusSpecificity: Specificity, options: ExpandOptions = {}, forms: WrittenForm = NO_FORMS): ResolvedQuery {
  // Read within bounds (read-bounds.ts): these rules run on the page's main thread, and no input may stall it.
  if (typed.trim().length > MAX_READ_QUESTION) {
    const reason = fullHistory.length > 0 ? 'long-message' : 'first-turn';
    return { decision: { action: 'keep', reason, evidence: [] }, question: typed, query: { text: typed, terms: [] }, reason: `kept as typed (${reason})`, antecedents: [] };
  }
  const compact = compactSpace(typed);
  const text = asWritten(compact, forms);
  const history = readableHistory(fullHistory).map((turn) => ({ ...turn, user: asWritten(turn.user, forms) }));
  const specificity = withNames(corpusSpecificity, [text, ...history.map((h) => h.user)]);
  const read = readHistory(history, specificity, options);
  const resolved = secondReference(resolveTurn(text, history, read.turns, specificity, options, read.antecedents.at(-1)), history, read.turns, specificity, options);
  // A question that stands alone is searched and shown exactly as typed (only its spacing tidied, as before).
  const previous = lastQuestion(history);
  return resolved.decision.action === 'condense'
    ? hedged(resolved, text, previous, Math.min(1, options.historyWeight ?? EXPAND_DEFAULTS.historyWeight))
    : besidePrevious({ ...resolved, question: compact, query: { text: compact, terms: [] } }, text, previous, Math.min(1, options.previousWordWeight ?? EXPAND_DEFAULTS.previousWordWeight));
}

/**
 * "how do I enable it there?": a question with two references resolves the first and is read again for a
 * place it points at as well ("how do I enable debug there?" → "… in the browser"), once, when both readings
 * replace their reference (no topic appended for context).
 */
function secondReference(first: ResolvedQuery, history: readonly HistoryTurn[], resolvedHistory: readonly ReadTurn[], specificity: Specificity, options: ExpandOptions): ResolvedQuery {
  // Read again only a question that still says "there": the other nearly every condensed question would pay for nothing.
  if (first.decision.action !== 'condense' || first.decision.reason !== 'dangling-pronoun' || first.question.includes('(') || !/\bthere\b/i.test(first.question)) return first;
  const again = resolveTurn(first.question, history, resolvedHistory, specificity, options, { phrases: [] }, false);
  const word = again.decision.evidence[0]?.toLowerCase();
  // Only a place ("there"): a second pronoun or possessive mostly means what the first did ("How did he lose his finger?").
  if (again.decision.action !== 'condense' || again.decision.reason !== 'dangling-pronoun' || word !== 'there' || first.decision.evidence.some((e) => e.toLowerCase() === word) || again.question.includes('(')) return first;
  const weights = new Map<string, number>();
  for (const t of [...first.query.terms, ...again.query.terms]) weights.set(t.term, Math.max(weights.get(t.term) ?? 0, t.weight));
  const terms = [...weights].map(([term, weight]) => ({ term, weight })).sort((a, b) => b.weight - a.weight || a.term.localeCompare(b.term));
  return {
    decision: { ...first.decision, evidence: [...first.decision.evidence, ...again.decision.evidence] },
    question: again.question, query: { text: again.query.text, terms }, reason: `${first.reason}; ${again.reason}`, antecedents: [...first.antecedents, ...again.antecedents],
  };
}

/**
 * `center`: what the previous user turn's references were read as. A pronoun
 * that turn used keeps meaning the same thing in this one (centering: the
 * entity a speaker refers to by a pronoun is the one the conversation is
 * about, and a further pronoun continues it), even where that turn also named
 * something newer ("How does it compare to Amazon Prime Video?" then "What is
 * its subscriber growth?": still Netflix).
 */
function resolveTurn(text: string, history: readonly HistoryTurn[], resolvedHistory: readonly ReadTurn[], specificity: Specificity, options: ExpandOptions, center: Center = { phrases: [] }, repeat = true): ResolvedQuery {
  const { preamble, ask: typedAsk } = splitPreamble(text);
  // "Now it stopped working. Why?", "What do the guidelines say? Why?": a bare question asks about what the
  // message said just before it, so that is what is resolved (or kept), and the bare question follows as typed.
  // The statement resolved, the question after it as typed; undefined where the statement needs nothing.
  const statementFirst = (): ResolvedQuery | undefined => {
    const said = resolveTurn(preamble, history, resolvedHistory, specificity, options, center);
    return said.decision.action === 'condense' ? { ...said, question: `${said.question} ${typedAsk}`, query: { ...said.query, text: `${said.query.text} ${typedAsk}` } } : undefined;
  };
  const bare = preamble && history.length > 0 && BARE_ASK.test(typedAsk) ? statementFirst() : undefined;
  if (bare) return bare;
  // "can I do it from the command line?": the previous question's action, not a thing it named. The question with
  // the action in it is read again (once), as the action may hold a pronoun of its own ("run it without node").
  const repeated = repeat && history.length > 0 ? repeatedAction(typedAsk, resolvedHistory.at(-1)?.user ?? '') : undefined;
  if (repeated) {
    const question = preamble ? `${preamble} ${repeated.question}` : repeated.question;
    const read = `read “${repeated.evidence}” as “${repeated.action}”`;
    const inner = resolveTurn(question, history, resolvedHistory, specificity, options, center, false);
    // A pronoun the action holds, not a definite noun it bridges to: the action already came from the conversation.
    if (inner.decision.action === 'condense' && inner.decision.reason !== 'bridging') {
      return { ...inner, decision: { ...inner.decision, evidence: [repeated.evidence, ...inner.decision.evidence] }, reason: `${read}; ${inner.reason}`, antecedents: [repeated.action, ...inner.antecedents] };
    }
    const terms = specificWords(repeated.question, specificity).length <= 1 ? historyTerms(question, history, specificity, options) : [];
    const decision = { action: 'condense' as const, reason: 'dangling-pronoun' as const, evidence: [repeated.evidence] };
    return { decision, question, query: { text: question, terms }, reason: read, antecedents: [repeated.action] };
  }
  const first = gateBySpecificity(text, history.length > 0, specificity, typedAsk);
  // "They met at the Kit Kat Club? Where is that?": the question points at the statement before it, which itself
  // points back ("they"); the statement is resolved, and the question follows it as typed.
  const pointingStatement = preamble && first.action === 'keep' && pointsBack(preamble) ? statementFirst() : undefined;
  if (pointingStatement) return pointingStatement;
  // "the College" → "the Electoral College", before anything else reads the question.
  // A demonstrative before a noun ("this theory") is read like "the theory" (demonstratives the gate flagged only).
  const demonstrative = first.reason === 'demonstrative' ? first.evidence[0]?.toLowerCase() : undefined;
  const definite = first.action === 'reply' || history.length === 0 ? null : resolveDefinites(typedAsk, history, specificity, demonstrative);
  const ask = definite?.antecedents.length ? definite.question : typedAsk;
  // Read again with the fuller names: "What was the impact of the Lewis and Clark expedition?" now names its topic.
  const again = definite?.antecedents.length ? gateBySpecificity(preamble ? `${preamble} ${ask}` : ask, true, specificity, ask, false) : first;
  const decision = definite?.antecedents.length && again.action === 'keep' ? { action: 'condense' as const, reason: 'definite-description' as const, evidence: definite.evidence } : again;
  if (decision.action !== 'condense') return { decision, question: text, query: { text, terms: [] }, reason: `kept as typed (${decision.reason})`, antecedents: [] };
  if (decision.reason === 'definite-description') {
    const question = preamble ? `${preamble} ${ask}` : ask;
    const antecedents = definite?.antecedents ?? [];
    const terms = specificWords(text, specificity).length <= 1 ? historyTerms(question, history, specificity, options) : [];
    return { decision, question, query: { text: question, terms }, reason: readDefinites({ antecedents, evidence: decision.evidence }), antecedents };
  }
  // A topic the question already names is no antecedent ("tiger sharks (sharks)").
  const own = new Set(lexicalTerms(ask));
  // Only a personal pronoun ("it", "they"), not a demonstrative ("that", which points at what was just
  // mentioned rather than at what the conversation is about), and only when nothing came in between: a
  // statement before the question ("You also mentioned rain gardens. How do they compare?") is the newer utterance.
  const personal = ANAPHORIC_PRONOUNS.has((decision.evidence[0] ?? '').toLowerCase().replace(/['’]s$/, ''));
  // The same kind of pronoun: "How did he cook it?" after "Why did Ben Franklin want it …": "he" continued Ben Franklin, and "it" is not he.
  const pronoun = (decision.evidence[0] ?? '').toLowerCase().replace(/['’]s$/, '');
  const kind = pronounKind(pronoun);
  const sameKind = center.pronoun === undefined || pronounKind(center.pronoun) === kind;
  const continues = decision.reason === 'dangling-pronoun' && personal && !preamble && sameKind ? center.phrases.map((phrase) => stemsOf(phrase).join(' ')) : [];
  // Locative "there" means a place: a phrase the user put after "in", "at", "near", … ("the best Yakiniku
  // restaurants in Tokyo" → Tokyo), ahead of more salient phrases that are no place.
  const place = decision.evidence[0] === 'there' ? history.map((h) => h.user) : [];
  const isPlace = (t: Topic) => place.some((u) => new RegExp(`\\b(?:in|at|near|around|from|visit|visiting)\\s+(?:the\\s+)?${escapeRegExp(t.phrase)}\\b`, 'i').test(u));
  // "how do I fix that?": a demonstrative standing alone points at what was just said (discourse deixis), so the
  // previous user turn's phrases come first; "that refund" names its noun and is read like "the refund".
  const pointing = decision.reason === 'demonstrative' && standsAlone(ask, decision.evidence[0] ?? '');
  const justSaid = pointing ? new Set(candidatePhrases(resolvedHistory.at(-1)?.user ?? '').map((p) => stemsOf(p).join(' '))) : new Set<string>();
  const centered = (topics: Topic[]) => {
    const recent = justSaid.size ? topics.filter((t) => justSaid.has(t.stems.join(' '))) : [];
    if (recent.length) topics = [...recent, ...topics.filter((t) => !recent.includes(t))];
    const places = place.length ? topics.filter(isPlace) : [];
    if (places.length) topics = [...places, ...topics.filter((t) => !places.includes(t))];
    const things = decision.reason !== 'dangling-pronoun' || kind === 'person' ? topics : topics.filter((t) => !center.persons?.includes(t.stems.join(' ')));
    if (things.length) topics = things;
    const at = topics.findIndex((t) => continues.includes(t.stems.join(' ')));
    if (at > 0) topics = [topics[at] as Topic, ...topics.slice(0, at), ...topics.slice(at + 1)];
    // "What was he known for?" where no user turn names a person: the one the answers talk about.
    const person = kind === 'person' && decision.reason === 'dangling-pronoun' && !agreeingTopic(pronoun, topics) ? answerPerson(history.map((h) => h.assistant)) : undefined;
    return person ? [{ phrase: person, stems: stemsOf(person), score: topics[0]?.score ?? 1 }, ...topics] : topics;
  };
  const rank = (h: readonly HistoryTurn[]) => (h === history ? centered(rankTopics(resolvedHistory, specificity, options, preamble).filter((t) => !t.stems.every((st) => own.has(st)))) : rankTopics(h, specificity, options));
  // An ellipsis continues the previous question as it was searched (its trace), not as the rules alone would read it.
  const asked = (turn: HistoryTurn) => resolvedHistory[history.indexOf(turn)]?.asked;
  const restated = pointing && !preamble ? restatedPrevious(ask, decision.evidence[0] ?? '', history, specificity, options) : undefined;
  if (restated) return { ...restated, decision };
  const resolved = condenseWithRules(ask, history, decision, 0, rank, asked);
  // "what's the default for that option?" where no topic is an option: a demonstrative points at what was just said
  // (the previous question or its answer), which the conversation's main topic appended for context is not.
  const unnamed = resolved.unnamed !== undefined && !preamble ? restatement(ask, history, specificity, options, `read “${resolved.unnamed}” as what the previous question said`) : undefined;
  if (unnamed) return { ...unnamed, decision };
  const question = preamble ? `${preamble} ${resolved.question}` : resolved.question;
  // "Okay. I'd like to spend time with my baby while working out. Any ideas for that?", "Are sharks endangered?
  // If so, which species?": a demonstrative or fragment that resolves to nothing but words of the message's own
  // earlier sentences is answered by the message itself, which is searched whole; as typed, it reads as meant.
  if (preamble && SELF_REFERENCE_REASONS.has(decision.reason)) {
    const typedWords = new Set(contentWords(ask));
    const brought = contentWords(resolved.question).filter((w) => !typedWords.has(w));
    const stated = new Set(contentWords(preamble));
    if (brought.length > 0 && brought.every((w) => stated.has(w))) {
      return { decision: { action: 'keep', reason: 'self-contained', evidence: brought }, question: text, query: { text, terms: [] }, reason: 'kept as typed (self-contained: its reference is in the same message)', antecedents: [] };
    }
  }
  // A resolved reference with two or more specific words of its own needs no more help.
  const ownSpecific = specificWords(text, specificity).length;
  const expand = !REFERENCE_REASONS.has(decision.reason) || ownSpecific <= 1;
  // A name the user put aside ("and Plus?" after "the Pro plan") is no context for what they ask now.
  const aside = new Set((resolved.replaced ?? []).flatMap((name) => contentWords(name)));
  const terms = expand ? historyTerms(question, history, specificity, options, aside) : [];
  const added = terms.length ? `; + ${terms.slice(0, 4).map((t) => `${t.term} ${t.weight}`).join(', ')}${terms.length > 4 ? ', …' : ''}` : '';
  // A topic the resolution appended in parentheses ("how long does the refund take (refund window)?")
  // is context, searched at the weight of the turn that named it (as history words are), not at the
  // weight of the words typed; replaced pronouns and spliced ellipses are searched as written.
  // Only where the user named what they ask about in their own words ("that refund", or a full question
  // with no specific word); a topic appended to a fragment or a comparison is what it asks about.
  const context = decision.reason === 'implicit-topic' || decision.reason === 'bridging' || decision.reason === 'demonstrative' || decision.reason === 'missing-argument' || decision.reason === 'substitution' ? /\s*\(([^()]*)\)(?=[?.!\s]*$)/.exec(resolved.question) : null;
  // A definite description read on the way ("the College" → "the US Electoral College") is an antecedent too, and said so.
  const antecedents = [...(definite?.antecedents ?? []), ...(resolved.antecedents ?? [])];
  // "the team" says which one only with the conversation: the trace names the phrase it read that way.
  const bridged = decision.reason === 'bridging' ? `read “the ${decision.evidence[0] ?? ''}” as the conversation's; `
    : decision.reason === 'substitution' ? `read “${decision.evidence[0] ?? ''}” with a noun the conversation said; ` : '';
  const read = `${definite?.antecedents.length ? `${readDefinites(definite)}; ` : ''}${bridged}`;
  if (!context) return { decision, question, query: { text: question, terms }, reason: `${read}${resolved.reason}${added}`, antecedents };
  const searched = resolved.question.slice(0, context.index) + resolved.question.slice(context.index + context[0].length);
  const typed = new Set(contentWords(searched));
  const topic = [...new Set(contentWords(context[1] ?? ''))].filter((w) => !typed.has(w)).map((term) => ({ term, weight: turnWeight(term, history, options) }));
  const merged = [...topic, ...terms.filter((t) => !topic.some((x) => x.term === t.term))];
  return { decision, question, query: { text: preamble ? `${preamble} ${searched}` : searched, terms: merged }, reason: `${read}${resolved.reason} (as context)${added}`, antecedents };
}

/**
 * "how do I stop that?" after "will it find eslint from my node_modules?": the demonstrative points at what the
 * previous question described (discourse-deixis.ts), so that question, as the user typed it, is put before this one
 * and both are searched, where a noun phrase read for "that" ("how do I stop grep?") pulls toward the wrong
 * section. Undefined where the demonstrative is no action's object or no earlier question is there.
 */
function restatedPrevious(ask: string, word: string, history: readonly HistoryTurn[], specificity: Specificity, options: ExpandOptions): Omit<ResolvedQuery, 'decision'> | undefined {
  if (pointsAtPrevious(ask) !== word.toLowerCase()) return undefined;
  return restatement(ask, history, specificity, options, `read “${word}” as what the previous question described`);
}

/**
 * The previous question restated before this one, both searched at full weight, with the history words of a turn
 * whose own words are not specific enough; for a demonstrative whose referent was said just before and named by
 * no topic (restatedPrevious, and "that option" where no topic is an option). Undefined where no question came before.
 */
function restatement(ask: string, history: readonly HistoryTurn[], specificity: Specificity, options: ExpandOptions, reason: string): Omit<ResolvedQuery, 'decision'> | undefined {
  const typed = lastQuestion(history);
  if (typed === undefined) return undefined;
  // As typed, not as resolved: "will it find eslint …?" had been read "will grep find eslint …?", and a wrong guess
  // restated is a wrong guess searched twice (as typed ranks as well or better on every set; a fragment's spliced
  // question instead of the fragment as typed moved nothing but one CAsT 2021 turn, 3 → 4).
  const said = lastSentences(typed, RESTATED_CHARS);
  const previous = /[.?!]$/.test(said) ? said : `${said}?`;
  const question = `${previous} ${ask}`;
  const terms = specificWords(ask, specificity).length <= 1 ? historyTerms(question, history, specificity, options) : [];
  return { question, query: { text: question, terms }, reason, antecedents: [] };
}

/** How much of the previous message a restatement repeats: a question and the sentence or two before it, not a pasted log. */
const RESTATED_CHARS = 300;

/** The last sentences of `text` within `max` characters (the last one whole, however long it is). */
function lastSentences(text: string, max: number): string {
  const sentences = sentencesOf(text.trim());
  let kept = sentences.pop() ?? '';
  for (let s = sentences.pop(); s !== undefined && s.length + 1 + kept.length <= max; s = sentences.pop()) kept = `${s} ${kept}`;
  return kept;
}
