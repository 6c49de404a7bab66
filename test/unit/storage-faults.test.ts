import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { beforeAll, describe, expect, it } from 'vitest';
import { settledWithin } from '../../src/util/settled-within';
import type { Embedder } from '../../src/embedding/embedder';
import type { Progress } from '../../src/progress';
import { decodePrebuilt, encodePrebuilt, type PrebuiltChunk, type PrebuiltDoc } from '../../src/prebuilt/format';
import { deleteIndex } from '../../src/storage/delete-index';
import { RetrievalEngine } from '../../src/worker/retrieval-engine';
import { MODEL_ID, SAMPLE_DOCS, samplePrebuilt } from '../fixtures/engine';
import { putStoredDoc, storedDoc, storedDocs } from '../fixtures/stored-docs';

const docs = SAMPLE_DOCS;
let embedder: Embedder;
let file: Uint8Array;
let unique = 0;

beforeAll(async () => {
  ({ embedder, file } = await samplePrebuilt());
});

/** The real offline model behind the Embedder seam, optionally reporting other dimensions (a model of another size). */
function open(name: string, options: { dims?: number; onProgress?: (p: Progress) => void } = {}) {
  const dims = options.dims ?? embedder.dims;
  const load = (): Promise<Embedder> => Promise.resolve({
    ...embedder, modelId: MODEL_ID, dims, countTokens: (t) => embedder.countTokens(t),
    embed: async (t, o) => {
      const v = await embedder.embed(t, o);
      if (dims === embedder.dims) return v;
      const out = new Float32Array(t.length * dims);
      for (let r = 0; r < t.length; r++) out.set(v.subarray(r * embedder.dims, r * embedder.dims + Math.min(dims, embedder.dims)), r * dims);
      return out;
    },
  });
  return RetrievalEngine.open({ name, modelId: MODEL_ID, chunking: {}, int8: false, weights: { dense: 1, lexical: 1 }, onModelMismatch: 'error' }, load, options.onProgress);
}

/** A prebuilt file whose hash is valid (anyone can compute it) but whose content is tampered with. */
async function tampered(change: (parts: { docs: PrebuiltDoc[]; chunks: PrebuiltChunk[]; vectors: Float32Array; dims: number }) => void): Promise<Uint8Array> {
  const decoded = await decodePrebuilt(file);
  const parts = { docs: structuredClone(decoded.docs), chunks: structuredClone(decoded.chunks), vectors: decoded.vectors.slice(), dims: decoded.header.dims };
  change(parts);
  return encodePrebuilt({ modelId: decoded.header.modelId, ...parts });
}

/**
 * After a repair: a document it kept still answers a search for its own text, adding every document again
 * adds exactly the `lost` ones, and the next open has nothing left to repair.
 */
async function expectRecovers(name: string, repaired: RetrievalEngine, kept: (typeof docs)[number] | undefined, lost: number): Promise<void> {
  expect((await repaired.search(kept?.text.slice(0, 80) ?? '', { k: 1 }))[0]?.docId).toBe(kept?.id);
  expect(await repaired.add(docs)).toMatchObject({ added: lost });
  repaired.close();
  const again = await open(name);
  expect((await again.stats()).repairedDocs ?? []).toEqual([]);
  expect((await again.stats()).docs).toBe(docs.length);
  again.close();
}

async function seeded() {
  const name = `faults-${unique++}`;
  const engine = await open(name);
  await engine.add(docs);
  return { name, engine };
}

describe('a prebuilt file with a valid hash is still checked field by field before any write', () => {
  it.each([
    ['a chunk context that is not a string', (p: { chunks: PrebuiltChunk[] }) => { (p.chunks[0] as unknown as { context: unknown }).context = 42; }],
    ['null chunk text', (p: { chunks: PrebuiltChunk[] }) => { (p.chunks[1] as unknown as { text: unknown }).text = null; }],
    ['a duplicate document id', (p: { docs: PrebuiltDoc[] }) => { (p.docs[1] as PrebuiltDoc).id = (p.docs[0] as PrebuiltDoc).id; }],
    ['a document id that is not a string', (p: { docs: PrebuiltDoc[] }) => { (p.docs[0] as unknown as { id: unknown }).id = 7; }],
    ['negative offsets', (p: { chunks: PrebuiltChunk[] }) => { (p.chunks[0] as PrebuiltChunk).start = -3; }],
    ['a heading path of numbers', (p: { chunks: PrebuiltChunk[] }) => { (p.chunks[0] as unknown as { headingPath: unknown }).headingPath = [1, 2]; }],
    ['a NaN in a vector', (p: { vectors: Float32Array }) => { p.vectors[5] = Number.NaN; }],
    ['chunks out of document order', (p: { chunks: PrebuiltChunk[] }) => { p.chunks.reverse(); }],
  ])('%s: CORRUPT_INDEX, and the stored index is untouched and reopens', async (_label, change) => {
    const { name, engine } = await seeded();
    const before = await engine.search('refund window', { k: 3 });
    await expect(engine.loadPrebuilt(await tampered(change))).rejects.toMatchObject({ code: 'CORRUPT_INDEX' });
    expect(await engine.search('refund window', { k: 3 })).toEqual(before);
    engine.close();
    const again = await open(name);
    expect((await again.stats()).docs).toBe(docs.length);
    again.close();
  });

  it('a body that is not JSON (hash recomputed) is CORRUPT_INDEX, never INTERNAL', async () => {
    const decoded = await decodePrebuilt(file);
    const bad = await encodePrebuilt({ modelId: decoded.header.modelId, dims: decoded.header.dims, docs: decoded.docs, chunks: decoded.chunks, vectors: decoded.vectors });
    // Break the JSON body, then recompute the header hash as an attacker would.
    const { header, payloadStart } = (await import('../../src/prebuilt/format')).readPrebuiltHeader(bad);
    const payload = bad.slice(payloadStart);
    payload[4] = '}'.charCodeAt(0);
    const hash = Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', payload)), (b) => b.toString(16).padStart(2, '0')).join('');
    const headerBytes = new TextEncoder().encode(JSON.stringify({ ...header, hash }));
    const out = new Uint8Array(8 + headerBytes.length + payload.length);
    out.set(bad.subarray(0, 4));
    new DataView(out.buffer).setUint32(4, headerBytes.length, true);
    out.set(headerBytes, 8);
    out.set(payload, 8 + headerBytes.length);
    const { engine } = await seeded();
    await expect(engine.loadPrebuilt(out)).rejects.toMatchObject({ code: 'CORRUPT_INDEX' });
    engine.close();
  });

  it('the right model id with other dimensions is MODEL_MISMATCH and replaces nothing', async () => {
    const { engine } = await seeded();
    const decoded = await decodePrebuilt(file);
    const wide = await encodePrebuilt({ modelId: decoded.header.modelId, dims: 8, docs: decoded.docs, chunks: decoded.chunks, vectors: new Float32Array(decoded.chunks.length * 8).fill(0.1) });
    await expect(engine.loadPrebuilt(wide)).rejects.toMatchObject({ code: 'MODEL_MISMATCH' });
    expect((await engine.search('refund window', { k: 1 }))[0]?.docId).toBe('refunds');
    engine.close();
  });
});

describe('an emptied index accepts any model', () => {
  it('after clear(), a model of other dimensions adds and searches', async () => {
    const { name, engine } = await seeded();
    await engine.clear();
    engine.close();
    const other = await open(name, { dims: 50 });
    expect(await other.add(docs.slice(0, 2))).toMatchObject({ added: 2 });
    expect((await other.stats()).dims).toBe(50);
    expect((await other.search('refund window', { k: 1 }))[0]?.docId).toBe('refunds');
    other.close();
  });
});

describe('damaged storage never bricks the name', () => {
  const tamper = async (name: string, work: (db: Awaited<ReturnType<typeof openDB>>) => Promise<void>) => {
    const db = await openDB(`threadline:${name}`);
    await work(db);
    db.close();
  };

  it('a stored vector that is finite but not unit length is no damage: the open normalizes it, and it scores as before', async () => {
    const { name, engine } = await seeded();
    const doc = docs[4] as (typeof docs)[number];
    const query = doc.text.slice(0, 80);
    const before = (await engine.search(query, { k: 3, mode: 'dense' })).map((h) => [h.chunkKey, h.score] as const);
    engine.close();
    // Only this document's rows: the others in the same shard stay unit length, so the open sees both kinds side by side.
    await tamper(name, async (db) => {
      const keys = (await storedDoc(db, doc.id)).chunkKeys;
      const shards = await db.getAll('shards') as { id: number; dims: number; keys: Float64Array; vectors: Float32Array }[];
      for (const shard of shards) {
        shard.keys.forEach((key, slot) => {
          if (keys.includes(key)) for (let i = slot * shard.dims; i < (slot + 1) * shard.dims; i++) shard.vectors[i] = (shard.vectors[i] as number) * 3;
        });
        await db.put('shards', shard);
      }
    });
    const reopened = await open(name);
    expect((await reopened.stats()).repairedDocs ?? []).toEqual([]);
    const after = (await reopened.search(query, { k: 3, mode: 'dense' })).map((h) => [h.chunkKey, h.score] as const);
    expect(before[0]?.[0]).toBeDefined();
    expect(after.map(([key]) => key)).toEqual(before.map(([key]) => key));
    after.forEach(([, score], i) => expect(score).toBeCloseTo(before[i]?.[1] ?? Number.NaN, 4));
    reopened.close();
  });

  it('a missing shard: open repairs, reports the documents it removed, the rest answers, and they can be added again', async () => {
    const { name, engine } = await seeded();
    engine.close();
    await tamper(name, async (db) => { await db.delete('shards', (await db.getAllKeys('shards'))[0] as number); });
    const events: Progress[] = [];
    const repaired = await open(name, { onProgress: (p) => events.push(p) });
    const repair = events.find((e) => e.phase === 'repair');
    expect(repair).toBeDefined();
    const stats = await repaired.stats();
    expect(stats.repairedDocs?.length).toBeGreaterThan(0);
    expect(stats.docs).toBe(docs.length - (stats.repairedDocs?.length ?? 0));
    expect(await repaired.add(docs)).toMatchObject({ added: stats.repairedDocs?.length });
    expect((await repaired.stats()).docs).toBe(docs.length);
    repaired.close();
  });

  it('damage found while this tab holds the write lock (another tab committed, a shard is gone) is repaired there, not waited on forever', async () => {
    // Before: remove() reloaded under the write lock, and the repair asked for the same lock again: it never settled.
    const { name, engine } = await seeded();
    await tamper(name, async (db) => {
      await db.delete('shards', (await db.getAllKeys('shards'))[0] as number);
      const manifest = (await db.get('meta', 'manifest')) as { generation: number };
      await db.put('meta', { ...manifest, generation: manifest.generation + 1 }, 'manifest'); // as another tab's commit would
    });
    const removing = engine.remove(['plans']);
    expect(await settledWithin(removing, 5000)).toBe(true);
    await removing; // and it resolved
    const stats = await engine.stats();
    expect(stats.repairedDocs?.length).toBeGreaterThan(0);
    engine.close();
  });

  it('a truncated shard is repaired the same way, never INVALID_INPUT', async () => {
    const { name, engine } = await seeded();
    engine.close();
    await tamper(name, async (db) => {
      const [shard] = await db.getAll('shards') as { vectors: Float32Array }[];
      if (!shard) throw new Error('no shard');
      await db.put('shards', { ...shard, vectors: shard.vectors.slice(0, 7) });
    });
    const repaired = await open(name);
    expect((await repaired.stats()).repairedDocs?.length).toBeGreaterThan(0);
    repaired.close();
    // Repaired once: the next open finds nothing to repair.
    const events: Progress[] = [];
    const again = await open(name, { onProgress: (p) => events.push(p) });
    expect(events.some((e) => e.phase === 'repair')).toBe(false);
    again.close();
  });

  it.each([10_000_000, 5_000, 1])('a manifest whose chunk count says %i: the index opens from its records and answers as before', async (count) => {
    const { name, engine } = await seeded();
    const before = await engine.search('refund window', { k: 3 });
    const chunks = (await engine.stats()).chunks;
    engine.close();
    await tamper(name, async (db) => {
      const manifest = await db.get('meta', 'manifest') as Record<string, unknown>;
      await db.put('meta', { ...manifest, chunkCount: count }, 'manifest');
    });
    const again = await open(name);
    expect((await again.stats()).chunks).toBe(chunks);
    expect(await again.search('refund window', { k: 3 })).toEqual(before);
    again.close();
  });

  it('a missing manifest is rebuilt: chunk keys are never reused, and remove() deletes only its own document', async () => {
    const { name, engine } = await seeded();
    engine.close();
    await tamper(name, (db) => db.delete('meta', 'manifest'));
    const rebuilt = await open(name);
    const keysBefore = rebuilt.chunkKeys();
    await rebuilt.add([{ id: 'new', text: 'A brand new note about passports and visas.' }]);
    const added = rebuilt.chunkKeys().filter((k) => !keysBefore.includes(k));
    expect(added.length).toBeGreaterThan(0);
    expect(Math.min(...added)).toBeGreaterThan(Math.max(...keysBefore));
    await rebuilt.remove(['new']);
    expect(rebuilt.chunkKeys()).toEqual(keysBefore);
    expect((await rebuilt.stats()).docs).toBe(docs.length);
    rebuilt.close();
  });

  /** Writes `value` as the last value of a stored vector of docs[4]: a check that stopped early, or summed only part of a row, would miss it. */
  const storedValue = (value: number) => async (db: Awaited<ReturnType<typeof openDB>>) => {
    const doc = await storedDoc(db, docs[4]?.id as string);
    const key = doc.chunkKeys.at(-1) as number;
    const shards = await db.getAll('shards') as { id: number; dims: number; keys: Float64Array; vectors: Float32Array }[];
    const shard = shards.find((s) => s.keys.includes(key));
    if (!shard) throw new Error('no shard holds the key');
    shard.vectors[(shard.keys.indexOf(key) + 1) * shard.dims - 1] = value;
    await db.put('shards', shard);
  };

  /** An index whose documents name shards that compaction merged away (one add per document: small shards, merged). */
  async function compacted() {
    const name = `faults-${unique++}`;
    const engine = await open(name);
    for (const doc of docs) await engine.add([doc]);
    for (let i = 0; i < 8; i++) await engine.add([{ id: `note-${i}`, text: `Note ${i} about passports and visas.` }]);
    engine.close();
    const db = await openDB(`threadline:${name}`);
    const manifest = await db.get('meta', 'manifest') as { shardAlias?: Record<number, number> };
    db.close();
    expect(Object.keys(manifest.shardAlias ?? {}).length).toBeGreaterThan(0);
    return name;
  }

  it.each([
    ['deleted', (m: Record<string, unknown> | undefined) => { void m; return undefined; }],
    ['with aliases that are not numbers', (m: Record<string, unknown> | undefined) => ({ ...m, shardAlias: { 1: 'seven' } })],
  ])('a manifest %s after compaction: every document survives (the shards\' keys place the vectors), and the repair writes each place out in full', async (_label, change) => {
    const name = await compacted();
    await tamper(name, async (db) => {
      const next = change(await db.get('meta', 'manifest') as Record<string, unknown> | undefined);
      if (next) await db.put('meta', next, 'manifest'); else await db.delete('meta', 'manifest');
    });
    const repaired = await open(name);
    expect((await repaired.stats()).repairedDocs ?? []).toEqual([]);
    expect((await repaired.stats()).docs).toBe(docs.length + 8);
    repaired.close();
    const db = await openDB(`threadline:${name}`);
    const [stored, shards] = [await storedDocs(db), await db.getAll('shards') as { id: number; keys: Float64Array }[]];
    const manifest = await db.get('meta', 'manifest') as { shardAlias?: Record<number, number> };
    db.close();
    expect(manifest.shardAlias ?? {}).toEqual({});
    for (const d of stored) d.chunkKeys.forEach((key, i) => expect(shards.find((sh) => sh.id === d.chunkShards[i])?.keys.includes(key)).toBe(true));
    const again = await open(name);
    expect((await again.stats()).repairedDocs ?? []).toEqual([]);
    again.close();
  });

  it('an alias that points at the wrong shard: the documents it misplaces are reported and removed, the others answer', async () => {
    const name = await compacted();
    await tamper(name, async (db) => {
      const manifest = await db.get('meta', 'manifest') as { shardAlias: Record<number, number> };
      const [from] = Object.keys(manifest.shardAlias);
      manifest.shardAlias[Number(from)] = 424242;
      await db.put('meta', manifest, 'manifest');
    });
    const repaired = await open(name);
    const stats = await repaired.stats();
    expect(stats.repairedDocs?.length).toBeGreaterThan(0);
    expect(stats.docs).toBe(docs.length + 8 - (stats.repairedDocs?.length ?? 0));
    const lost = new Set(stats.repairedDocs);
    expect(await repaired.add(docs)).toMatchObject({ added: docs.filter((d) => lost.has(d.id)).length });
    repaired.close();
  });

  it.each([
    ['a chunk text that is not text', async (db: Awaited<ReturnType<typeof openDB>>) => {
      const [doc] = await storedDocs(db);
      if (!doc?.chunks[0]) throw new Error('no chunks');
      (doc.chunks[0] as { text: unknown }).text = { not: 'text' };
      await putStoredDoc(db, doc);
    }],
    ['a document that lost a chunk', async (db: Awaited<ReturnType<typeof openDB>>) => {
      const doc = await storedDoc(db, docs[1]?.id as string);
      doc.chunks.pop();
      await putStoredDoc(db, doc);
    }],
    ['a document that names the wrong shard', async (db: Awaited<ReturnType<typeof openDB>>) => {
      const doc = await storedDoc(db, docs[2]?.id as string);
      doc.chunkShards[0] = (doc.chunkShards[0] as number) + 1000;
      await putStoredDoc(db, doc);
    }],
    ['a NaN in a stored vector', storedValue(Number.NaN)],
    ['an infinity in a stored vector', storedValue(Number.POSITIVE_INFINITY)],
    ['a value past float32 in a stored vector', storedValue(-1e39)],
    ['a document that lists one of its chunks twice', async (db: Awaited<ReturnType<typeof openDB>>) => {
      const doc = (await storedDocs(db)).find((d) => d.chunkKeys.length >= 2);
      if (!doc) throw new Error('no document of two chunks');
      doc.chunkKeys[1] = doc.chunkKeys[0] as number;
      doc.chunkShards[1] = doc.chunkShards[0] as number;
      await putStoredDoc(db, doc);
    }],
    ['two documents that list the same chunk', async (db: Awaited<ReturnType<typeof openDB>>) => {
      const [a, b] = [await storedDoc(db, docs[0]?.id as string), await storedDoc(db, docs[3]?.id as string)];
      b.chunkKeys[0] = a.chunkKeys[0] as number;
      b.chunkShards[0] = a.chunkShards[0] as number;
      await putStoredDoc(db, b);
    }],
  ])('%s: that document is reported and removed, the others answer', async (_label, change) => {
    const { name, engine } = await seeded();
    engine.close();
    await tamper(name, change);
    const repaired = await open(name);
    const stats = await repaired.stats();
    expect(stats.repairedDocs).toHaveLength(1);
    expect(stats.docs).toBe(docs.length - 1);
    await expectRecovers(name, repaired, docs.find((d) => !stats.repairedDocs?.includes(d.id)), 1);
  });

  it.each([
    ['a page whose index does not list its documents', async (db: Awaited<ReturnType<typeof openDB>>, first: { id: number; docIds: string[] }) => {
      await db.put('pages', { ...first, docIds: first.docIds.slice(1) });
    }],
    ['a document copied into a second page (under an index entry that hides it)', async (db: Awaited<ReturnType<typeof openDB>>, first: { id: number; docIds: string[]; docs: { id: string }[] }) => {
      await db.put('pages', { docIds: ['decoy'], docs: [first.docs[0]], shards: [] });
    }],
  ])('%s: its documents are reported and removed, the others answer, and adding them again works', async (_label, change) => {
    const name = `faults-${unique++}`;
    const engine = await open(name);
    await engine.add(docs.slice(0, 3));
    await engine.add(docs.slice(3));
    engine.close();
    await tamper(name, async (db) => {
      const pages = await db.getAll('pages') as { id: number; docIds: string[]; docs: { id: string }[] }[];
      expect(pages).toHaveLength(2);
      await change(db, pages.find((p) => p.docIds.includes(docs[0]?.id as string)) as (typeof pages)[number]);
    });
    const repaired = await open(name);
    const stats = await repaired.stats();
    expect(stats.repairedDocs?.length).toBeGreaterThan(0);
    expect(stats.repairedDocs?.every((id) => docs.slice(0, 3).some((d) => d.id === id))).toBe(true);
    expect(stats.docs).toBe(docs.length - (stats.repairedDocs?.length ?? 0));
    await expectRecovers(name, repaired, docs[5], stats.repairedDocs?.length ?? 0);
  });

  it.each([
    ['a document turned to garbage', (page: { docs: unknown[] }) => { page.docs[1] = { id: docs[1]?.id, chunks: 'garbage', chunkShards: 7, chunkKeys: null }; }, 'works'],
    ['a document turned to null', (page: { docs: unknown[] }) => { page.docs[1] = null; }, 'fails'],
  ])('a page changed under a running instance (%s): writes to it go on or fail typed with nothing written, and the next open reports and repairs', async (_label, change, writes) => {
    const { name, engine } = await seeded();
    await tamper(name, async (db) => {
      const [page] = await db.getAll('pages') as { docs: unknown[] }[];
      if (!page) throw new Error('no page');
      change(page);
      await db.put('pages', page);
    });
    const edited = [{ ...docs[2], text: `${docs[2]?.text ?? ''} Edited.` } as (typeof docs)[number]];
    if (writes === 'works') {
      await engine.remove([docs[0]?.id as string]);
      expect(await engine.add(edited)).toMatchObject({ added: 1 });
    } else {
      await expect(engine.remove([docs[0]?.id as string])).rejects.toMatchObject({ code: 'STORAGE_FAILED', details: { reason: 'damaged-page' } });
      await expect(engine.add(edited)).rejects.toMatchObject({ code: 'STORAGE_FAILED' });
      expect((await engine.stats()).docs).toBe(docs.length); // memory kept what storage kept
    }
    engine.close();
    const repaired = await open(name);
    const lost = (await repaired.stats()).repairedDocs ?? [];
    expect(lost).toContain(docs[1]?.id);
    expect(await repaired.add(docs)).toMatchObject({ added: lost.length + (writes === 'works' ? 2 : 0) });
    expect((await repaired.stats()).docs).toBe(docs.length);
    repaired.close();
  });

  it('a document written into the store behind the manifest’s back (no new generation): adding that id replaces it instead of failing', async () => {
    const { name, engine } = await seeded();
    await tamper(name, async (db) => {
      const [page] = await db.getAll('pages') as { docs: { id: string }[]; id: number }[];
      const copy = { ...structuredClone(page?.docs[0]), id: 'ghost' };
      await db.put('pages', { docIds: ['ghost'], docs: [copy], shards: [] });
    });
    // This instance's memory, current by the manifest's generation, says "ghost" does not exist.
    expect(await engine.add([{ id: 'ghost', text: 'A note about customs forms for parcels sent abroad.' }])).toMatchObject({ added: 1 });
    engine.close();
    const db = await openDB(`threadline:${name}`);
    const ids = (await db.getAll('pages') as { docIds: string[] }[]).flatMap((p) => p.docIds);
    db.close();
    expect(ids.filter((id) => id === 'ghost')).toHaveLength(1);
  });

  it('garbage in every store still opens, as an empty index, and works', async () => {
    const { name, engine } = await seeded();
    engine.close();
    await tamper(name, async (db) => {
      await db.put('meta', 'nonsense', 'manifest');
      for (const page of await db.getAll('pages') as { docs: object[] }[]) await db.put('pages', { ...page, docs: page.docs.map((d) => ({ ...d, chunks: 5 })) });
      await db.put('pages', { docIds: ['x'], docs: 'x', shards: [] });
      await db.put('pages', { docIds: 'nonsense' });
      await db.put('shards', { id: 999, keys: 'no' });
    });
    const opened = await open(name);
    expect((await opened.stats()).docs).toBe(0);
    expect(await opened.add(docs.slice(0, 1))).toMatchObject({ added: 1 });
    opened.close();
  });

  it('deleteIndex(name) needs no instance and leaves nothing behind', async () => {
    const { name, engine } = await seeded();
    engine.close();
    await deleteIndex(name);
    const fresh = await open(name);
    expect((await fresh.stats()).docs).toBe(0);
    fresh.close();
    await expect(deleteIndex('')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});

describe('another tab’s ingest', () => {
  it('many commits elsewhere fold into few refreshes here, and this tab ends up current', async () => {
    const { name, engine: writer } = await seeded();
    let hydrates = 0;
    const reader = await open(name, { onProgress: (p) => { if (p.phase === 'hydrate') hydrates++; } });
    hydrates = 0;
    const many = Array.from({ length: 30 }, (_, i) => ({ id: `note-${i}`, text: `Note ${i} about passports, visas and customs number ${i}. `.repeat(40) }));
    await writer.add(many);
    await new Promise((r) => setTimeout(r, 300));
    const stats = await reader.stats();
    expect(stats.docs).toBe(docs.length + many.length);
    expect(hydrates).toBeLessThanOrEqual(3);
    writer.close();
    reader.close();
  });
});
