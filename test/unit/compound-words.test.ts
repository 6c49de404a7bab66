import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compoundParts, splitCompounds } from '../../src/embedding/compound-words';
import { loadEmbedder } from '../../src/embedding/load-embedder';

const MODELS = resolve(import.meta.dirname, '../../.models');

describe('camelCase names read as their words (compound-words.ts)', () => {
  it('splits at each case change, keeps a name the vocabulary knows whole, and leaves other text as it is', () => {
    const known = (word: string) => ['iphone', 'javascript'].includes(word.toLowerCase());
    expect(compoundParts('throwOnTimeout')).toBe('throw On Timeout');
    expect(compoundParts('WebSocketServer')).toBe('Web Socket Server');
    expect(compoundParts('HTMLParser')).toBe('HTML Parser');
    expect(compoundParts('base64Encode')).toBe('base64 Encode');
    expect(splitCompounds('Set `throwOnTimeout: true` in new WebSocketServer()', known)).toBe('Set `throw On Timeout: true` in new Web Socket Server()');
    expect(splitCompounds('Use JavaScript on an iPhone', known)).toBe('Use JavaScript on an iPhone');
    expect(splitCompounds('snake_case and UPPER words, Title Case, e-mail', known)).toBe('snake_case and UPPER words, Title Case, e-mail');
    const plain = 'no name of that kind here';
    expect(splitCompounds(plain, known)).toBe(plain);
  });

  it('the offline model embeds "throwOnTimeout" as "throw on timeout" (it had no vector for it); another static model of the same table reads it as written', async () => {
    const offline = await loadEmbedder({ model: `${MODELS}/threadline-glove-30k/` });
    const other = await loadEmbedder({ model: `${MODELS}/threadline-glove-30k-fp16/` });
    const v = await offline.embed(['throwOnTimeout', 'throw on timeout', 'throwontimeout']);
    const row = (i: number) => Array.from(v.subarray(i * offline.dims, (i + 1) * offline.dims));
    expect(row(0)).toEqual(row(1));
    expect(row(1).some((x) => x !== 0)).toBe(true);
    expect(row(2).every((x) => x === 0)).toBe(true); // one unknown word: nothing to average
    const w = await other.embed(['throwOnTimeout']);
    expect(Array.from(w).every((x) => x === 0)).toBe(true);
    expect(offline.modelId).toBe('threadline-glove-30k#int8-v2');
  });

  it('a hostile run of case changes (400,000 characters) gives a finite vector of the model\'s size', async () => {
    const offline = await loadEmbedder({ model: `${MODELS}/threadline-glove-30k/` });
    const v = await offline.embed(['aB'.repeat(200_000)]);
    expect(v.length).toBe(offline.dims);
    expect(Array.from(v).every(Number.isFinite)).toBe(true);
  });
});
