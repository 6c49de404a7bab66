import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { loadEmbedder } from '../../src/embedding/load-embedder';
import { SCHEMA_VERSION, type DocRecord } from '../../src/storage/schema';
import { RetrievalEngine } from '../../src/worker/retrieval-engine';
import { MODEL, SAMPLE_DOCS, engineConfig, sampleEngine } from '../fixtures/engine';
import { readAll, writeVersion1, writeVersion3 } from '../fixtures/schema-v1';

let unique = 0;

async function engineOn(name: string): Promise<RetrievalEngine> {
  return RetrievalEngine.open(engineConfig(name), () => loadEmbedder({ model: MODEL }));
}

describe('an index stored by schema version 1 opens under the current version', () => {
  it('every document, chunk, vector and BM25 posting carries over, dead slots stay dead, with no repair and no re-embedding', async () => {
    const source = `v2-source-${unique++}`;
    const engine = await sampleEngine(source);
    await engine.remove([SAMPLE_DOCS[0]?.id as string]); // leaves dead slots in a shard
    const queries = ['how long do I have to return something?', 'install Harbor on Linux', 'warranty for damaged items'];
    const expected = await Promise.all(queries.map((q) => engine.search(q, { k: 5 })));
    const stats = await engine.stats();
    engine.close();
    const records = await readAll(source);

    const name = `v1-${unique++}`;
    await writeVersion1(name, records);
    const migrated = await engineOn(name);
    expect(await migrated.stats()).toEqual({ ...stats, name, embeddedChunks: 0, embeddedQueries: 0 });
    for (const [i, q] of queries.entries()) expect(await migrated.search(q, { k: 5 })).toEqual(expected[i]);
    migrated.close();
    const after = await readAll(name);
    expect(after.manifest.schemaVersion).toBe(SCHEMA_VERSION);
    expect(after.docs).toEqual(records.docs);
    const db = await openDB(`threadline:${name}`);
    expect([...db.objectStoreNames].sort()).toEqual(['meta', 'pages', 'shards']);
    db.close();
  });

  it('a version-1 index missing a chunk record reports that one document, as version 1 did', async () => {
    const source = `v2-source-${unique++}`;
    (await sampleEngine(source)).close();
    const records = await readAll(source);
    const victim = records.docs[2] as DocRecord;
    const name = `v1-${unique++}`;
    await writeVersion1(name, records, victim.chunkKeys[0]);
    const migrated = await engineOn(name);
    const stats = await migrated.stats();
    expect(stats.repairedDocs).toEqual([victim.id]);
    expect(stats.docs).toBe(SAMPLE_DOCS.length - 1);
    expect(await migrated.add(SAMPLE_DOCS)).toMatchObject({ added: 1 });
    migrated.close();
  });
});

describe('an index stored by schema version 3 (a record per document) opens under the current version', () => {
  it('its documents move into pages: every document, search and count carries over, with no repair and no re-embedding', async () => {
    const source = `v3-source-${unique++}`;
    const engine = await sampleEngine(source);
    await engine.remove([SAMPLE_DOCS[1]?.id as string]);
    const queries = ['how long do I have to return something?', 'install Harbor on Linux', 'warranty for damaged items'];
    const expected = await Promise.all(queries.map((q) => engine.search(q, { k: 5 })));
    const stats = await engine.stats();
    engine.close();
    const records = await readAll(source);

    const name = `v3-${unique++}`;
    await writeVersion3(name, records);
    const migrated = await engineOn(name);
    expect(await migrated.stats()).toEqual({ ...stats, name, embeddedChunks: 0, embeddedQueries: 0 });
    for (const [i, q] of queries.entries()) expect(await migrated.search(q, { k: 5 })).toEqual(expected[i]);
    // Removing and replacing documents works on the migrated pages.
    await migrated.remove([SAMPLE_DOCS[0]?.id as string]);
    expect(await migrated.add(SAMPLE_DOCS)).toMatchObject({ added: 2 });
    expect((await migrated.stats()).docs).toBe(SAMPLE_DOCS.length);
    migrated.close();
    const db = await openDB(`threadline:${name}`);
    expect([...db.objectStoreNames].sort()).toEqual(['meta', 'pages', 'shards']);
    const pages = await db.getAll('pages') as { docIds: string[] }[];
    expect(pages.flatMap((p) => p.docIds).sort()).toEqual(SAMPLE_DOCS.map((d) => d.id).sort());
    db.close();
  });

  it('a damaged version-3 record is reported by its id after the move, removed, and can be added again', async () => {
    const source = `v3-source-${unique++}`;
    (await sampleEngine(source)).close();
    const records = await readAll(source);
    const victim = records.docs[2] as DocRecord;
    const damaged = { ...victim, chunks: victim.chunks.map((c, i) => (i === 0 ? { ...c, text: 42 as unknown as string } : c)) };
    const name = `v3-${unique++}`;
    await writeVersion3(name, { ...records, docs: records.docs.map((d) => (d.id === victim.id ? damaged : d)) });
    const migrated = await engineOn(name);
    const stats = await migrated.stats();
    expect(stats.repairedDocs).toEqual([victim.id]);
    expect(stats.docs).toBe(SAMPLE_DOCS.length - 1);
    expect(await migrated.add(SAMPLE_DOCS)).toMatchObject({ added: 1 });
    migrated.close();
    const again = await engineOn(name);
    expect((await again.stats()).repairedDocs ?? []).toEqual([]);
    again.close();
  });
});
