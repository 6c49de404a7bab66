import { describe, expect, it } from 'vitest';
import { emptyManifest } from '../../src/storage/manifest';
import type { StoredIndex } from '../../src/storage/index-store';
import { memoryFrom, prepareMemory } from '../../src/worker/hydrate';

const manifest = (chunkCount: number, dims = 8) => ({ ...emptyManifest({ modelId: 'm', dims }), chunkCount, docCount: 1 });

/** A stored index of one document with n chunks of `dims` (vectors in one run), as IndexStore.load returns it. */
function stored(n: number, dims = 8): StoredIndex {
  const rows = Float32Array.from({ length: n * dims }, (_, i) => (i % dims === i % 3 ? 1 : 0));
  return {
    manifest: manifest(n, dims),
    docs: [{ id: 'd', hash: 'h', chars: 0, addedAt: 0, chunkKeys: [], chunks: [], chunkShards: [] }],
    chunks: Array.from({ length: n }, (_, i) => ({ key: i + 1, docId: 'd', text: `chunk ${i}`, context: `chunk ${i}`, headingPath: [], start: 0, end: 7, shard: 1, slot: i })),
    vectors: [{ from: 0, count: n, rows }],
    segments: new Map(),
    damaged: [],
    problems: [],
  };
}

describe('memory prepared from the manifest while the records are read (hydrate.ts)', () => {
  it('is sized by the manifest, and made only for a readable, non-empty, plausible one', () => {
    expect(prepareMemory(manifest(500), false)?.vectors.capacity).toBe(500);
    expect(prepareMemory(manifest(500), true)?.vectors.capacity).toBe(500);
    expect(prepareMemory(undefined, false)).toBeNull();
    expect(prepareMemory({ ...manifest(500), dims: 'eight' }, false)).toBeNull();
    expect(prepareMemory(manifest(0), false)).toBeNull();
    // A damaged or hostile count: 10 million × 384 would be 15 GB; nothing is reserved on its word.
    expect(prepareMemory(manifest(10_000_000, 384), false)).toBeNull();
  });

  it('serves the hydrate when it fits what was read, and is dropped when it does not', () => {
    const read = stored(300);
    const fitting = prepareMemory(manifest(300), false);
    const built = memoryFrom(read, false, fitting);
    expect(built).toBe(fitting);
    expect(built?.chunkCount).toBe(300);
    // The manifest overstated its count by far (a record was lost, or it was edited): a fresh index of the right size.
    const oversized = prepareMemory(manifest(5_000), false);
    const rebuilt = memoryFrom(read, false, oversized);
    expect(rebuilt).not.toBe(oversized);
    expect(rebuilt?.vectors.capacity).toBe(300);
    // Other dimensions than the records: not used either.
    expect(memoryFrom(read, false, prepareMemory(manifest(300, 16), false))?.dims).toBe(8);
    // Either way the same index: same hits for the same query.
    const q = Float32Array.from({ length: 8 }, (_, i) => (i === 1 ? 1 : 0));
    expect(rebuilt?.vectors.search(q, 5)).toEqual(built?.vectors.search(q, 5));
    expect(memoryFrom(read, false)?.vectors.search(q, 5)).toEqual(built?.vectors.search(q, 5));
  });

  it('an understated count still hydrates every chunk, into an index of the size read', () => {
    const read = stored(300);
    const small = prepareMemory(manifest(100), false);
    const built = memoryFrom(read, false, small);
    expect(built).not.toBe(small);
    expect(built?.chunkCount).toBe(300);
  });
});
