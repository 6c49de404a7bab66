/**
 * The answer without a language model: a short answer first (the snippet:
 * the one or two sentences that best answer the question, with their
 * citation), then the best passages, each with its most relevant sentence
 * marked. Labelled as extractive so no one mistakes it for a generated answer.
 */
import { lexicalTerms } from '../text/tokens';
import type { SearchHit } from '../retrieval/memory-index';
import { EXTRACTIVE_NOTE, EXTRACTIVE_PASSAGES_NOTE, passageLabel } from './prompts';
import { pickSnippet, splitSentences, type Snippet } from './snippet';

export interface ExtractiveSentence { text: string; highlight: boolean }
export interface ExtractivePassage { n: number; label: string; url?: string; sentences: ExtractiveSentence[] }


/**
 * `question` as typed, `condensed` as searched. The snippet leads the text;
 * each passage marks the snippet's sentences, or else its own best sentence.
 */
export function extractiveAnswer(question: string, condensed: string, hits: readonly SearchHit[], passages = 3): { text: string; passages: ExtractivePassage[]; snippet: Snippet | null } {
  const top = hits.slice(0, passages);
  const snippet = pickSnippet(question, condensed, top.map((h) => ({ text: h.text, heading: [h.title ?? '', ...h.headingPath].join(' ') })));
  const terms = new Set(lexicalTerms(`${question} ${condensed}`));
  const picked = top.map((hit, i): ExtractivePassage => {
    const sentences = splitSentences(hit.text);
    let marked: number[];
    if (snippet?.passage === i) marked = snippet.sentences;
    else {
      const scores = sentences.map((s) => new Set(lexicalTerms(s).filter((t) => terms.has(t))).size);
      marked = [scores.indexOf(Math.max(...scores))];
    }
    return {
      n: i + 1, label: passageLabel(hit), ...(hit.url !== undefined ? { url: hit.url } : {}),
      sentences: sentences.map((text, j) => ({ text, highlight: marked.includes(j) })),
    };
  });
  if (snippet) return { text: `${snippet.text} [${snippet.passage + 1}]\n\n${EXTRACTIVE_NOTE}`, passages: picked, snippet };
  const body = picked.map((p) => `[${p.n}] ${p.label}: ${p.sentences.map((s) => (s.highlight ? `**${s.text}**` : s.text)).join(' ')}`);
  return { text: [EXTRACTIVE_PASSAGES_NOTE, ...body].join('\n\n'), passages: picked, snippet };
}
