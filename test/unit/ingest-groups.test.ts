import { describe, expect, it } from 'vitest';
import { GROUP_CHUNKS, GROUP_TARGET_MS, MAX_GROUP_CHUNKS, batches, embedAndCommit, nextGroupSize } from '../../src/worker/ingest-batches';
import type { PreparedDoc } from '../../src/ingest/changed-documents';
import { PAGE_CHUNKS, paginate } from '../../src/storage/schema';

const doc = (id: string, chunks: number): PreparedDoc => ({
  record: { id, hash: id, chars: chunks, addedAt: 0 },
  chunks: Array.from({ length: chunks }, (_, i) => ({ docId: id, text: `${id} ${i}`, context: `${id} ${i}`, headingPath: [], start: i, end: i + 1 })),
});

describe('ingest groups sized by speed', () => {
  it('a group that went fast makes the next one larger, a slow one keeps the first size, both within bounds', () => {
    expect(nextGroupSize(256, GROUP_TARGET_MS / 8)).toBe(2048);
    expect(nextGroupSize(256, GROUP_TARGET_MS * 10)).toBe(GROUP_CHUNKS);
    expect(nextGroupSize(256, 0)).toBe(MAX_GROUP_CHUNKS);
    expect(nextGroupSize(8192, 1)).toBe(MAX_GROUP_CHUNKS);
    expect(nextGroupSize(0, 5)).toBe(GROUP_CHUNKS);
  });

  it('batches keep documents whole and ask for the size again for each batch', () => {
    const docs = Array.from({ length: 10 }, (_, i) => doc(`d${i}`, 3));
    const sizes = [4, 9, 100];
    const out = [...batches(docs, () => sizes.shift() ?? 100)].map((g) => g.map((d) => d.record.id));
    expect(out).toEqual([['d0', 'd1'], ['d2', 'd3', 'd4'], ['d5', 'd6', 'd7', 'd8', 'd9']]);
  });

  it('a fast embedder (fake, instant) commits 5,000 one-chunk documents in a few large groups; a slow one (fake, 1 ms a chunk) in groups of the first size', async () => {
    const docs = Array.from({ length: 5000 }, (_, i) => doc(`d${i}`, 1));
    const run = async (msPerChunk: number, count: number) => {
      const commits: number[] = [];
      const embedder = {
        dims: 2,
        embed: async (texts: string[]) => { if (msPerChunk) await new Promise((r) => setTimeout(r, msPerChunk * texts.length)); return new Float32Array(texts.length * 2); },
      };
      await embedAndCommit(docs.slice(0, count), embedder, {}, { commit: (pending) => { commits.push(pending.length); return Promise.resolve(); }, embedded: () => {}, committed: () => {} });
      return commits;
    };
    const fast = await run(0, 5000);
    expect(fast[0]).toBe(GROUP_CHUNKS);
    expect(fast[1]).toBeGreaterThan(GROUP_CHUNKS);
    expect(fast.length).toBeLessThan(5000 / GROUP_CHUNKS / 2);
    expect(fast.reduce((a, b) => a + b, 0)).toBe(5000);
    // 256 ms a group, over the 50 ms target: the size stays at its floor.
    const slow = await run(1, 1024);
    expect(slow).toEqual([256, 256, 256, 256]);
  });
});

describe('pages of stored documents', () => {
  it('hold whole documents, about PAGE_CHUNKS chunks each; a larger document is a page of its own; empty documents count as one', () => {
    const stored = (id: string, chunks: number) => ({ id, hash: id, chunkKeys: Array.from({ length: chunks }, (_, i) => i), chunks: [], chunkShards: Array.from({ length: chunks }, () => 1), chars: 0, addedAt: 0 });
    const pages = paginate([stored('a', 200), stored('b', 100), stored('c', 600), stored('d', 10)]);
    expect(pages.map((p) => p.docIds)).toEqual([['a'], ['b'], ['c'], ['d']]);
    const small = paginate(Array.from({ length: 600 }, (_, i) => stored(`s${i}`, 1)));
    expect(small.map((p) => p.docIds.length)).toEqual([PAGE_CHUNKS, PAGE_CHUNKS, 600 - 2 * PAGE_CHUNKS]);
    const empty = paginate(Array.from({ length: 600 }, (_, i) => stored(`e${i}`, 0)));
    expect(Math.max(...empty.map((p) => p.docIds.length))).toBe(PAGE_CHUNKS);
    expect(pages[0]).toMatchObject({ shards: [1] });
  });
});
