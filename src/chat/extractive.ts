/**
 * The answer without a language model: the best passages, each with its most
 * relevant sentence marked, and their sources. Labelled as extractive so no
 * one mistakes it for a generated answer.
 */
import { lexicalTerms } from '../text/tokens';
import type { SearchHit } from '../retrieval/memory-index';
import { passageLabel } from './prompts';

export interface ExtractiveSentence { text: string; highlight: boolean }
export interface ExtractivePassage { n: number; label: string; url?: string; sentences: ExtractiveSentence[] }

export const EXTRACTIVE_NOTE = 'Extractive answer (no language model): the most relevant passages, with the best-matching sentence in bold.';

function splitSentences(text: string): string[] {
  return text.split(/(?<=[.!?。！？])\s+/).map((s) => s.trim()).filter(Boolean);
}

/** Marks the sentence of each passage that shares the most (distinct) terms with the question. */
export function extractiveAnswer(question: string, hits: readonly SearchHit[], passages = 3): { text: string; passages: ExtractivePassage[] } {
  const terms = new Set(lexicalTerms(question));
  const picked = hits.slice(0, passages).map((hit, i): ExtractivePassage => {
    const sentences = splitSentences(hit.text);
    const scores = sentences.map((s) => new Set(lexicalTerms(s).filter((t) => terms.has(t))).size);
    const best = scores.indexOf(Math.max(...scores));
    return {
      n: i + 1, label: passageLabel(hit), ...(hit.url !== undefined ? { url: hit.url } : {}),
      sentences: sentences.map((text, j) => ({ text, highlight: j === best })),
    };
  });
  const body = picked.map((p) => `[${p.n}] ${p.label}: ${p.sentences.map((s) => (s.highlight ? `**${s.text}**` : s.text)).join(' ')}`);
  return { text: [EXTRACTIVE_NOTE, ...body].join('\n\n'), passages: picked };
}
