/**
 * The short answer without a language model, like a search engine's featured
 * snippet: the one or two sentences among the best passages that best answer
 * the question. A sentence scores by the question's words it contains, each
 * weighted by whether the user typed it (1) or only the condensed question has
 * it (0.5), and by how few of the passages contain it: the topic word that every
 * passage repeats ("Harbor") tells less than the word that picks one ("install").
 * A word in the passage's heading counts half for each of its sentences. The
 * best sentence takes along a neighbour that also holds a question word.
 * Longer sentences pay a mild penalty. The snippet comes from the best-ranked
 * passage that holds any question word at all: retrieval ranked the passages
 * with the condensed question, the embedding and the headings, and a sentence
 * that merely repeats the typed words ("items damaged by misuse…") is exactly
 * the distractor it ranked lower. (Letting a lower passage win on a clearly
 * better sentence was measured: on cast2021 follow-ups its sentence came from a
 * gold passage less often than the first passage is gold, 34.3% against 35.4%,
 * and on the sample knowledge base it quoted the warranty distractor.)
 */
import { lexicalTerms } from '../text/tokens';

export interface Snippet {
  /** Index of the passage the sentences come from. */
  passage: number;
  /** Indexes of the chosen sentences within that passage (one or two, consecutive). */
  sentences: number[];
  text: string;
  score: number;
}

/** Sentences shorter than this are labels or fragments, not answers, unless their passage has nothing longer. */
const MIN_WORDS = 4;
/** A neighbouring sentence that holds a question word joins the best one while both together stay this short. */
const PAIR_MAX_WORDS = 45;
const CONDENSED_ONLY_WEIGHT = 0.5;
/** A question word found only in the passage's heading counts this much for each of its sentences. */
const HEADING_WEIGHT = 0.5;

export function splitSentences(text: string): string[] {
  return text.split(/(?<=[.!?。！？])\s+|\n+/).map((s) => s.trim()).filter(Boolean);
}

const wordCount = (s: string) => s.split(/\s+/).filter(Boolean).length;

export interface SnippetPassage {
  text: string;
  /** The passage's heading path or title: "Refund window" says what "…within 30 days…" is about. */
  heading?: string;
}

/** Picks the snippet from `passages` (best first); null when no sentence holds any word of the question. */
export function pickSnippet(question: string, condensed: string, passages: readonly (string | SnippetPassage)[]): Snippet | null {
  const weights = new Map<string, number>();
  for (const t of lexicalTerms(condensed)) weights.set(t, CONDENSED_ONLY_WEIGHT);
  for (const t of lexicalTerms(question)) weights.set(t, 1);
  if (!weights.size) return null;
  const given = passages.map((p) => (typeof p === 'string' ? { text: p } : p));
  const split = given.map((p) => splitSentences(p.text));
  const termsOf = split.map((sentences) => sentences.map((s) => new Set(lexicalTerms(s).filter((t) => weights.has(t)))));
  const headingTerms = given.map((p) => new Set(lexicalTerms(p.heading ?? '').filter((t) => weights.has(t))));
  const df = new Map<string, number>();
  termsOf.forEach((sentences, p) => {
    for (const t of new Set([...sentences.flatMap((s) => [...s]), ...(headingTerms[p] ?? [])])) df.set(t, (df.get(t) ?? 0) + 1);
  });
  const idf = (t: string) => Math.log(1 + (passages.length + 1) / ((df.get(t) ?? 0) + 0.5));
  let best: Snippet | null = null;
  split.forEach((sentences, p) => {
    // A passage of short sentences only ("Get decorated Source.", a section's whole text) may be its own answer:
    // its heading is kept apart, so what it says is no label of it.
    const short = sentences.every((sentence) => wordCount(sentence) < MIN_WORDS);
    sentences.forEach((sentence, i) => {
      const words = wordCount(sentence);
      const own = termsOf[p]?.[i] ?? new Set<string>();
      // ... when it says something the question asks: a label ("Example:") under a matching heading does not.
      if (words < MIN_WORDS && !(short && own.size > 0)) return;
      let score = 0;
      for (const t of own) score += (weights.get(t) ?? 0) * idf(t);
      for (const t of headingTerms[p] ?? []) if (!own.has(t)) score += HEADING_WEIGHT * (weights.get(t) ?? 0) * idf(t);
      score /= 1 + Math.max(0, words - 25) / 50;
      if (score > 0 && (!best || (best.passage === p && score > best.score))) best = { passage: p, sentences: [i], text: sentence, score };
    });
  });
  const found = best as Snippet | null;
  if (!found) return null;
  // The best sentence with the neighbour that also holds a question word (the stronger one), if the two stay short.
  const sentences = split[found.passage] ?? [];
  const terms = termsOf[found.passage] ?? [];
  const at = found.sentences[0] ?? 0;
  const neighbours = [at - 1, at + 1].filter((j) => j >= 0 && j < sentences.length && (terms[j]?.size ?? 0) > 0);
  const pair = neighbours.sort((x, y) => (terms[y]?.size ?? 0) - (terms[x]?.size ?? 0))[0];
  if (pair !== undefined && wordCount(found.text) + wordCount(sentences[pair] ?? '') <= PAIR_MAX_WORDS) {
    const [first, second] = pair < at ? [pair, at] : [at, pair];
    return { ...found, sentences: [first, second], text: `${sentences[first] ?? ''} ${sentences[second] ?? ''}` };
  }
  return found;
}
