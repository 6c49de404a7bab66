/**
 * Faults as an attacker or a browser bug makes them, in real Chromium: the
 * page tampers with the real IndexedDB stores behind threadline's back, or
 * hands it files whose hash is valid but whose content is not.
 */
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { createThreadline, deleteIndex, type Progress } from '../../src/index';
import { decodePrebuilt, encodePrebuilt } from '../../src/prebuilt/format';
import { buildPrebuiltIndex } from '../../src/prebuilt/build';
import { readAll, writeVersion1, writeVersion3 } from '../fixtures/schema-v1';
import { auditStore, freshName, sampleDocs } from './helpers';

async function ask(chat: { ask(q: string): AsyncIterable<{ type: string }> }, q: string): Promise<string[]> {
  const types: string[] = [];
  for await (const event of chat.ask(q)) types.push(event.type);
  return types;
}

describe('tampered storage and files in Chromium (real worker, real IndexedDB)', () => {
  it('two chats on one session, in one page or two instances (as two tabs would), never lose a turn', async () => {
    const name = freshName('turns');
    const a = await createThreadline({ name });
    await a.add(sampleDocs);
    const b = await createThreadline({ name });
    const [one, two, three] = await Promise.all([a.chat({ sessionId: 's' }), a.chat({ sessionId: 's' }), b.chat({ sessionId: 's' })]);
    await ask(one, "what's the refund window?");
    await ask(two, 'how do I track my order?');
    await Promise.all([ask(three, 'how do I reset my password?'), ask(one, 'what does Pro cost?')]);
    const reopened = await (await createThreadline({ name })).chat({ sessionId: 's' });
    expect(reopened.history().map((t) => t.user).sort()).toEqual(["what's the refund window?", 'how do I reset my password?', 'how do I track my order?', 'what does Pro cost?'].sort());
    await a.dispose();
    await b.dispose();
  });

  it("a chat reads its session again only after another instance (as another tab) wrote it, and then holds that one's turns", async () => {
    const name = freshName('heard');
    const a = await createThreadline({ name });
    await a.add(sampleDocs);
    const b = await createThreadline({ name });
    const [here, there] = await Promise.all([a.chat({ sessionId: 's' }), b.chat({ sessionId: 's' })]);
    await ask(here, "what's the refund window?");
    await new Promise((resolve) => setTimeout(resolve, 50)); // a visitor switching tabs takes longer than the message
    await ask(there, 'how do I track my order?');
    await new Promise((resolve) => setTimeout(resolve, 50));
    await ask(here, 'what about damaged items?');
    expect(here.history().map((t) => t.user)).toEqual(["what's the refund window?", 'how do I track my order?', 'what about damaged items?']);
    await b.clearSessions();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await ask(here, 'how do I reset my password?');
    expect(here.history().map((t) => t.user)).toEqual(['how do I reset my password?']);
    await a.dispose();
    await b.dispose();
  });

  it('a tampered unanswered question (wrong types, a number, markup) is dropped or shown as text: the conversation still opens and lists', async () => {
    const name = freshName('pending');
    const tl = await createThreadline({ name });
    await tl.add(sampleDocs);
    await ask(await tl.chat({ sessionId: 'bad' }), "what's the refund window?");
    await ask(await tl.chat({ sessionId: 'markup' }), "what's the refund window?");
    const db = await openDB(`threadline:${name}:sessions`);
    const header = async (id: string) => (await db.get('sessions', id)) as Record<string, unknown>;
    await db.put('sessions', { ...(await header('bad')), pending: { id: 7, user: ['not', 'text'], at: 'soon' } });
    await db.put('sessions', { ...(await header('markup')), pending: { id: 'x', user: '<img src=x onerror=alert(1)>', at: 1 } });
    db.close();
    const bad = await tl.chat({ sessionId: 'bad' });
    expect(bad.pending()).toBeUndefined();
    expect(bad.history()).toHaveLength(1);
    expect((await tl.sessions()).find((s) => s.id === 'bad')?.pending).toBeUndefined();
    // Well-formed, it is the visitor's own text, returned as is (a UI puts it in an input's value, never in markup).
    expect((await tl.chat({ sessionId: 'markup' })).pending()?.user).toBe('<img src=x onerror=alert(1)>');
    // Asking again works, and the question no longer waits.
    const again = await tl.chat({ sessionId: 'bad' });
    expect(await ask(again, 'what about damaged items?')).toContain('done');
    expect(again.history()).toHaveLength(2);
    await tl.dispose();
  });

  it('a .tlix with a valid hash and a non-string chunk context is refused before any write; the stored index stays', async () => {
    const name = freshName('tlix');
    const tl = await createThreadline({ name });
    await tl.add(sampleDocs);
    const decoded = await decodePrebuilt(await buildPrebuiltIndex(sampleDocs.slice(0, 2), await embedderFor(tl)));
    (decoded.chunks[0] as unknown as { context: unknown }).context = { not: 'text' };
    const file = await encodePrebuilt({ modelId: decoded.header.modelId, dims: decoded.header.dims, docs: decoded.docs, chunks: decoded.chunks, vectors: decoded.vectors });
    const url = URL.createObjectURL(new Blob([file as Uint8Array<ArrayBuffer>]));
    await expect(tl.load(url)).rejects.toMatchObject({ code: 'CORRUPT_INDEX' });
    expect((await tl.stats()).docs).toBe(sampleDocs.length);
    await tl.dispose();
    const again = await createThreadline({ name });
    expect((await again.search('refund window', { k: 1 }))[0]?.docId).toBe('refunds');
    await again.dispose();
  });

  it('a deleted shard record: the next open repairs, reports, and answers from the rest', async () => {
    const name = freshName('shard');
    const tl = await createThreadline({ name });
    await tl.add(sampleDocs);
    await tl.dispose();
    const db = await openDB(`threadline:${name}`);
    await db.delete('shards', (await db.getAllKeys('shards'))[0] as number);
    db.close();
    const events: Progress[] = [];
    const repaired = await createThreadline({ name, onProgress: (p) => events.push(p) });
    expect(events.some((e) => e.phase === 'repair')).toBe(true);
    const stats = await repaired.stats();
    expect(stats.repairedDocs?.length).toBeGreaterThan(0);
    expect(await repaired.add(sampleDocs)).toMatchObject({ added: stats.repairedDocs?.length });
    expect((await repaired.search('refund window', { k: 1 }))[0]?.docId).toBe('refunds');
    expect(await auditStore(name)).toMatchObject({ partialDocs: [], duplicateChunks: 0, danglingVectors: 0 });
    await repaired.dispose();
  });

  it('a document written into the store behind the manifest’s back, while an instance is open: adding that id replaces it (the unique index catches it)', async () => {
    const name = freshName('ghost');
    const tl = await createThreadline({ name });
    await tl.add(sampleDocs);
    const db = await openDB(`threadline:${name}`);
    const [page] = await db.getAll('pages') as { docs: { id: string }[] }[];
    await db.put('pages', { docIds: ['ghost'], docs: [{ ...structuredClone(page?.docs[0]), id: 'ghost' }], shards: [] });
    db.close();
    expect(await tl.add([{ id: 'ghost', text: 'A note about customs forms for parcels sent abroad.' }])).toMatchObject({ added: 1 });
    const audit = await auditStore(name);
    expect(audit.docs.filter((d) => d.id === 'ghost')).toHaveLength(1);
    expect(audit).toMatchObject({ partialDocs: [], duplicateChunks: 0, danglingVectors: 0 });
    await tl.dispose();
  });

  it('a deleted manifest: keys are not reused, and remove() deletes only its own chunks', async () => {
    const name = freshName('manifest');
    const tl = await createThreadline({ name });
    await tl.add(sampleDocs);
    await tl.dispose();
    const db = await openDB(`threadline:${name}`);
    await db.delete('meta', 'manifest');
    db.close();
    const reopened = await createThreadline({ name });
    await reopened.add([{ id: 'extra', text: 'Passports and visas for international travel.' }]);
    await reopened.remove(['extra']);
    const audit = await auditStore(name);
    expect(audit).toMatchObject({ partialDocs: [], duplicateChunks: 0, danglingVectors: 0 });
    expect(audit.docs.map((d) => d.id).sort()).toEqual(sampleDocs.map((d) => d.id).sort());
    await reopened.dispose();
  });

  it.each([
    ['1 (a record per chunk)', writeVersion1],
    ['3 (a record per document)', writeVersion3],
  ])('an index stored by schema version %s migrates on open (inside the real upgrade transaction): same answers, nothing re-embedded', async (_label, write) => {
    const source = freshName('current');
    const tl = await createThreadline({ name: source });
    await tl.add(sampleDocs);
    await tl.remove(['refunds']);
    const expected = await tl.search('how do I track my order?', { k: 3 });
    await tl.dispose();
    const name = freshName('old');
    await write(name, await readAll(source));
    const events: Progress[] = [];
    const migrated = await createThreadline({ name, onProgress: (p) => events.push(p) });
    expect(await migrated.search('how do I track my order?', { k: 3 })).toEqual(expected);
    const stats = await migrated.stats();
    expect(stats).toMatchObject({ docs: sampleDocs.length - 1, embeddedChunks: 0 });
    expect(events.some((e) => e.phase === 'repair')).toBe(false);
    expect(await auditStore(name)).toMatchObject({ partialDocs: [], duplicateChunks: 0, danglingVectors: 0 });
    // The migrated pages take changes: a removal, and the removed document added again.
    await migrated.remove([sampleDocs.find((d) => d.id !== 'refunds')?.id as string]);
    expect(await migrated.add(sampleDocs)).toMatchObject({ added: 2 });
    expect((await migrated.stats()).docs).toBe(sampleDocs.length);
    expect(await auditStore(name)).toMatchObject({ partialDocs: [], duplicateChunks: 0, danglingVectors: 0 });
    await migrated.dispose();
  });

  it('deleteIndex(name) works while another instance has the index open, and that instance can be replaced', async () => {
    const name = freshName('delete');
    const tl = await createThreadline({ name });
    await tl.add(sampleDocs);
    await deleteIndex(name, { sessions: true });
    expect((await indexedDB.databases()).some((d) => d.name === `threadline:${name}`)).toBe(false);
    await tl.dispose();
    const fresh = await createThreadline({ name });
    expect((await fresh.stats()).docs).toBe(0);
    await fresh.dispose();
  });
});

describe('batches and sessions as the playground uses them (real worker)', () => {
  it('skipInvalid leaves out a document the browser cannot even send to the worker, and indexes the rest', async () => {
    const tl = await createThreadline({ name: freshName('batch') });
    const batch = [sampleDocs[0], { id: 'fn', text: 'x', metadata: { bad: () => 1 } }, { id: 'num', text: 7 }, sampleDocs[1]] as unknown as typeof sampleDocs;
    await expect(tl.add(batch)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    const result = await tl.add(batch, { skipInvalid: true });
    expect(result.added).toBe(2);
    expect(result.failed.map((f) => [f.index, f.id])).toEqual([[1, 'fn'], [2, 'num']]);
    await tl.dispose();
  });

  it('clearSessions() deletes every conversation of the name in one call', async () => {
    const tl = await createThreadline({ name: freshName('sessions') });
    await tl.add(sampleDocs);
    for (const id of ['a', 'b', 'c']) await ask(await tl.chat({ sessionId: id }), 'how do I reset my password?');
    expect(await tl.sessions()).toHaveLength(3);
    await tl.clearSessions();
    expect(await tl.sessions()).toEqual([]);
    await tl.dispose();
  });
});

/** The offline model as an Embedder in the page, for building a prebuilt file like the CLI does. */
async function embedderFor(tl: { embed(texts: readonly string[]): Promise<Float32Array>; stats(): Promise<{ modelId: string; dims: number }> }) {
  const { modelId, dims } = await tl.stats();
  return { modelId, dims, maxTokens: 512, countTokens: (t: string) => t.split(/\s+/).length, embed: (texts: readonly string[]) => tl.embed(texts) };
}
