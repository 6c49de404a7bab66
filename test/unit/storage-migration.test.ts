import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { loadEmbedder } from '../../src/embedding/load-embedder';
import { SCHEMA_VERSION, type DocRecord } from '../../src/storage/schema';
import { RetrievalEngine } from '../../src/worker/retrieval-engine';
import { MODEL, SAMPLE_DOCS, engineConfig, sampleEngine } from '../fixtures/engine';
import { readAll, writeVersion1, writeVersion3, type Records } from '../fixtures/schema-v1';

let unique = 0;

async function engineOn(name: string): Promise<RetrievalEngine> {
  return RetrievalEngine.open(engineConfig(name), () => loadEmbedder({ model: MODEL }));
}

const QUERIES = ['how long do I have to return something?', 'install Harbor on Linux', 'warranty for damaged items'];

/** The sample index as the current version stores it, one document removed (dead slots in a shard), with its answers and stats. */
async function currentIndex(removed: string) {
  const source = `source-${unique++}`;
  const engine = await sampleEngine(source);
  await engine.remove([removed]);
  const expected = await Promise.all(QUERIES.map((q) => engine.search(q, { k: 5 })));
  const stats = await engine.stats();
  engine.close();
  return { records: await readAll(source), expected, stats };
}

/** Opens `name` (written by an older version) and checks it answers and counts as the source did, with nothing re-embedded. */
async function expectCarriedOver(name: string, source: Awaited<ReturnType<typeof currentIndex>>): Promise<RetrievalEngine> {
  const migrated = await engineOn(name);
  expect(await migrated.stats()).toEqual({ ...source.stats, name, embeddedChunks: 0, embeddedQueries: 0 });
  for (const [i, q] of QUERIES.entries()) expect(await migrated.search(q, { k: 5 })).toEqual(source.expected[i]);
  return migrated;
}

describe('an index stored by schema version 1 opens under the current version', () => {
  it('every document, chunk, vector and BM25 posting carries over, dead slots stay dead, with no repair and no re-embedding', async () => {
    const source = await currentIndex(SAMPLE_DOCS[0]?.id as string);
    const records = source.records;
    const name = `v1-${unique++}`;
    await writeVersion1(name, records);
    (await expectCarriedOver(name, source)).close();
    const after = await readAll(name);
    expect(after.manifest.schemaVersion).toBe(SCHEMA_VERSION);
    expect(after.docs).toEqual(records.docs);
    const db = await openDB(`threadline:${name}`);
    expect([...db.objectStoreNames].sort()).toEqual(['meta', 'pages', 'shards']);
    db.close();
  });
});

describe('an index stored by schema version 3 (a record per document) opens under the current version', () => {
  it('its documents move into pages: every document, search and count carries over, with no repair and no re-embedding', async () => {
    const source = await currentIndex(SAMPLE_DOCS[1]?.id as string);
    const name = `v3-${unique++}`;
    await writeVersion3(name, source.records);
    const migrated = await expectCarriedOver(name, source);
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
});

describe('a damaged record of an older version', () => {
  it.each([
    ['a version-1 index missing a chunk record', (name: string, records: Records, victim: DocRecord) => writeVersion1(name, records, victim.chunkKeys[0])],
    ['a version-3 record with a chunk text that is not text', (name: string, records: Records, victim: DocRecord) => {
      const damaged = { ...victim, chunks: victim.chunks.map((c, i) => (i === 0 ? { ...c, text: 42 as unknown as string } : c)) };
      return writeVersion3(name, { ...records, docs: records.docs.map((d) => (d.id === victim.id ? damaged : d)) });
    }],
  ])('%s: that one document is reported by its id after the migration, removed, and can be added again', async (_label, write) => {
    const source = `source-${unique++}`;
    (await sampleEngine(source)).close();
    const records = await readAll(source);
    const victim = records.docs[2] as DocRecord;
    const name = `old-${unique++}`;
    await write(name, records, victim);
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
