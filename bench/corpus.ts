/**
 * Deterministic synthetic corpus for benchmarks: Markdown documents whose
 * words are drawn by Zipf rank from the offline model's vocabulary, so token
 * counts and term statistics look like English even though the prose does not.
 */
export function zipfWords(vocab: readonly string[], seed: number) {
  let state = seed >>> 0;
  const random = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const n = vocab.length;
  const logN = Math.log(n);
  // Inverse CDF of a continuous Zipf(1) over ranks 1..n.
  return () => vocab[Math.min(n - 1, Math.floor(Math.exp(random() * logN)) - 1)] ?? 'the';
}

export interface BenchDoc { id: string; title: string; text: string; format: 'markdown' }

export function syntheticCorpus(vocab: readonly string[], totalChars: number, docChars = 4_000, seed = 7): BenchDoc[] {
  const word = zipfWords(vocab, seed);
  const sentence = () => {
    const words = Array.from({ length: 8 + (word().length % 12) }, word);
    return `${words.join(' ').replace(/^./, (c) => c.toUpperCase())}.`;
  };
  const docs: BenchDoc[] = [];
  let total = 0;
  for (let i = 0; total < totalChars; i++) {
    const parts = [`# ${word()} ${word()}`];
    let size = 0;
    while (size < docChars) {
      if (size % 1_000 < 80) parts.push(`## ${word()} ${word()}`);
      const paragraph = Array.from({ length: 4 }, sentence).join(' ');
      parts.push(paragraph);
      size += paragraph.length;
    }
    const text = parts.join('\n\n');
    total += text.length;
    docs.push({ id: `doc-${i}`, title: `Document ${i}`, text, format: 'markdown' });
  }
  return docs;
}

/** Reads the offline model's vocabulary (WordLevel tokenizer.json) without its special tokens. */
export function vocabulary(tokenizerJson: { model: { vocab: Record<string, number> } }): string[] {
  return Object.entries(tokenizerJson.model.vocab).sort((a, b) => a[1] - b[1]).map(([w]) => w).filter((w) => !w.startsWith('['));
}

export function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[i] as number;
}

export function median(values: readonly number[]): number {
  return percentile([...values].sort((a, b) => a - b), 0.5);
}
