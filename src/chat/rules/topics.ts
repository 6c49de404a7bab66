/**
 * Tracks what a conversation is about: candidate noun phrases (runs of
 * content words between verbs, function words and punctuation) from recent
 * turns, scored by recency and by who said them. The user's own words weigh
 * more than the assistant's, and long answers are normalized so they cannot
 * drown the user's topic.
 */
import { stem } from '../../text/tokens';
import { sentencesOf } from './sentences';
import { englishTexts } from './english';
import { isContentWord, isEverydayWord, looksPlural } from './words';
import { substituteAt } from './nominal-ellipsis';
import { ASPECT_NOUNS, AUXILIARIES, COMMON_VERBS, COPULAS, COMPARATIVES, DETERMINERS, NON_TOPIC_WORDS, PREPOSITIONS, QUESTION_AUXILIARIES, SMALLTALK, WH_WORDS } from './word-lists';

export interface HistoryTurn {
  user: string;
  assistant: string;
}

export interface Topic {
  /** The phrase as first written (original casing). */
  phrase: string;
  /** Stemmed, lower-cased words, for matching. */
  stems: string[];
  score: number;
}

export interface TopicOptions {
  /** Weight kept per turn of age. @default 0.6 */
  decay?: number;
  /** Turns looked at. @default 6 */
  maxTurns?: number;
  /** Weight of the assistant's words relative to the user's. @default 0.35 */
  assistantWeight?: number;
}

const MAX_PHRASE_WORDS = 4;

/** Pronouns that are only ever subjects: the next word is their verb (or an adverb). */
const SUBJECTS: ReadonlySet<string> = new Set(['i', 'we', 'they', 'he', 'she']);
/** A question whose object is asked for in front, then do-support and its subject: "which models does WebLLM …". */
const FRONTED_OBJECT = /^\s*(?:what|which|who|whom|how\s+(?:much|many))\b(?:\s+[\p{L}'-]+){0,3}?\s+(?:do|does|did)\s+(?!(?:i|you|we|they|he|she|it)\b)\S/iu;

/** Words of degree, before an adjective ("the most delicious", "too expensive"). */
const DEGREE_WORDS: ReadonlySet<string> = new Set(['most', 'more', 'less', 'least', 'very', 'too', 'so', 'quite', 'really', 'how', 'as', 'pretty', 'fairly', 'extremely']);

/** Texts whose phrases are remembered: every turn of the history the condenser reads (read-bounds.ts), several times over. */
const REMEMBERED_TEXTS = 256;

/** What `read` makes of a text, computed once per text among the last REMEMBERED_TEXTS. */
function remembering<T>(read: (text: string) => T): (text: string) => T {
  const remembered = new Map<string, T>();
  return (text) => {
    if (remembered.has(text)) return remembered.get(text) as T;
    const value = read(text);
    if (remembered.size >= REMEMBERED_TEXTS) remembered.delete(remembered.keys().next().value as string);
    remembered.set(text, value);
    return value;
  };
}

/**
 * Noun-phrase candidates of a text, in order. One turn's condensation reads
 * each earlier turn's phrases many times (once per topic ranking, per
 * definite noun, per earlier turn it resolves again): they are computed once
 * per text, or a long conversation costs its length squared.
 */
export const candidatePhrases: (text: string) => readonly string[] = remembering((text) => Object.freeze(readPhrases(text)));

function readPhrases(text: string): string[] {
  const phrases: string[] = [];
  // "URI.js", "Node.js streams": a file extension after a name's dot is no word of a phrase ("js streams").
  const plain = text.replace(/(?<=\p{L})\.(?:[cm]?js|jsx|ts|tsx|json)(?![\p{L}\p{N}])/giu, '.');
  for (const clause of plain.split(/[.,;:!?()[\]"“”\n]+|\s[-–—]\s/)) {
    let run: string[] = [];
    const flush = () => {
      while (run.length > MAX_PHRASE_WORDS) phrases.push(run.splice(0, MAX_PHRASE_WORDS).join(' '));
      if (run.length) phrases.push(run.join(' '));
      run = [];
    };
    const written = clause.replace(/[’`]/g, "'").split(/\s+/).map((raw) => raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''));
    const words = written.map((word) => word.replace(/'s$/i, ''));
    const lower = words.map((word) => word.toLowerCase());
    const verbAfterName = verbAfterNamedSubject(words);
    const copulaPredicate = predicateOfCopula(words);
    const topical = (word: string | undefined) => {
      const lower = word?.toLowerCase() ?? '';
      return !!word && !lower.includes("'") && isContentWord(lower) && !COMMON_VERBS.has(lower) && !COMPARATIVES.has(lower) && !SMALLTALK.has(lower) && !NON_TOPIC_WORDS.has(lower) && !PREPOSITIONS.has(lower) && !/ly$/.test(lower) && lower.length >= 2 && !/^\d/.test(lower);
    };
    words.forEach((word, i) => {
      // "the Black Lives Matter campaign": inside a name written capitalized, a word is part of the name, verb as it may be elsewhere.
      const inName = run.length > 0 && /^\p{Lu}/u.test(word) && /^\p{Lu}/u.test(run[run.length - 1] ?? '') && isContentWord(word.toLowerCase()) && !word.includes("'");
      // "building Gigafactories", "learning Norwegian": a verb's -ing form before a name is not part of it.
      if (/ing$/i.test(word) && /^\p{Lu}/u.test(words[i + 1] ?? '') && !/^\p{Lu}/u.test(word)) { flush(); return; }
      // "Lewis and Clark": two names joined by "and" are one party.
      if (word.toLowerCase() === 'and' && run.length > 0 && /^\p{Lu}/u.test(run[run.length - 1] ?? '') && /^\p{Lu}/u.test(words[i + 1] ?? '') && topical(words[i + 1]) && i > 0) { run.push(word); return; }
      // A number is part of a name when it modifies a noun ("a 529 plan", "the 321 method") or ends a capitalized one ("Model 3").
      // A lone digit before a noun is a count ("1 hit", "3 days"), and an all-capitals word before a number an abbreviation ("the US 21").
      const number = /^\d[\d/.-]*$/.test(word) && ((word.length > 1 && topical(words[i + 1])) || (/^\p{Lu}\p{Ll}/u.test(words[i - 1] ?? '') && topical(words[i - 1]) && run.length > 0));
      // "Which is the most delicious?", "is it more expensive?": a word after a degree word that closes its
      // clause is a predicate adjective, no topic.
      // "How fast is it?", "and how long does it take?", "How accurate can it get?": in a question that opens with "how",
      // the word after it that an auxiliary follows is the degree asked about, an adjective or adverb ("explain how
      // blockchain is used", an embedded question, has its noun there).
      const degreeAsked = lower[i - 1] === 'how' && lower.slice(0, i - 1).every((w) => w === '' || QUESTION_OPENERS.has(w))
        && (i === words.length - 1 || AUXILIARIES.has(lower[i + 1] ?? '')) && !/^\p{Lu}/u.test(word);
      const predicate = (i === words.length - 1 && DEGREE_WORDS.has(words[i - 1]?.toLowerCase() ?? '') && !/^\p{Lu}/u.test(word)) || i === copulaPredicate || degreeAsked;
      // "when two devices edit the same note": after a plural noun, a word without -s before a determiner is
      // the plural subject's verb (a noun phrase has no determiner inside it), whatever verb lists say; so is
      // one after an auxiliary's subject ("Why does ignore throw an error?"), whose verb is in the base form.
      const auxiliarySubject = subjectOfAuxiliary(words, i - run.length);
      const verb = run.length > 0 && !/s$/i.test(word) && /^\p{Ll}/u.test(word) && (
        ((looksPlural((words[i - 1] ?? '').toLowerCase()) || auxiliarySubject) && DETERMINERS.has(words[i + 1]?.toLowerCase() ?? ''))
        // "Why would the roles reverse?": a plural subject of an auxiliary, then a word without -s closing the clause.
        || (auxiliarySubject && looksPlural((words[i - 1] ?? '').toLowerCase()) && i === words.length - 1));
      // "how do I install idb", "I heard …", "does it support …": the word after a subject pronoun is its verb
      // ("you" and "it" are objects too, "show you examples": a subject only after an auxiliary).
      const before = words[i - 1]?.toLowerCase() ?? '';
      const subject = SUBJECTS.has(before) || ((before === 'you' || before === 'it') && AUXILIARIES.has(words[i - 2]?.toLowerCase() ?? ''));
      // "Which models does WebLLM support?", "How much does a wolfhound weigh?": with its object asked for in front,
      // a clause with do-support ends in its verb (not "Why did Dali choose surrealism?", whose object stays last).
      const doVerb = i === words.length - 1 && FRONTED_OBJECT.test(clause) && /^\p{Ll}/u.test(word) && !looksPlural(word.toLowerCase());
      // "Does DOMPurify support trusted types?", "Can p-queue limit concurrency?": after an auxiliary, a subject written
      // as a name is followed by its verb, however much a noun the verb is elsewhere ("support", "limit", "choose").
      const namedSubjectVerb = i === verbAfterName;
      // Contractions ("isn't", "I'd") are never topics.
      if (!predicate && !verb && !subject && !doVerb && !namedSubjectVerb && (inName || topical(word) || number)) run.push(word);
      // "the vegan ones", "a smart one": a modifier whose noun is left out is no noun phrase; one written as a name still
      // names something ("the CSP one").
      else if (run.length > 0 && substituteAt(lower, i) && !run.some((w) => /^\p{Lu}/u.test(w))) run = [];
      else flush();
      // "Melania Trump's religion": a name in the possessive is a topic of its own as well (what "she" means),
      // before the phrase it begins.
      if (/'s$/i.test(written[i] ?? '') && run.length > 0 && run.every((w) => /^\p{Lu}/u.test(w)) && topical(words[i + 1])) phrases.push(run.join(' '));
    });
    flush();
  }
  // A lone -ing/-ed word is almost always a verb form ("spreading", "banned"), not a topic, unless written
  // as a name ("Boeing") or as an identifier ("magic-string"); so is an -ed word closing a phrase ("garage door opener stopped").
  return phrases.map((p) => (p.includes(' ') ? p.replace(/\s+\S+ed$/i, '') : p)).filter((p) => p.includes(' ') || !/^\p{Ll}\p{L}*(?:ing|ed)$/u.test(p));
}

/**
 * "Why does ignore throw an error?", "Can the cache evict an entry?": a phrase that starts right after an
 * auxiliary (or after one and a determiner) is its subject, and the auxiliary takes its verb in the base
 * form, so the word before a determiner is that verb.
 */
function subjectOfAuxiliary(words: readonly string[], start: number): boolean {
  const before = words[start - 1]?.toLowerCase() ?? '';
  if (QUESTION_AUXILIARIES.has(before)) return true;
  return DETERMINERS.has(before) && QUESTION_AUXILIARIES.has(words[start - 2]?.toLowerCase() ?? '');
}

/**
 * "Was the disruption widespread?", "Is the Spy Museum free?", "Why is the sky blue?": a question opened by a
 * copula whose subject opens with a determiner ends in its predicate, an adjective, no part of the subject's
 * phrase. The position of that last word, or -1: where a determiner, a function word or a number comes after the
 * subject's first word ("Is the Roadster a sports car?": a predicate noun phrase of its own), or the last word is capitalized.
 */
function predicateOfCopula(words: readonly string[]): number {
  const at = words.map((w, i) => (w.length > 0 ? i : -1)).filter((i) => i >= 0);
  let k = 0;
  if (/^(?:why|how|when|where)$/i.test(words[at[k] ?? -1] ?? '')) k++;
  if (!COPULAS.has((words[at[k] ?? -1] ?? '').toLowerCase()) || !SUBJECT_DETERMINERS.has((words[at[k + 1] ?? -1] ?? '').toLowerCase())) return -1;
  const last = at.at(-1) ?? -1;
  const inner = at.slice(k + 2, -1);
  if (inner.length === 0 || !/^\p{Ll}/u.test(words[last] ?? '')) return -1;
  // A number starts a predicate noun phrase of its own ("Is the refund window 30 days?").
  return inner.every((i) => { const w = (words[i] ?? '').toLowerCase(); return isContentWord(w) && !DETERMINERS.has(w) && !/\d/.test(w); }) ? last : -1;
}
/** Words a question may open with before its wh-word: "and how …", "so how …", "ok, how …". */
const QUESTION_OPENERS: ReadonlySet<string> = new Set(['and', 'but', 'so', 'then', 'now', 'ok', 'okay', 'also', 'well']);
const SUBJECT_DETERMINERS: ReadonlySet<string> = new Set(['the', 'this', 'that', 'these', 'those', 'my', 'your', 'our', 'its', 'their']);

/**
 * The position of the verb in a question whose auxiliary (first, or after a wh-word and up to three words)
 * is followed by a subject written as a name: capitalized words ("Internet Explorer", "Dali"), or one word
 * written as an identifier ("p-queue", "jsPDF"); -1 otherwise. A lower-case subject gives no sign where
 * it ends, rare as its first word may be ("Does lobular carcinoma spread?", "Does brace expansion work?").
 */
function verbAfterNamedSubject(words: readonly string[]): number {
  const first = words.findIndex((w) => w.length > 0);
  const lead = words[first]?.toLowerCase() ?? '';
  const aux = QUESTION_AUXILIARIES.has(lead) ? first : WH_WORDS.has(lead) ? words.findIndex((w, i) => i > first && i <= first + 4 && QUESTION_AUXILIARIES.has(w.toLowerCase())) : -1;
  if (aux < 0) return -1;
  const start = aux + 1;
  const head = words[start] ?? '';
  let end = start;
  if (/^\p{Lu}/u.test(head)) while (/^\p{Lu}/u.test(words[end + 1] ?? '')) end++;
  else if (!/\p{L}/u.test(head) || !/[-_.\d]|\p{Ll}\p{Lu}/u.test(head)) return -1;
  const next = words[end + 1] ?? '';
  // "Does US law allow it?": a verb after the next word makes that one a noun the name modifies; so does a
  // plural ("Can 2FA codes expire?", "Do DOMPurify hooks run twice?"), where a verb would be in its base form.
  if (COMMON_VERBS.has(words[end + 2]?.toLowerCase() ?? '') || looksPlural(next.toLowerCase())) return -1;
  return /^\p{Ll}/u.test(next) && isContentWord(next.toLowerCase()) ? end + 1 : -1;
}

/** "Melania Trump", "Jerry Garcia": every word capitalized, as a person's name is written (not "Melania Trump religion"). */
export function isWrittenAsName(phrase: string): boolean {
  return phrase.split(/\s+/).every((w) => /^\p{Lu}/u.test(w));
}

/** A phrase headed by an aspect noun ("the main advantages"): what was asked about a topic, never the topic itself. */
export function isAspect(phrase: string): boolean {
  return ASPECT_NOUNS.has(phrase.split(' ').at(-1)?.toLowerCase() ?? '');
}

/** Share of a phrase's words outside everyday vocabulary: specific words make good topics. */
function specificity(phrase: string): number {
  const words = phrase.toLowerCase().split(/\s+/);
  return words.filter((w) => !isEverydayWord(w)).length / words.length;
}

export function stemsOf(phrase: string): string[] {
  return phrase.toLowerCase().split(/\s+/).map(stem);
}

/** A question's subject: after its auxiliary ("Does DOMPurify work …", "Which models does WebLLM support?") or opening a statement. */
const OPENING_DETERMINER = `(?:${[...DETERMINERS].join('|')})`;
const QUESTION_SUBJECT = new RegExp(String.raw`^(?:(?:what|which|who|how|why|when|where)(?:\s+[\p{L}'-]+){0,3}?\s+)?(?:do|does|did|can|could|will|would|should|has|have|had|may|might|must)\s+(?:${OPENING_DETERMINER}\s+)?(.*)$`, 'iu');
const LEADING_DETERMINER = new RegExp(String.raw`^${OPENING_DETERMINER}\s+`, 'i');

/**
 * The phrases that are grammatical subjects of a text's sentences. What the previous question was
 * about (its subject) is what a following "it" most likely continues (centering), more than an object
 * or a prepositional phrase that came after it ("Does DOMPurify work in Internet Explorer?" → "does it
 * support trusted types?").
 */
export const subjectPhrases: (text: string) => ReadonlySet<string> = remembering(readSubjects);

/** subjectPhrases, uncached; its sentences' phrases are read uncached too, so they do not crowd whole turns out of candidatePhrases' memory. */
function readSubjects(text: string): ReadonlySet<string> {
  const subjects = new Set<string>();
  for (const sentence of sentencesOf(text).flatMap((s) => s.split(/[;\n]+/)).map((s) => s.replace(/[.!?…]+$/, ''))) {
    const trimmed = sentence.trim().replace(/[’`]/g, "'");
    const rest = QUESTION_SUBJECT.exec(trimmed)?.[1] ?? trimmed.replace(LEADING_DETERMINER, '');
    const lower = rest.toLowerCase();
    const phrases = readPhrases(sentence);
    const first = phrases.find((p) => lower.startsWith(p.toLowerCase()));
    if (!first) continue;
    const after = lower.slice(first.length).trim();
    // "the main function of a virtual machine": a subject with a complement is an aspect of it, no topic; a phrase
    // followed at once by another ("smart" | "garage door openers") or by "one" ("a smart one") was cut inside its noun phrase.
    if (/^(?:of|for|in|on|about|between|ones?)\b/.test(after) || phrases.some((p) => after.startsWith(p.toLowerCase()))) continue;
    subjects.add(first.toLowerCase());
  }
  return subjects;
}

export function trackTopics(history: readonly HistoryTurn[], options: TopicOptions = {}): Topic[] {
  const decay = options.decay ?? 0.6;
  const recent = history.slice(-(options.maxTurns ?? 6));
  const phrases = new Map<string, Topic>();
  const wordScore = new Map<string, number>();
  const englishUser = englishTexts(recent.map((t) => t.user));
  const englishAssistant = englishTexts(recent.map((t) => t.assistant));
  recent.forEach((turn, i) => {
    const age = recent.length - 1 - i;
    for (const [text, roleWeight, english] of [[turn.user, 1, englishUser[i]], [turn.assistant, options.assistantWeight ?? 0.35, englishAssistant[i]]] as const) {
      if (!english) continue; // these phrase rules read English only
      const found = candidatePhrases(text).filter((p) => !isAspect(p));
      const weight = (roleWeight * decay ** age) / Math.sqrt(Math.max(1, found.length));
      const lower = text.toLowerCase();
      found.forEach((phrase, position) => {
        const stems = stemsOf(phrase);
        const key = stems.join(' ');
        // Later phrases carry the focus ("the symptoms of breast cancer"); longer ones are more specific.
        // In "the X of Y", Y is the topic and X an aspect of it ("the symptoms of breast cancer").
        const ofComplement = lower.includes(`of ${phrase.toLowerCase()}`) || lower.includes(`of the ${phrase.toLowerCase()}`) ? 1.5 : 1;
        const shape = ofComplement * (1 + 0.1 * Math.min(position, 3)) * (1 + 0.15 * Math.min(stems.length - 1, 3)) * (0.25 + 0.75 * specificity(phrase));
        const topic = phrases.get(key) ?? { phrase, stems, score: 0 };
        topic.score += weight * shape;
        phrases.set(key, topic);
        for (const s of stems) wordScore.set(s, (wordScore.get(s) ?? 0) + weight);
      });
    }
  });
  // A phrase gains from its words recurring elsewhere ("refund" supports "refund window").
  const ranked = [...phrases.values()].map((t) => ({ ...t, score: t.score + 0.5 * t.stems.reduce((s, w) => s + (wordScore.get(w) ?? 0), 0) / t.stems.length }));
  return ranked.sort((a, b) => b.score - a.score || a.phrase.localeCompare(b.phrase));
}
