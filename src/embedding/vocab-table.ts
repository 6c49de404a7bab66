/**
 * A word-level vocabulary as three tensors of model.safetensors, read with no
 * parsing at all: the words' bytes in id order, each word's length, and an
 * open-addressing hash table from a word to its id.
 *
 * Why: on every page load the offline model's worker parsed `tokenizer.json`
 * (462 KB of JSON) and checked its 30,000 ids, 10–15 ms of the worker's time
 * while the stored index was being read, and fetched three small files beside
 * the table (each a cache transaction of about 2.5 ms here). With the
 * vocabulary inside the table's file, the built-in model is one file, and
 * building the lookup costs a prefix sum over the lengths.
 *
 * Layout (written by `vocabTensors`, read by `readVocabTable`):
 * - `vocab.bytes` U8 [total]: each id's word, one byte per UTF-16 unit (so
 *   only words whose units are all below 256; the offline model's are ASCII);
 * - `vocab.lengths` U8 [vocab]: each id's word length (0: no word has that id);
 * - `vocab.slots` U16 or I32 [2^k]: id + 1 at the slot its word hashes to
 *   (FNV-1a over UTF-16 units, linear probing), 0 for an empty slot.
 * A hostile file can make lookups miss or find a wrong id, never read out of
 * bounds or loop: every index is checked where it is read, and probing stops
 * after one pass over the table.
 */
import type { Tensor } from './safetensors';

export const VOCAB_TENSORS = { bytes: 'vocab.bytes', lengths: 'vocab.lengths', slots: 'vocab.slots' } as const;

/** Looks a token up; `undefined` when it is not in the vocabulary. */
export type VocabLookup = (token: string) => number | undefined;

export interface VocabTable {
  lookup: VocabLookup;
  /** One more than the largest id. */
  size: number;
}

function hash(token: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < token.length; i++) h = Math.imul(h ^ token.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The three tensors for `words` (index = id; an empty string: no word has that id). */
export function vocabTensors(words: readonly string[]): Record<string, { dtype: 'U8' | 'U16' | 'I32'; shape: number[]; bytes: Uint8Array }> {
  let total = 0;
  for (const word of words) {
    if (word.length > 255) throw new Error(`vocabulary word of ${word.length} units is longer than 255`);
    for (let i = 0; i < word.length; i++) if (word.charCodeAt(i) > 255) throw new Error(`vocabulary word ${JSON.stringify(word)} has a unit above U+00FF`);
    total += word.length;
  }
  const bytes = new Uint8Array(total);
  const lengths = new Uint8Array(words.length);
  let at = 0;
  words.forEach((word, id) => {
    lengths[id] = word.length;
    for (let i = 0; i < word.length; i++) bytes[at++] = word.charCodeAt(i);
  });
  // At most half full, so a miss probes about two slots.
  let size = 2;
  while (size < words.length * 2) size *= 2;
  const wide = words.length + 1 > 0xffff;
  const slots = wide ? new Int32Array(size) : new Uint16Array(size);
  const mask = size - 1;
  const seen = new Set<string>();
  words.forEach((word, id) => {
    if (!word) return;
    if (seen.has(word)) throw new Error(`vocabulary word ${JSON.stringify(word)} has two ids`);
    seen.add(word);
    let slot = hash(word) & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = id + 1;
  });
  const view = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  return {
    [VOCAB_TENSORS.bytes]: { dtype: 'U8', shape: [total], bytes },
    [VOCAB_TENSORS.lengths]: { dtype: 'U8', shape: [words.length], bytes: lengths },
    [VOCAB_TENSORS.slots]: { dtype: wide ? 'I32' : 'U16', shape: [size], bytes: view(slots) },
  };
}

/**
 * The lookup over a file's vocabulary tensors, null when the file has none; a problem with them is
 * thrown as an Error naming it (the caller says which model).
 */
export function readVocabTable(tensors: ReadonlyMap<string, Tensor>): VocabTable | null {
  const bytesT = tensors.get(VOCAB_TENSORS.bytes);
  const lengthsT = tensors.get(VOCAB_TENSORS.lengths);
  const slotsT = tensors.get(VOCAB_TENSORS.slots);
  if (!bytesT && !lengthsT && !slotsT) return null;
  if (!bytesT || !lengthsT || !slotsT) throw new Error(`the vocabulary needs all three of ${Object.values(VOCAB_TENSORS).join(', ')}`);
  if (bytesT.dtype !== 'U8' || lengthsT.dtype !== 'U8' || bytesT.shape.length !== 1 || lengthsT.shape.length !== 1) throw new Error('the vocabulary\'s bytes and lengths must be 1-D U8 tensors');
  if (slotsT.shape.length !== 1 || (slotsT.dtype !== 'U16' && slotsT.dtype !== 'I32')) throw new Error('the vocabulary\'s slots must be a 1-D U16 or I32 tensor');
  const words = bytesT.bytes;
  const lengths = lengthsT.bytes;
  const vocab = lengths.length;
  const size = slotsT.shape[0] ?? 0;
  if (size < 2 || (size & (size - 1)) !== 0) throw new Error(`the vocabulary's slot count ${size} is not a power of two`);
  // Typed views need aligned offsets; a file that misaligns them is copied (never the case for one this project writes).
  const width = slotsT.dtype === 'U16' ? 2 : 4;
  const slotBytes = slotsT.bytes.byteOffset % width === 0 ? slotsT.bytes : slotsT.bytes.slice();
  const slots = width === 2 ? new Uint16Array(slotBytes.buffer, slotBytes.byteOffset, size) : new Int32Array(slotBytes.buffer, slotBytes.byteOffset, size);
  const starts = new Uint32Array(vocab);
  let total = 0;
  for (let id = 0; id < vocab; id++) {
    starts[id] = total;
    total += lengths[id] ?? 0;
  }
  if (total !== words.length) throw new Error(`the vocabulary's lengths add up to ${total} bytes, but it holds ${words.length}`);
  const mask = size - 1;
  const lookup: VocabLookup = (token) => {
    const n = token.length;
    if (n === 0 || n > 255) return undefined;
    let slot = hash(token) & mask;
    for (let probe = 0; probe < size; probe++) {
      const entry = slots[slot] ?? 0;
      if (entry <= 0 || entry > vocab) return undefined; // empty, or out of range (a hostile file): a miss
      const id = entry - 1;
      if (lengths[id] === n) {
        const start = starts[id] ?? 0;
        let same = true;
        for (let i = 0; i < n; i++) if (words[start + i] !== token.charCodeAt(i)) { same = false; break; }
        if (same) return id;
      }
      slot = (slot + 1) & mask;
    }
    return undefined;
  };
  return { lookup, size: vocab };
}
