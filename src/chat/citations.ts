/**
 * Citation markers in a generated answer: [n], [n, m] and [n][m]. Markers
 * that point at no given passage are removed from the text and reported.
 */
import type { SearchHit } from '../retrieval/memory-index';
import { passageLabel } from './prompts';

export interface Citation {
  /** The passage number used in the answer (1-based). */
  n: number;
  chunkKey: number;
  docId: string;
  label: string;
  title?: string;
  url?: string;
  start: number;
  end: number;
}

export interface CheckedCitations {
  answer: string;
  citations: Citation[];
  /** Numbers cited that matched no passage; removed from `answer`. */
  invalid: number[];
}

const MARKER = /\[(\s*\d{1,4}(?:\s*[,;]\s*\d{1,4})*\s*)\]/g;

export function checkCitations(answer: string, hits: readonly SearchHit[]): CheckedCitations {
  const seen = new Map<number, Citation>();
  const invalid: number[] = [];
  const cleaned = answer.replace(MARKER, (_whole, inner: string) => {
    const numbers = inner.split(/[,;]/).map((s) => Number(s.trim()));
    const valid = numbers.filter((n) => Number.isInteger(n) && n >= 1 && n <= hits.length);
    for (const n of numbers) if (!valid.includes(n) && !invalid.includes(n)) invalid.push(n);
    for (const n of valid) {
      const hit = hits[n - 1] as SearchHit;
      if (!seen.has(n)) {
        seen.set(n, {
          n, chunkKey: hit.chunkKey, docId: hit.docId, label: passageLabel(hit), start: hit.start, end: hit.end,
          ...(hit.title !== undefined ? { title: hit.title } : {}), ...(hit.url !== undefined ? { url: hit.url } : {}),
        });
      }
    }
    return valid.length ? `[${valid.join('][')}]` : '';
  }).replace(/(?<! ) +([.,;:!?])/g, '$1').replace(/ {2,}/g, ' '); // (?<! ): a run of spaces is tried once, not from each of its positions
  return { answer: cleaned.trim(), citations: [...seen.values()], invalid };
}
