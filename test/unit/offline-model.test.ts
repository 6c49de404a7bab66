import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEmbedder } from '../../src/embedding/load-embedder';

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);
const MODEL = resolve(import.meta.dirname, '../../.models/threadline-glove-30k') + '/';

describe('offline model in Node (the shipped int8 static model)', () => {
  it('is semantic by a clear margin', async () => {
    const e = await loadEmbedder({ model: MODEL });
    expect(e.dims).toBe(100);
    const v = await e.embed(['car repair garage', 'mechanic fixing automobiles', 'symptoms of breast cancer']);
    const row = (i: number) => v.subarray(i * 100, (i + 1) * 100);
    expect(cosine(row(0), row(1)) - cosine(row(0), row(2))).toBeGreaterThan(0.3);
  });

  it('gives a zero vector, not NaN, for text with no known word', async () => {
    const e = await loadEmbedder({ model: MODEL });
    const v = await e.embed(['', 'qqqzzx ###', 'refund']);
    expect(v.every((x) => Number.isFinite(x))).toBe(true);
    expect(v.subarray(0, 200).every((x) => x === 0)).toBe(true);
    expect(v.subarray(200).some((x) => x !== 0)).toBe(true);
  });

  it('counts tokens with the model tokenizer (punctuation counts, no special tokens)', async () => {
    const e = await loadEmbedder({ model: MODEL });
    expect(e.countTokens('Hello, world!')).toBe(4);
    expect(e.countTokens('')).toBe(0);
  });
});
