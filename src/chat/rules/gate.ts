/**
 * The standalone gate: decides, per turn and deterministically, whether a
 * question is used as typed, condensed with the conversation, or answered as
 * small talk without retrieval, and says why in a machine-readable reason.
 * Conservative by design: it condenses only on positive evidence of a
 * dangling reference or an elliptical fragment, so a question that already
 * names its own topic (or is in a language these English rules do not cover)
 * goes to retrieval exactly as typed.
 */
import { MAX_READ_QUESTION } from './read-bounds';
import { missingArgument } from './missing-argument';
import { nominalEllipsis } from './nominal-ellipsis';
import { isSmalltalk } from './smalltalk';
import { tokenize, type Token } from './tokenize';
import { isContentWord, isEverydayWord, isNoun, looksPlural, NOT_NOUNS, POSSESSIVE_PRONOUNS } from './words';
import {
  ANAPHORIC_PRONOUNS, AUXILIARIES, BARE_FOLLOWUPS, COMMON_VERBS, COMPARATIVES, DEMONSTRATIVES, DETERMINERS, ELLIPSIS_OPENERS, EXPLETIVE_IT_COMPLEMENTS, FUNCTION_WORDS, PLURAL_PRONOUNS, QUESTION_AUXILIARIES,
  COPULAS, TIME_NOUNS, TOPIC_SWITCH, WH_WORDS,
} from './word-lists';

export type GateReason =
  /** Kept: there is no history to depend on. */
  | 'first-turn'
  /** Kept: names its own topic and has no dangling reference. */
  | 'self-contained'
  /** Kept: opens with a topic-switch phrase ("now, …", "different question: …") and stands alone. */
  | 'topic-switch'
  /** Kept: mostly non-Latin script; these English rules cannot judge it. */
  | 'other-script'
  /** Kept: longer than the condenser reads (MAX_READ_QUESTION, 2,000 characters); a message that long states its own subject. */
  | 'long-message'
  /** Kept: the condenser's code could not be fetched (the standalone element, its connection lost before a follow-up); searched as typed. */
  | 'condenser-unavailable'
  /** Reply without retrieval: greeting, thanks or acknowledgement. */
  | 'smalltalk'
  /** Condense: a pronoun with no antecedent in the question (it, they, her…). */
  | 'dangling-pronoun'
  /** Condense: this/that/these/those pointing outside the question. */
  | 'demonstrative'
  /** Condense: an elliptical continuation ("what about X?", "and X?", "why?") or a repair ("No, I meant X."). */
  | 'ellipsis'
  /** Condense: which one / the other / the former / the latter. */
  | 'which-one'
  /** Condense: a comparative with nothing to compare ("cheaper?", "which is better?") or a superlative with its noun left out ("what is the best in my latte?"). */
  | 'comparative'
  /** Condense: a noun left to the conversation after a modifier or quantifier ("Islamic ones", "the static one", "can any go …?"). */
  | 'substitution'
  /** Condense: too few content words to name a topic ("in Canada?", "price?"). */
  | 'fragment'
  /** Condense: only everyday words, no specific topic named ("what are the main benefits?"). */
  | 'implicit-topic'
  /** Condense: "the College" after "the Electoral College", "Bench" after "Johnny Bench": a definite noun or a name the conversation said more fully. */
  | 'definite-description'
  /** Condense: a definite noun of everyday words whose referent the conversation supplies ("the batteries", "the team"), or a name of everyday words whose setting it supplies ("the Museum of Art", "the 321 method"). */
  | 'bridging'
  /**
   * Condense: a relation with one side unnamed ("the impact on biology", "the role of melatonin", "what kind should I get?"),
   * a version of something unnamed ("the variants"), help with no goal ("does melatonin help?"), a process or an account
   * with no object ("after production", "a simpler explanation").
   */
  | 'missing-argument';

export interface GateDecision {
  action: 'keep' | 'condense' | 'reply';
  reason: GateReason;
  /** The words that triggered the decision, for traces. */
  evidence: string[];
}

const EXTRAPOSING_VERBS = new Set(['mean', 'means', 'take', 'takes', 'took', 'cost', 'costs', 'matter', 'matters', 'help', 'helps', 'hurt', 'hurts', 'pay', 'pays', 'make', 'makes', 'feel', 'feels', 'seem', 'seems']);
/** Verbs and adjectives whose "to" is a preposition ("compare to", "similar to"), never an infinitive's. */
const TO_TAKING = new Set(['compare', 'compares', 'relate', 'relates', 'contribute', 'contributes', 'belong', 'belongs', 'lead', 'leads', 'refer', 'refers', 'respond', 'responds', 'react', 'reacts', 'happen', 'happens', 'similar', 'close', 'due', 'next', 'equivalent', 'relative', 'compared', 'related', 'linked', 'connected', 'opposed']);
const SUBORDINATORS = new Set(['if', 'when', 'because', 'once', 'after', 'before', 'since', 'while', 'although', 'though', 'whenever', 'unless']);
/**
 * Fixed expressions with "the other" that point back at nothing: a sequence ("one after the other"), a contrast
 * ("on the other hand"), a time ("the other day"). "one or the other", "the other way around" do point back.
 */
const IDIOMATIC_OTHER = /\bone (?:after|behind) the other\b|\bon the other hand\b|\bthe other day\b/gi;
// "the other", "the same one" point back; "the same note", "the first step" name a noun of their own.
const WHICH_ONE = /\b(?:which|what) (?:one|ones)\b|\b(?:popular|good|best|main|other|famous|cheap|new|old|big|small|different|similar|common) ones\b|\bthe (?:other|former|latter)\b|\bthe (?:same|first|second|last|next|previous) (?:one|ones)\b|\b(?:either|neither|both) (?:one|of them)\b/i;
const LEADING_ACK = /^(?:(?:hi|hello|hey|thanks|thank you|thx|ok(?:ay)?|great|cool|perfect|got it|alright|sure|nice|i see)\b[\s!,.;:-]*)+/i;


function mostlyNonLatin(text: string): boolean {
  const letters = text.match(/\p{L}/gu) ?? [];
  const latin = text.match(/\p{Script=Latin}/gu) ?? [];
  return letters.length > 0 && latin.length / letters.length < 0.5;
}


/** "it" as a dummy subject: "is it possible…", "it's worth…", "how long does it take to ship a parcel". */
function isExpletiveIt(tokens: readonly Token[], i: number): boolean {
  const next = tokens[i + 1]?.word;
  const after = tokens[i + 2]?.word;
  const prev = tokens[i - 1]?.word;
  // Idioms: "make it into the Hall of Fame" (succeed), "what was it like during …" (the situation that follows).
  if (prev && /^mak(?:e|es|ing)$|^made$/.test(prev) && next && /^(?:into|to|through|out|big|home)$/.test(next)) return true;
  if (next === 'like' && (prev === 'is' || prev === 'was' || prev === 'be') && tokens.slice(i + 2).filter((t) => isContentWord(t.word)).length >= 2) return true;
  if ((next === 'is' || next === "it's" || next === 'was' || prev === 'is' || prev === 'was') && (after && EXPLETIVE_IT_COMPLEMENTS.has(after) || next && EXPLETIVE_IT_COMPLEMENTS.has(next))) return true;
  // "what does it mean to…", "it costs … to…", "it takes … to…": a dummy subject before an infinitive.
  if (next && EXTRAPOSING_VERBS.has(next) && tokens.slice(i + 2, i + 6).some((t) => t.word === 'to')) return true;
  // "what does it use to serialize …": the subject of a verb that takes no extraposed infinitive is a real pronoun.
  if (next && COMMON_VERBS.has(next) && !EXTRAPOSING_VERBS.has(next) && !AUXILIARIES.has(next)) return false;
  // Extraposition: "it takes/costs … to <verb> <object>" names its own topic after "to";
  // "how likely is it to spread" has no object there, so "it" still points back. A predicate must
  // stand between "it" and "to": in "want it to be …" it is an object, and in "how is it related
  // to X" / "how does it compare to X" the "to" belongs to the verb, not to an infinitive.
  const to = tokens.findIndex((t, j) => j > i && t.word === 'to');
  const beforeTo = tokens[to - 1]?.word ?? '';
  if (to <= i + 1 || /ed$/.test(beforeTo) || TO_TAKING.has(beforeTo)) return false;
  // "Is it easier to learn than Spanish?": the infinitive's object is what "than" compares, so "it" is that object.
  const than = tokens.findIndex((t, j) => j > to && (t.word === 'than' || t.word === 'as'));
  return to <= i + 4 && tokens.slice(to + 1, than < 0 ? undefined : than).filter((t) => isContentWord(t.word)).length >= 2;
}

/** A pronoun after a clause or sentence boundary, with a noun before it, refers inside the message. */
function hasInternalAntecedent(text: string, tokens: readonly Token[], i: number): boolean {
  const before = tokens.slice(0, i);
  // "What is mortadella and where is it from?": a coordinated second question refers to the first.
  const coordinated = before.some((t, j) => COORDINATORS.has(t.word) && WH_WORDS.has(tokens[j + 1]?.word ?? '') && tokens.slice(0, j).some((x) => isNoun(x.word)));
  // "feijoada and its significance": a possessive joined to a noun phrase belongs to it.
  if (POSSESSIVE_PRONOUNS.has(tokens[i]?.word ?? '') && COORDINATORS.has(tokens[i - 1]?.word ?? '') && isNoun(tokens[i - 2]?.word ?? '')) return true;
  // "after him", "since then": a subordinator right before the pronoun is a preposition taking it as object, no clause boundary.
  // "as they are generated", "when it breaks": right before a subject pronoun and its verb, a subordinator opens a clause.
  const subordinated = (SUBORDINATORS.has(tokens[i - 1]?.word ?? '') || tokens[i - 1]?.word === 'as') && SUBJECT_FORMS.has(tokens[i]?.word ?? '');
  const opensClause = subordinated && AUXILIARIES.has(tokens[i + 1]?.word ?? '');
  // "can a task give up if it takes too long?": before a main verb too, but then only a noun phrase with its
  // determiner is taken for the antecedent ("what should I send back if it fails?": "back" is no noun phrase).
  const beforeVerb = subordinated && !opensClause && COMMON_VERBS.has(tokens[i + 1]?.word ?? '');
  const boundary = coordinated || opensClause || beforeVerb || before.some((t, j) => SUBORDINATORS.has(t.word) && j < i - 1) || /[,;.!?]/.test(text.slice(0, tokens[i]?.index ?? 0));
  // Only a noun can be an antecedent: "what happens if it goes untreated?" has a verb before "if", and "it" still points back.
  // And one that agrees in number: in "Besides inventive flavors, what made it successful?" "it" is not the flavors.
  const pronoun = tokens[i]?.word ?? '';
  // "to improve it": a word after the infinitive's "to" is its verb, and so is the word that takes the pronoun as its object.
  const verbOf = (j: number) => (before[j - 1]?.word === 'to' && !TO_TAKING.has(before[j - 2]?.word ?? '')) || (j === i - 1 && OBJECT_FORMS.has(pronoun));
  const noun = (t: Token | undefined, j: number) => t !== undefined && isNoun(t.word) && !(/ing$/.test(t.word) && SUBORDINATORS.has(before[j - 1]?.word ?? '')) && !verbOf(j);
  // "my HTTP client sets its own agent", "give each worker its own port": "its own" is the clause's own noun's.
  if (POSSESSIVE_PRONOUNS.has(pronoun) && tokens[i + 1]?.word === 'own' && before.some((t, j) => noun(t, j) && !/[,;.!?]/.test(text.slice(t.index, tokens[i]?.index ?? 0)))) return true;
  const nouns = before.filter((t, j) => noun(t, j));
  // A phrase's head is its last word ("inventive flavors" is plural): a singular must be a head. A plural may sit
  // anywhere ("when customers cancel": "cancel" is a verb these rules cannot tell from a noun), or be two nouns.
  const determined = (j: number) => { let k = j - 1; while (k >= 0 && noun(before[k], k)) k--; return DETERMINERS.has(before[k]?.word ?? ''); };
  const heads = before.filter((t, j) => noun(t, j) && !noun(before[j + 1], j + 1) && (!beforeVerb || determined(j)));
  const agreeing = SINGULAR_PRONOUNS.has(pronoun) ? heads.filter((t) => !looksPlural(t.word))
    : PLURAL_PRONOUNS.has(pronoun) ? (nouns.length >= 2 ? nouns : nouns.filter((t) => looksPlural(t.word)))
      : nouns;
  return boundary && agreeing.length > 0;
}

/** Pronouns that can be a clause's subject. */
const SUBJECT_FORMS = new Set(['it', 'they', 'he', 'she']);
/** Pronouns that can be a verb's object ("improve it", "install them"). */
const OBJECT_FORMS = new Set(['it', 'them', 'him', 'her', 'this', 'that', 'these', 'those']);
const SINGULAR_PRONOUNS = new Set(['it', 'its', "it's", 'itself', 'this', 'that']);


const COORDINATORS = new Set(['and', 'but', 'or']);
const LIKENESS = new Set(['different', 'differ', 'differs', 'similar', 'alike', 'compare', 'compares', 'comparable', 'difference', 'differences', 'similarities']);
const PLURAL_AUXILIARIES = new Set(['do', 'are', 'were', 'have']);
const LIKENESS_COMPLEMENTS = new Set(['from', 'to', 'than', 'between', 'and', 'with', 'vs', 'versus', 'among', 'or']);

/** Particles and prepositions that can follow a verb's object ("turn it off", "set it on Windows"). */
const PARTICLES: ReadonlySet<string> = new Set(['off', 'on', 'up', 'out', 'down', 'away', 'back', 'over', 'in', 'into', 'to', 'for', 'with', 'from', 'by', 'at', 'around', 'through']);

function isRelativeThat(tokens: readonly Token[], i: number): boolean {
  const prev = tokens[i - 1]?.word;
  const next = tokens[i + 1]?.word;
  if (!prev || !next) return false;
  if (!isContentWord(prev) || FUNCTION_WORDS.has(prev)) return false;
  // "turn that off", "set that on Windows": a relative clause never opens with a particle or preposition; "that" is the verb's object.
  if (PARTICLES.has(next)) return false;
  // "exercises that could help", "a plan that will work": after a noun, "that" opens a relative clause,
  // auxiliary or not; after a verb ("I heard that will …"), it is a demonstrative before an auxiliary.
  return !AUXILIARIES.has(next) || (isNoun(prev) && !/(?:ed|ing)$/.test(prev) && !SUBORDINATORS.has(prev));
}

// Negated too: "when there isn't one" is existential as "when there is one" is.
const EXISTENTIAL_AFTER = new Set(['is', 'are', 'was', 'were', 'be', 'been', 'being', "there's", 'will', 'would', 'should', 'could', 'can', 'may', 'might', 'must', 'seem', 'seems', 'seemed', 'appear', 'appears', 'exist', 'exists', 'used', 'has', 'have', 'had', 'any', 'some', 'a', 'an', 'no',
  "isn't", "aren't", "wasn't", "weren't", "won't", "wouldn't", "shouldn't", "couldn't", "can't", "mustn't", "hasn't", "haven't", "hadn't", "doesn't", "didn't", "ain't"]);
const EXISTENTIAL_BEFORE = new Set(['is', 'are', 'was', 'were', 'be', 'been', 'will', 'would', 'can', 'could', 'should', 'might', 'may', 'over', 'here', 'out', 'in', 'from', 'up', 'down']);

/** "there" as a place ("to do there", "held there"), not "is there …", "there are …", "out there". */
function isLocativeThere(tokens: readonly Token[], i: number): boolean {
  const prev = tokens[i - 1]?.word;
  const next = tokens[i + 1]?.word;
  if (next !== undefined && EXISTENTIAL_AFTER.has(next)) return false;
  if (prev !== undefined && EXISTENTIAL_BEFORE.has(prev)) return false;
  return prev !== undefined;
}

/** The kind of dangling reference the word at `tokens[i]` is, or null when it is none (an expletive "it", a relative "that", "that day"…). */
function referenceAt(text: string, tokens: readonly Token[], i: number): GateReason | null {
  const { word } = tokens[i] as Token;
  // "it's" is "it is" (expletive before "worth", "possible"…) or a misspelled "its" ("describe it's growth"): both can point back.
  const pronoun = ANAPHORIC_PRONOUNS.has(word) || (word === "it's" && !EXPLETIVE_IT_COMPLEMENTS.has(tokens[i + 1]?.word ?? '') && !/^(?:a|an|the)$/.test(tokens[i + 1]?.word ?? ''));
  if (pronoun && !(word.startsWith('it') && isExpletiveIt(tokens, i)) && !hasInternalAntecedent(text, tokens, i)) return 'dangling-pronoun';
  // Locative "there" ("fun things to do there", "is it expensive to live there?") points at a place named before;
  // existential "there" ("is there", "there are") does not.
  if (word === 'there' && isLocativeThere(tokens, i)) return 'dangling-pronoun';
  if (DEMONSTRATIVES.has(word)) {
    const next = tokens[i + 1]?.word;
    if (next && TIME_NOUNS.has(next)) return null;
    if (word === 'that' && isRelativeThat(tokens, i)) return null;
    if (hasInternalAntecedent(text, tokens, i) && next && isContentWord(next)) return null;
    return 'demonstrative';
  }
  return null;
}

function danglingReference(text: string, tokens: readonly Token[]): { reason: GateReason; word: string } | null {
  for (let i = 0; i < tokens.length; i++) {
    const reason = referenceAt(text, tokens, i);
    if (reason) return { reason, word: (tokens[i] as Token).word };
  }
  return null;
}

/**
 * Where `word` stands as the reference the gate found: its first occurrence that is one ("can I insert text
 * that moves when that range is moved?": the second "that", not the relative one), else its first occurrence.
 */
export function referenceIndex(text: string, tokens: readonly Token[], word: string): number {
  const w = word.toLowerCase();
  const flagged = tokens.findIndex((t, i) => t.word === w && referenceAt(text, tokens, i) !== null);
  return flagged >= 0 ? flagged : tokens.findIndex((t) => t.word === w);
}

/** Words a demonstrative pronoun is often followed by that are no noun of its: adverbs ("for that instead", "is that enough?"). */
const ADVERBS_AFTER: ReadonlySet<string> = new Set([...NOT_NOUNS, 'still', 'already', 'never', 'always', 'often', 'sometimes', 'later', 'either', 'enough', 'even', 'though', 'much']);
const DO_SUPPORT: ReadonlySet<string> = new Set([...QUESTION_AUXILIARIES, "doesn't", "don't", "didn't", "won't", "can't"]);

/**
 * Whether the demonstrative at `tokens[i]` determines the word after it ("that refund", "this theory") rather
 * than standing alone as a pronoun: not before an adverb ("for that instead?"), not before a predicate
 * adjective that ends a question opened by a copula ("is that safe if …?", "is this fast?"), not before the
 * verb of a question with do-support or a modal ("does this slow the cache down?": a word followed by a
 * determiner is no noun of a phrase, which has no determiner inside it).
 */
export function determinesNext(text: string, tokens: readonly Token[], i: number): boolean {
  const that = tokens[i];
  const next = tokens[i + 1];
  if (!that || !next || !/^\p{L}/u.test(next.word) || !isNoun(next.word) || ADVERBS_AFTER.has(next.word)) return false;
  if (/[^\s]/.test(text.slice(that.index + that.word.length, next.index))) return false;
  const before = tokens[i - 1];
  const after = tokens[i + 2];
  if (before && COPULAS.has(before.word) && opensClause(text, tokens, i - 1)) {
    const closes = !after || /[,;:.!?]/.test(text.slice(next.index + next.word.length, after.index)) || SUBORDINATORS.has(after.word) || after.word === 'than';
    if (closes) return false;
  }
  return !(before && DO_SUPPORT.has(before.word) && after && DETERMINERS.has(after.word) && !DEMONSTRATIVES.has(after.word));
}

/** Whether `tokens[i]` opens its clause: the first word, or the first after a sentence or clause mark or a coordinator. */
function opensClause(text: string, tokens: readonly Token[], i: number): boolean {
  const prev = tokens[i - 1];
  if (!prev) return true;
  return /[,;:.!?]/.test(text.slice(prev.index + prev.word.length, (tokens[i] as Token).index)) || COORDINATORS.has(prev.word) || prev.word === 'so';
}

/** Decisions remembered by text: one condensation asks about each earlier turn several times (smalltalk, splices, centering). */
const REMEMBERED_DECISIONS = 512;
const decided = new Map<string, GateDecision>();

/** Decides one turn. `hasHistory` is false for the first turn of a session. */
export function decide(question: string, hasHistory: boolean): GateDecision {
  // A message longer than the condenser reads is decided at once (long-message) and not remembered.
  if (question.length > MAX_READ_QUESTION) return decideOnce(question, hasHistory);
  const key = `${hasHistory ? 'h' : 'f'}${question}`;
  let decision = decided.get(key);
  if (!decision) {
    decision = decideOnce(question, hasHistory);
    if (decided.size >= REMEMBERED_DECISIONS) decided.delete(decided.keys().next().value as string);
    decided.set(key, decision);
  }
  return { ...decision, evidence: [...decision.evidence] };
}

function decideOnce(question: string, hasHistory: boolean): GateDecision {
  const text = question.trim();
  if (isSmalltalk(text)) return { action: 'reply', reason: 'smalltalk', evidence: tokenize(text).map((t) => t.word) };
  if (!hasHistory) return { action: 'keep', reason: 'first-turn', evidence: [] };
  if (text.length > MAX_READ_QUESTION) return { action: 'keep', reason: 'long-message', evidence: [] };
  if (mostlyNonLatin(text)) return { action: 'keep', reason: 'other-script', evidence: [] };

  let rest = text.replace(LEADING_ACK, '');
  const switchMatch = TOPIC_SWITCH.exec(rest);
  if (switchMatch) rest = rest.slice(switchMatch[0].length);
  const tokens = tokenize(rest);
  const content = tokens.filter((t) => isContentWord(t.word));

  if (BARE_FOLLOWUPS.test(rest.trim())) return { action: 'condense', reason: 'ellipsis', evidence: [rest.trim().toLowerCase()] };
  const opener = ELLIPSIS_OPENERS.exec(rest.trim());
  const openerWord = opener?.[0].toLowerCase() ?? '';
  const continuation = /^(?:and|but|also|or|plus|so|as well as|and also)$/.test(openerWord);
  if (opener && !continuation) return { action: 'condense', reason: 'ellipsis', evidence: [openerWord] };

  const dangling = danglingReference(rest, tokens);
  if (dangling) return { action: 'condense', reason: dangling.reason, evidence: [dangling.word] };
  const whichOne = WHICH_ONE.exec(rest.replace(IDIOMATIC_OTHER, ''));
  if (whichOne) return { action: 'condense', reason: 'which-one', evidence: [whichOne[0].toLowerCase()] };
  const substitute = nominalEllipsis(tokens);
  if (substitute) return { action: 'condense', reason: 'substitution', evidence: [substitute] };

  // "Cool! What kinds of innovations?": a wh-phrase with its clause left out (sluicing); the conversation's last
  // question holds the clause, and so the topic that the phrase asks about.
  const sluice = SLUICE.exec(rest);
  if (sluice && !tokens.some((t) => AUXILIARIES.has(t.word) || COMMON_VERBS.has(t.word))) return { action: 'condense', reason: 'missing-argument', evidence: [(sluice[1] ?? '').toLowerCase()] };
  const unrelated = missingArgument(tokens, rest);
  if (unrelated) return { action: 'condense', reason: 'missing-argument', evidence: [unrelated] };

  const headless = HEADLESS_SUPERLATIVE.exec(rest);
  if (headless && SUPERLATIVE.test((headless[1] ?? '').toLowerCase())) return { action: 'condense', reason: 'comparative', evidence: [(headless[1] ?? '').toLowerCase()] };
  const comparative = tokens.find((t) => COMPARATIVES.has(t.word));
  if (comparative && !tokens.some((t) => t.word === 'than') && content.filter((t) => t !== comparative).length <= 1) {
    return { action: 'condense', reason: 'comparative', evidence: [comparative.word] };
  }
  // "Which is more environmentally friendly?": "which" standing alone chooses among things the conversation named,
  // however much the comparison says, unless the question lists them itself ("Which is cheaper: concrete or asphalt?").
  const chooser = WHICH_COMPARES.exec(rest);
  if (chooser && COMPARATIVES.has((chooser[1] ?? '').toLowerCase()) && !tokens.some((t) => ALTERNATIVES_GIVEN.has(t.word))) {
    return { action: 'condense', reason: 'comparative', evidence: [(chooser[1] ?? '').toLowerCase()] };
  }
  // "How is a container different?": a difference with nothing to differ from.
  // Attributive uses ("different types", "similar experiments") compare nothing.
  const likeness = tokens.find((t, j) => LIKENESS.has(t.word) && !isContentWord(tokens[j + 1]?.word ?? 'the'));
  if (likeness && !tokens.some((t) => LIKENESS_COMPLEMENTS.has(t.word))) {
    if (content.filter((t) => t !== likeness).length <= 2) return { action: 'condense', reason: 'comparative', evidence: [likeness.word] };
    // Last in a question that names its subject at length ("How does the use of rhyme in Biblical poetry compare?"), what it
    // is compared with is left unsaid: the conversation supplies it as context, beside the question's own words.
    // A plural subject ("How do the three periods compare?") is compared within itself.
    const plural = tokens.some((t) => PLURAL_AUXILIARIES.has(t.word));
    if (likeness === tokens.at(-1) && !plural) return { action: 'condense', reason: 'missing-argument', evidence: [likeness.word] };
  }
  const prepositional = tokens[0] && FUNCTION_WORDS.has(tokens[0].word) && !tokens.some((t) => AUXILIARIES.has(t.word));
  if (content.length <= 1 || (prepositional && content.length <= 3) || (continuation && content.length <= 2)) {
    return { action: 'condense', reason: continuation ? 'ellipsis' : 'fragment', evidence: content.map((t) => t.word) };
  }
  if (!switchMatch && namesNoSpecificTopic(rest, content)) {
    return { action: 'condense', reason: 'implicit-topic', evidence: content.map((t) => t.word) };
  }
  return { action: 'keep', reason: switchMatch ? 'topic-switch' : 'self-contained', evidence: [] };
}

/** A question that is only a classifying wh-phrase: "What kinds of innovations?", "Which type of product?". */
// The question mark may be left out, as on a phone ("cool! what kinds of innovations").
const SLUICE = /(?:^|[.!?]\s+)((?:what|which)\s+(?:kinds?|types?|sorts?)\s+of\s+[\p{L}-]+)\s*\??\s*$/iu;
/** "which" as the subject of a comparison, with no noun of its own: "Which is more environmentally friendly?", "which are safer for kids?". */
const WHICH_COMPARES = /(?:^|[.!?]\s+)which\s+(?:is|are|was|were|would\s+be|will\s+be)\s+(\p{L}+)/iu;
/** What names the alternatives a "which" chooses among, in the question itself. */
const ALTERNATIVES_GIVEN: ReadonlySet<string> = new Set(['or', 'than', 'between', 'vs', 'versus', 'of', 'among']);

/**
 * "What is the largest ever to have lived on Earth?", "What is the best in my morning latte?": a superlative
 * whose noun is left out (nominal ellipsis), after a bare "what is"/"which is", so nothing in the question says
 * what it ranks; the conversation does. Followed by a noun ("the largest shark"), by "of" ("the largest of the
 * planets") or after a subject that names its kind ("Is Everest the highest in the world?", "which language is
 * the easiest to learn?") the superlative has its noun.
 */
const HEADLESS_SUPERLATIVE = /^(?:[^.!?]*[.!?]\s+)?(?:what|which)(?:['’]s|\s+(?:is|are|was|were|would\s+be|will\s+be))\s+the\s+((?:most|least)\s+[\p{L}-]+|[\p{L}]+)(?=\s*[?.!]*\s*$|\s+(?:ever|in|on|at|for|to|among|around|now|today|yet|so\s+far|available|right\s+now|overall)\b)/iu;
/** A superlative: "best", "worst", "most …", "least …", or an adjective's -est form ("largest", "easiest", "biggest"), not a noun in -est ("interest", "forest"). */
const SUPERLATIVE = /^(?:best|worst|(?:most|least)\s+\S+|(?!priest$)\p{L}+iest|\p{L}*([bdgmnpt])\1est|(?:larg|long|great|high|low|strong|old|young|new|small|cheap|fast|slow|clos|near|rich|poor|deep|tall|wid|cool|warm|cold|saf|fin|rar|lat|bright|short|light|dark|thick|thin|hard|soft|quick|loud|smart|wis|sweet|strang|pur|tough|weak|kind|nic|rough|simpl)est)$/u;


/** Only everyday words, and no capitalized word inside a sentence (a name). */
function namesNoSpecificTopic(text: string, content: Token[]): boolean {
  const named = /(?<![.!?]\s*|^\s*)(?<=\s)\p{Lu}/u.test(text) || /\d/.test(text);
  return !named && content.every((t) => isEverydayWord(t.word));
}
