/**
 * Specificity without a corpus, for evaluation sets that have none
 * (cast2019, cast2020): zipfSpecificity (src/chat/specificity.ts) of the
 * word's frequency rank in the offline model's 30k vocabulary (GloVe ranks:
 * Wikipedia and newswire, not evaluation data). Words outside the vocabulary
 * are rarer than all of it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { commonestRank, zipfSpecificity, type Specificity } from '../../src/chat/specificity';

export function vocabularyPrior(modelDir: string): Specificity {
  const vocab = (JSON.parse(readFileSync(join(modelDir, 'tokenizer.json'), 'utf8')) as { model: { vocab: Record<string, number> } }).model.vocab;
  const size = Object.keys(vocab).length;
  return (word) => zipfSpecificity(commonestRank(word, (w) => vocab[w]) ?? size);
}
