/**
 * The condenser's gate with the corpus's statistics: whether a later turn
 * leans on the conversation. Reference-type decisions of the English gate
 * (rules/gate.ts) stand; otherwise a turn that names something specific in
 * the user's own index stands alone, and one that names nothing specific is
 * condensed ("What are common treatments?"). Also how a message splits into
 * the statements before its question and the question itself.
 */
import { contentWords } from '../text/tokens';
import { decide, type GateDecision, type GateReason } from './rules/gate';
import { isContentWord, isNoun, looksPlural } from './rules/words';
import { SPECIFIC, type Specificity } from './specificity';
import { candidatePhrases, isAspect } from './rules/topics';
import { sentencesOf } from './rules/sentences';
import { ANAPHORIC_PRONOUNS, ELLIPSIS_OPENERS, INTERJECTIONS } from './rules/word-lists';
import { escapeRegExp } from '../util/escape-regexp';
import { bridgingDefinite, descriptiveName } from './bridging';

/** Decisions that need an antecedent whatever else the turn says. */
export const REFERENCE_REASONS: ReadonlySet<GateReason> = new Set(['dangling-pronoun', 'demonstrative', 'ellipsis', 'which-one', 'substitution', 'comparative', 'definite-description', 'missing-argument']);

/** Content words of `text` at least SPECIFIC in this corpus. */
export function specificWords(text: string, specificity: Specificity): string[] {
  return [...new Set(contentWords(text))].filter((w) => specificity(w) >= SPECIFIC && !INTERJECTIONS.has(w));
}

/**
 * The gate with specificity: reference-type decisions stand (they need an
 * antecedent whatever else the turn says); otherwise a later turn is
 * condensed exactly when none of its words is specific in this corpus.
 */
export function gateBySpecificity(text: string, hasHistory: boolean, specificity: Specificity, ask = text, typedNames = true): GateDecision {
  const decision = decide(ask, hasHistory);
  if (decision.action === 'reply' || !hasHistory) return decision;
  if (decision.reason === 'other-script' || decision.reason === 'topic-switch') return decision;
  // "Oat seems popular now. Why?", "… drink wine with dinner. Is that true?": a bare question after a statement
  // that names something specific asks about that statement; the conversation has nothing to add. A question
  // with words of its own ("How are they related?") or a pronoun may still point further back.
  const preamble = ask === text ? '' : splitPreamble(text).preamble;
  const introduced = preamble ? namedTopics(preamble, specificity) : [];
  const bare = contentWords(ask).filter((w) => !decision.evidence.includes(w)).length <= 1;
  if (decision.action === 'condense' && SELF_REFERENCE_REASONS.has(decision.reason) && bare && introduced.length > 0) {
    return { action: 'keep', reason: 'self-contained', evidence: introduced };
  }
  // "and how long does it take?" continues the conversation but asks a question of its own: specificity decides.
  const ownQuestion = decision.reason === 'ellipsis' && CONTINUED_QUESTION.test(ask.trim());
  if (decision.action === 'condense' && REFERENCE_REASONS.has(decision.reason) && !ownQuestion) return decision;
  // "in Canada?", "for kids?": a prepositional fragment continues the last question whatever it names.
  if (decision.reason === 'fragment' && PREPOSITIONAL.test(ask.trim())) return decision;
  const kept = ownTopic(text, ask, decision, specificity);
  if (!kept) return { action: 'condense', reason: decision.reason === 'fragment' ? 'fragment' : 'implicit-topic', evidence: contentWords(text) };
  // "What makes the batteries unique?": a definite noun of everyday words the conversation supplies, whatever else the
  // question names ("the relationship of Spider-Man to the team"); a statement before it may supply it instead.
  // "Is the Museum of Art free?": a name of everyday words, whose setting the conversation gives (only as typed: one
  // the conversation put in, "the US Electoral College" for "the College", came with its setting).
  const bridge = introduced.length > 0 ? undefined : bridgingDefinite(ask, specificity) ?? (typedNames ? descriptiveName(ask) : undefined);
  return bridge ? { action: 'condense', reason: 'bridging', evidence: [bridge] } : kept;
}

/** Whether a statement has a pronoun with no antecedent in it ("They met at …", "Maybe I could collect it …"). */
export function pointsBack(statement: string): boolean {
  const decision = decide(statement, true);
  return decision.action === 'condense' && decision.reason === 'dangling-pronoun';
}

/** How a later turn names a topic of its own, as a decision to keep it; undefined when it names none. */
function ownTopic(text: string, ask: string, decision: GateDecision, specificity: Specificity): GateDecision | undefined {
  const named = namedTopics(text, specificity);
  if (named.length > 0) return { action: 'keep', reason: 'self-contained', evidence: named };
  const owned = decision.reason === 'fragment' ? [] : ownedObjects(ask);
  if (owned.length > 0) return { action: 'keep', reason: 'self-contained', evidence: owned };
  // "How are anxiety and depression related?", "the relationship between inflation and unemployment": a relation
  // that names both its sides describes its subject, when the two together are as specific as a named phrase.
  const sides = BOTH_SIDES.exec(ask);
  if (sides && RELATION_WORDS.test(ask) && [sides[1], sides[2]].reduce((sum, w) => sum + specificity((w ?? '').toLowerCase()), 0) >= PHRASE_SPECIFIC) {
    return { action: 'keep', reason: 'self-contained', evidence: [`${sides[1]} and ${sides[2]}`] };
  }
  // "Tell me about the privacy issues in social networks": four or more topic words describe a subject of their own,
  // everyday as each may be (a follow-up that leans on the conversation rarely spells that much out).
  if (decision.reason !== 'fragment' && topicWordCount(ask) >= DESCRIBED_TOPIC_WORDS) return { action: 'keep', reason: 'self-contained', evidence: [...candidatePhrases(ask)] };
  const kind = genericSubject(ask);
  if (kind) return { action: 'keep', reason: 'self-contained', evidence: [kind] };
  const aspectOf = decision.reason === 'fragment' ? undefined : aspectOfTopic(ask);
  if (aspectOf) return { action: 'keep', reason: 'self-contained', evidence: [aspectOf] };
  return undefined;
}

/**
 * "How do I delete my account?": a verb whose object is the speaker's own thing ("my account") names what
 * it acts on, however everyday the noun. Not after a preposition ("is it safe on my garden?" may ask
 * about something named before) or an auxiliary or wh-word ("will my notes be gone?": a subject, whose
 * predicate may be what the conversation is about), not an aspect ("increase my levels"), not after an
 * ellipsis opener, not with "other"/"else" (which point back).
 */
function ownedObjects(ask: string): string[] {
  if (ELLIPSIS_OPENERS.test(ask.trim()) || /\b(?:other|else)\b/i.test(ask)) return [];
  return candidatePhrases(ask).filter((phrase) => {
    if (isAspect(phrase)) return false;
    const before = new RegExp(`\\b([\\p{L}'-]+)\\s+(?:my|our)\\s+${escapeRegExp(phrase)}\\b`, 'iu').exec(ask)?.[1]?.toLowerCase();
    return before !== undefined && !NO_VERB_BEFORE_OWNED.has(before);
  });
}

/** Words before "my …" that make it no verb's object: prepositions, auxiliaries, wh-words. */
const NO_VERB_BEFORE_OWNED: ReadonlySet<string> = new Set(`about for on in at to with from of by into onto over under near without like
  will would can could shall should may might must do does did is are was were am be have has had
  what where when why how who which whether if that`.split(/\s+/));

/** Two single words joined by "and" ("anxiety and depression"), and words that relate them. */
const BOTH_SIDES = /\b([\p{L}-]{3,}) and ([\p{L}-]{3,})\b/u;
const RELATION_WORDS = /\b(?:relat(?:ed|e|ionship|ion)|differen(?:ce|ces|t)|compare[ds]?|comparison|link(?:ed)?|connect(?:ed|ion))\b/i;

/** A question whose noun phrases hold this many words describes its own subject (3 and 5 measured in the README). */
const DESCRIBED_TOPIC_WORDS = 4;

/** Words that stand for a noun said before ("important ones", "the other"): no topic of their own. */
const PRO_FORMS: ReadonlySet<string> = new Set(['one', 'ones', 'other', 'others', 'same', 'former', 'latter', 'kind', 'sort']);

/**
 * "What are advantages of solar energy?", "modern examples of conflict theory": a noun asked of a topic
 * named in full, a bare noun phrase of two words or more ending the question (no article, demonstrative,
 * possessive or pro-form, which would point back: "the side effects of the treatment", "examples of
 * important ones"), so the question says what it is about, everyday as its words may be.
 */
function aspectOfTopic(ask: string): string | undefined {
  const match = /\b(?:(the|a|an)\s+)?([\p{L}-]+)\s+of\s+([\p{L}-]+(?:\s+[\p{L}-]+){1,3})(?=\s*[?.!,]|\s*$)/iu.exec(ask);
  // After an article a word is a noun, verb as it may be elsewhere ("the cost of solar power").
  if (!match || !(match[1] !== undefined || isNoun((match[2] ?? '').toLowerCase()))) return undefined;
  const words = (match[3] ?? '').split(/\s+/);
  if (!words.every((w) => isContentWord(w.toLowerCase()) && !ANAPHORIC_PRONOUNS.has(w.toLowerCase()) && !PRO_FORMS.has(w.toLowerCase()))) return undefined;
  return match[3];
}

/**
 * "Where are turkeys from?", "Why do cats purr?": a bare plural straight after the auxiliary is the
 * question's subject and names a kind, which is what the question is about. One word with at most one
 * more content word after it: a longer subject ("How do navigation systems work?") may be the part of
 * something named before, and a determiner ("the tickets", "any benefits") points back or quantifies.
 */
function genericSubject(ask: string): string | undefined {
  const match = /^(?:(?:what|where|why|how|when)\s+)?(?:is|are|do|does|did|was|were|can|could|will|would|should)\s+([\p{L}-]+)((?:\s+[\p{L}'-]+)?)\s*\??\s*$/iu.exec(ask.trim());
  const noun = match?.[1]?.toLowerCase() ?? '';
  if (!match || !isNoun(noun) || !looksPlural(noun) || isAspect(noun) || PRO_FORMS.has(noun) || ANAPHORIC_PRONOUNS.has(noun)) return undefined;
  return match[1];
}

function topicWordCount(text: string): number {
  return candidatePhrases(text).reduce((n, phrase) => n + phrase.split(/\s+/).length, 0);
}

/** Decisions whose reference a statement just before the question can satisfy (a pronoun may still point further back). */
export const SELF_REFERENCE_REASONS: ReadonlySet<GateReason> = new Set(['demonstrative', 'ellipsis', 'fragment']);

/** Questions that ask about what was just said and nothing else: "Why?", "How so?", "Is that true?", "Really?". */
export const BARE_ASK = /^(?:and\s+|but\s+|so\s+)?(?:why(?:\s+not)?|how(?:\s+so|\s+come)?|really|is\s+(?:that|it|this)\s+(?:true|right|so|correct)|what\s+for|since\s+when)\s*\?*\s*$/i;

// Not "and how about …", "and what about …": those open an ellipsis, whatever follows them.
const CONTINUED_QUESTION = /^(?:and|but|also|so|or|plus)\s+(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|can|could|will|would|should)\s+(?!about\b)\S+\s+\S+/i;
const PREPOSITIONAL = /^(?:about|with|for|of|in|on|to|at|from|by|into|than|like|as|and|or|but|if|so|because|after|before|since|during|without|within|between|over|under)\b/i;

/**
 * What a turn names that is specific here: a specific word, or a phrase whose
 * words together are ("lung cancer": two everyday words, one specific topic).
 */
export function namedTopics(text: string, specificity: Specificity): string[] {
  const words = specificWords(text, specificity);
  const phrases = candidatePhrases(text).filter((p) => p.includes(' ') && p.toLowerCase().split(/\s+/).reduce((sum, w) => sum + specificity(w), 0) >= PHRASE_SPECIFIC);
  return [...words, ...phrases];
}

/** A phrase names something specific when its words' specificities add up to this (1.5 × SPECIFIC). */
const PHRASE_SPECIFIC = 1.5 * SPECIFIC;

/**
 * Splits a message into the statements before its last question and the
 * question itself: "That's interesting. How is it defined?" → ("That's
 * interesting.", "How is it defined?"). A message that is not a question stays whole.
 */
export function splitPreamble(text: string): { preamble: string; ask: string } {
  const sentences = sentencesOf(text);
  // Many leave out the question mark: a last sentence with no closing punctuation, worded as a question, is one.
  const last = sentences.findLastIndex((x, i) => /\?\s*$/.test(x) || (i === sentences.length - 1 && !/[.!…]\s*$/.test(x) && INTERROGATIVE.test(x)));
  if (last <= 0) return { preamble: '', ask: text.trim() };
  return { preamble: sentences.slice(0, last).join(' '), ask: sentences.slice(last).join(' ') };
}

/** A sentence worded as a question: a wh-word or an auxiliary first, after a discourse word or two ("and", "okay so") or a short phrase and a comma ("If so,", "More broadly,"). */
const INTERROGATIVE = /^(?:[^,;:]{1,30},\s*)?(?:(?:and|but|so|also|then|ok|okay|well|oh|now|plus|or)\b[\s,]+){0,2}(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|am|do|does|did|can|could|will|would|should|shall|may|might|must|has|have|had|isn['’]?t|aren['’]?t|wasn['’]?t|don['’]?t|doesn['’]?t|didn['’]?t|can['’]?t|won['’]?t)\b/i;
