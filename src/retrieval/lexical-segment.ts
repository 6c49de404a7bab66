/**
 * BM25 postings of one vector shard, stored with it, so reopening an index
 * does not tokenize every chunk again: a segment is loaded with one string
 * split and a dictionary of its distinct terms instead of a few million
 * posting inserts. Slots index the shard's `keys`. A segment written with
 * other tokenizer rules (`version`) is ignored and its chunks re-tokenized.
 */
import type { LexicalSegment, SegmentPart } from '../index-data';
import { lexicalTerms } from '../text/tokens';
import { runSteps, runStepsSliced, type TimeSlice } from '../util/time-slice';

/** Bump whenever lexicalTerms (folding, stopwords, stemming) changes. */
export const LEXICAL_VERSION = 1;

export type { LexicalSegment, SegmentPart };

/** Postings of `texts`, text i at slot i. */
export function buildSegment(texts: readonly string[]): LexicalSegment {
  return runSteps(segmentSteps(texts));
}

/** The postings of `contexts` cut into consecutive segments of at most `rows` chunks. */
export function buildSegments(contexts: readonly string[], rows: number): LexicalSegment[] {
  const out: LexicalSegment[] = [];
  for (let from = 0; from < contexts.length; from += rows) out.push(buildSegment(contexts.slice(from, from + rows)));
  return out;
}

/** The same segments, the event loop turning whenever a stretch of `slice` is over (between two texts). */
export async function buildSegmentsSliced(contexts: readonly string[], rows: number, slice: TimeSlice): Promise<LexicalSegment[]> {
  const out: LexicalSegment[] = [];
  for (let from = 0; from < contexts.length; from += rows) out.push(await runStepsSliced(segmentSteps(contexts.slice(from, from + rows)), slice));
  return out;
}

/** buildSegment as steps: it pauses after each text. */
function* segmentSteps(texts: readonly string[]): Generator<void, LexicalSegment> {
  const byTerm = new Map<string, number[]>();
  const lengths = new Uint32Array(texts.length);
  const counts = new Map<string, number>();
  for (let slot = 0; slot < texts.length; slot++) {
    const terms = lexicalTerms(texts[slot] as string);
    lengths[slot] = terms.length;
    // Counted, not sorted: a chunk's terms in order of first use (sorting them cost as much as finding them).
    counts.clear();
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    for (const [term, tf] of counts) {
      let list = byTerm.get(term);
      if (!list) byTerm.set(term, (list = []));
      list.push(slot, Math.min(tf, 0xffff));
    }
    yield;
  }
  return packSegment(byTerm, lengths);
}

/** A segment from term → flat [slot, tf, slot, tf, …] lists, each in slot order. */
function packSegment(byTerm: ReadonlyMap<string, readonly number[]>, lengths: Uint32Array): LexicalSegment {
  let count = 0;
  for (const list of byTerm.values()) count += list.length / 2;
  const offsets = new Uint32Array(byTerm.size + 1);
  const slots = new Uint32Array(count);
  const tfs = new Uint16Array(count);
  let at = 0;
  let t = 0;
  for (const list of byTerm.values()) {
    offsets[t++] = at;
    for (let i = 0; i < list.length; i += 2, at++) {
      slots[at] = list[i] as number;
      tfs[at] = list[i + 1] as number;
    }
  }
  offsets[t] = at;
  return { version: LEXICAL_VERSION, terms: [...byTerm.keys()].join('\n'), offsets, slots, tfs, lengths };
}

/**
 * A stored segment this code can use as is: built with these tokenizer rules,
 * one length per slot, and well formed (storage is data anyone with the
 * page's origin can rewrite: a malformed segment is ignored and its chunks
 * tokenized again, never trusted).
 */
export function isCurrentSegment(segment: LexicalSegment | undefined, slotCount: number): segment is LexicalSegment {
  if (!segment || segment.version !== LEXICAL_VERSION || typeof segment.terms !== 'string') return false;
  const { offsets, slots, tfs, lengths } = segment;
  if (!(offsets instanceof Uint32Array && slots instanceof Uint32Array && tfs instanceof Uint16Array && lengths instanceof Uint32Array)) return false;
  if (lengths.length !== slotCount || slots.length !== tfs.length || offsets.length < 1) return false;
  const termCount = segment.terms === '' ? 0 : segment.terms.split('\n').length;
  if (offsets.length !== termCount + 1 || offsets[0] !== 0 || offsets[termCount] !== slots.length) return false;
  for (let i = 1; i < offsets.length; i++) if ((offsets[i] as number) < (offsets[i - 1] as number)) return false;
  for (let p = 0; p < slots.length; p++) if ((slots[p] as number) >= slotCount) return false;
  return true;
}

/**
 * The postings of the kept slots of several segments as one segment (for
 * compaction): a re-indexing of the stored postings, no tokenization, unless
 * a part has no current segment, in which case every kept text is tokenized.
 * Either way it holds the same postings as `buildSegment` over the kept texts
 * in order (terms may be listed in another order).
 */
export function mergeSegments(parts: readonly SegmentPart[], slotCounts: readonly number[]): LexicalSegment {
  if (!parts.every((part, i) => isCurrentSegment(part.segment, slotCounts[i] ?? -1))) return buildSegment(parts.flatMap((p) => p.texts));
  const total = parts.reduce((n, p) => n + p.slots.length, 0);
  const lengths = new Uint32Array(total);
  const byTerm = new Map<string, number[]>();
  let base = 0;
  for (const { segment, slots } of parts) {
    const seg = segment as LexicalSegment;
    const renumber = new Map<number, number>();
    slots.forEach((slot, i) => { renumber.set(slot, base + i); lengths[base + i] = seg.lengths[slot] as number; });
    const terms = seg.terms === '' ? [] : seg.terms.split('\n');
    terms.forEach((term, t) => {
      for (let p = seg.offsets[t] as number; p < (seg.offsets[t + 1] as number); p++) {
        const slot = renumber.get(seg.slots[p] as number);
        if (slot === undefined) continue;
        let list = byTerm.get(term);
        if (!list) byTerm.set(term, (list = []));
        list.push(slot, seg.tfs[p] as number);
      }
    });
    base += slots.length;
  }
  // Postings of each term in slot order, as buildSegment writes them (kept slots may come in any order).
  for (const [term, list] of byTerm) {
    const pairs: [number, number][] = [];
    for (let i = 0; i < list.length; i += 2) pairs.push([list[i] as number, list[i + 1] as number]);
    byTerm.set(term, pairs.sort((a, b) => a[0] - b[0]).flat());
  }
  return packSegment(byTerm, lengths);
}
