import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ChatSession } from '../../src/chat/session';
import type { TurnEvent } from '../../src/chat/types';
import { sampleEngine } from '../fixtures/engine';
import type { ChatMessage, GenerateOptions, Llm } from '../../src/llm/llm';
import { SessionStore } from '../../src/storage/session-store';
import type { RetrievalEngine } from '../../src/worker/retrieval-engine';

let engine: RetrievalEngine;
let unique = 0;

beforeAll(async () => {
  engine = await sampleEngine('reliability-kb');
});

async function run(chat: ChatSession, text: string, signal?: AbortSignal): Promise<TurnEvent[]> {
  const events: TurnEvent[] = [];
  for await (const e of chat.ask(text, signal ? { signal } : {})) events.push(e);
  return events;
}

/** A fake Llm (test seam) that never answers and ignores abort(), as a broken custom model would. */
class StallingLlm implements Llm {
  readonly id = 'fake-stalling-llm';
  stalls = 0;
  constructor(private readonly stallFirst = Infinity) {}
  async *stream(_messages: readonly ChatMessage[], _options: GenerateOptions = {}): AsyncIterable<string> {
    if (this.stalls++ < this.stallFirst) await new Promise(() => undefined);
    yield 'Answered [1].';
  }
}

const find = <T extends TurnEvent['type']>(events: TurnEvent[], type: T) => events.find((e): e is Extract<TurnEvent, { type: T }> => e.type === type);

const within = <T>(ms: number, promise: Promise<T>) => Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms))]);

describe('no lost turns: two handles on one session', () => {
  it('each handle appends after the other’s turns, and sees them', async () => {
    const store = await SessionStore.open(`rel-${unique++}`);
    const a = await ChatSession.open(store, engine, undefined, { sessionId: 'shared' });
    const b = await ChatSession.open(store, engine, undefined, { sessionId: 'shared' });
    await run(a, "what's the refund window?");
    await run(b, 'how do I track my order?');
    await run(a, 'how do I reset my password?');
    expect((await store.load('shared')).turns.map((t) => t.user)).toEqual(["what's the refund window?", 'how do I track my order?', 'how do I reset my password?']);
    expect(a.history().map((t) => t.user)).toEqual(["what's the refund window?", 'how do I track my order?', 'how do I reset my password?']);
    await run(b, 'thanks!');
    expect(b.history()).toHaveLength(4);
    expect((await store.load('shared')).info?.turnCount).toBe(4);
  });

  it('a handle reads only the turns after its last one while that one is stored as it was; after a reset elsewhere it reads the conversation again', async () => {
    const store = await SessionStore.open(`rel-${unique++}`);
    const a = await ChatSession.open(store, engine, undefined, { sessionId: 'shared' });
    await run(a, "what's the refund window?");
    await run(a, 'how do I track my order?');
    const b = await ChatSession.open(store, engine, undefined, { sessionId: 'shared' });
    await run(b, 'how do I reset my password?');
    const held = (await store.load('shared')).turns[1];
    if (!held) throw new Error('no turn 1');
    const after = await store.load('shared', { index: held.index, at: held.at, user: held.user });
    expect(after).toMatchObject({ continued: true, skipped: 0 });
    expect(after.turns.map((t) => t.user)).toEqual(['how do I reset my password?']);
    await run(a, 'what does Pro cost?');
    expect(a.history().map((t) => t.user)).toEqual(["what's the refund window?", 'how do I track my order?', 'how do I reset my password?', 'what does Pro cost?']);
    // Reset on the other handle, then more turns than before: the index a holds now has another turn in it.
    await b.reset();
    for (const q of ['which plans include offline sync?', 'how do I export my notes?', 'what is two-factor authentication?', 'how do I delete my account?', 'thanks!']) await run(b, q);
    expect((await store.load('shared', { index: 3, at: a.history()[3]?.at ?? 0, user: 'what does Pro cost?' })).continued).toBe(false);
    await run(a, 'how do I change my email?');
    expect(a.history().map((t) => t.user)).toEqual(['which plans include offline sync?', 'how do I export my notes?', 'what is two-factor authentication?', 'how do I delete my account?', 'thanks!', 'how do I change my email?']);
    expect((await store.load('shared')).info?.turnCount).toBe(6);
    // Reset with fewer turns after it: the index a holds is gone.
    await b.reset();
    await run(b, 'how do I track my order?');
    await run(a, 'what about damaged items?');
    expect(a.history().map((t) => t.user)).toEqual(['how do I track my order?', 'what about damaged items?']);
    expect((await store.load('shared')).info?.turnCount).toBe(2);
  });

  it('turns asked at the same moment on two handles are both kept', async () => {
    const store = await SessionStore.open(`rel-${unique++}`);
    const handles = await Promise.all([0, 1, 2].map(() => ChatSession.open(store, engine, undefined, { sessionId: 'race' })));
    await Promise.all(handles.map((h, i) => run(h, `how do I reset my password, question ${i}?`)));
    const stored = (await store.load('race')).turns;
    expect(stored.map((t) => t.index)).toEqual([0, 1, 2]);
    expect(new Set(stored.map((t) => t.user)).size).toBe(3);
  });

  it('a deleted stored turn never makes the next turn overwrite another', async () => {
    const name = `rel-${unique++}`;
    const store = await SessionStore.open(name);
    const chat = await ChatSession.open(store, engine, undefined, { sessionId: 's' });
    for (const q of ['how do I reset my password?', 'how do I track my order?', 'what does Pro cost?']) await run(chat, q);
    const db = await openDB(`threadline:${name}:sessions`);
    await db.delete('turns', ['s', 1]);
    db.close();
    await run(chat, 'what is the refund window?');
    expect((await store.load('s')).turns.map((t) => [t.index, t.user])).toEqual([
      [0, 'how do I reset my password?'], [2, 'what does Pro cost?'], [3, 'what is the refund window?'],
    ]);
  });

  it('a malformed stored turn is skipped and counted, not thrown', async () => {
    const name = `rel-${unique++}`;
    const store = await SessionStore.open(name);
    const chat = await ChatSession.open(store, engine, undefined, { sessionId: 's' });
    await run(chat, 'how do I reset my password?');
    const db = await openDB(`threadline:${name}:sessions`);
    await db.put('turns', { sessionId: 's', index: 1, user: null, assistant: 42 });
    db.close();
    const loaded = await store.load('s');
    expect(loaded.skipped).toBe(1);
    const again = await ChatSession.open(store, engine, undefined, { sessionId: 's' });
    expect(again.history().map((t) => t.user)).toEqual(['how do I reset my password?']);
    await run(again, 'how do I track my order?');
    expect((await store.load('s')).turns.map((t) => t.index)).toEqual([0, 2]);
  });

  it('a stored citation\'s malformed chunk key is dropped and its turn kept', async () => {
    const name = `rel-${unique++}`;
    const store = await SessionStore.open(name);
    await run(await ChatSession.open(store, engine, undefined, { sessionId: 's' }), "what's the refund window?");
    const db = await openDB(`threadline:${name}:sessions`);
    const turn = await db.get('turns', ['s', 0]) as { citations: { chunkKey?: unknown }[] };
    expect(turn.citations[0]?.chunkKey).toEqual(expect.any(Number));
    for (const bad of ['1', -1, 1.5, { key: 1 }, Number.NaN]) {
      await db.put('turns', { ...turn, citations: turn.citations.map((c) => ({ ...c, chunkKey: bad })) });
      const loaded = await store.load('s');
      expect(loaded.skipped).toBe(0);
      expect(loaded.turns[0]?.citations.every((c) => c.chunkKey === undefined && c.docId === 'refunds')).toBe(true);
    }
    db.close();
    // The next follow-up searches near the document with nothing excepted.
    const chat = await ChatSession.open(store, engine, undefined, { sessionId: 's' });
    expect(find(await run(chat, 'what about damaged items?'), 'sources')?.chunks[0]?.docId).toBe('refunds');
  });
});

describe('every turn can be stopped', () => {
  it('a consumer that drops the iterator never blocks the session: the turn finishes and is saved', async () => {
    const store = await SessionStore.open(`rel-${unique++}`);
    const chat = await ChatSession.open(store, engine, undefined, {});
    const dropped = chat.ask("what's the refund window?");
    expect((await dropped.next()).value).toMatchObject({ type: 'condensed' });
    // No return(), no more next(): a UI that unmounted.
    await within(5_000, run(chat, 'how do I track my order?'));
    expect(chat.history().map((t) => t.user)).toEqual(["what's the refund window?", 'how do I track my order?']);
  });

  it('breaking out of the loop cancels the turn: nothing is saved, the next turn runs', async () => {
    const store = await SessionStore.open(`rel-${unique++}`);
    const chat = await ChatSession.open(store, engine, undefined, {});
    for await (const e of chat.ask("what's the refund window?")) if (e.type === 'condensed') break;
    await run(chat, 'how do I track my order?');
    expect(chat.history().map((t) => t.user)).toEqual(['how do I track my order?']);
  });

  it('an Llm that stalls and ignores abort: the turn rejects ABORTED at once, the lock is released, nothing is saved', async () => {
    const store = await SessionStore.open(`rel-${unique++}`);
    const llm = new StallingLlm(1);
    const chat = await ChatSession.open(store, engine, llm, {});
    const controller = new AbortController();
    const turn = run(chat, "what's the refund window?", controller.signal);
    setTimeout(() => controller.abort(), 50);
    await expect(within(2_000, turn)).rejects.toMatchObject({ code: 'ABORTED' });
    const next = await within(5_000, run(chat, 'how do I track my order?'));
    expect(next.at(-1)).toMatchObject({ type: 'done', mode: 'generated' });
    expect(chat.history().map((t) => t.user)).toEqual(['how do I track my order?']);
  });

  it('a stalled condensation (the Llm never answers the rewrite) is stopped the same way', async () => {
    const store = await SessionStore.open(`rel-${unique++}`);
    const chat = await ChatSession.open(store, engine, new StallingLlm(0), {});
    await run(chat, "what's the refund window?");
    const stalled = await ChatSession.open(store, engine, new StallingLlm(), { sessionId: chat.id });
    const controller = new AbortController();
    const turn = run(stalled, 'what about damaged items?', controller.signal);
    setTimeout(() => controller.abort(), 50);
    await expect(within(2_000, turn)).rejects.toMatchObject({ code: 'ABORTED' });
  });

  it('a turn waiting for the lock leaves the queue when aborted, and the queue goes on', async () => {
    const store = await SessionStore.open(`rel-${unique++}`);
    const llm = new StallingLlm(1);
    const chat = await ChatSession.open(store, engine, llm, {});
    const first = new AbortController();
    const stuck = run(chat, "what's the refund window?", first.signal);
    const second = new AbortController();
    const waiting = run(chat, 'how do I track my order?', second.signal);
    second.abort();
    await expect(within(1_000, waiting)).rejects.toMatchObject({ code: 'ABORTED' });
    while (llm.stalls === 0) await new Promise((r) => setTimeout(r, 5)); // the first turn now holds the lock, stalled in the model
    first.abort();
    await expect(within(1_000, stuck)).rejects.toMatchObject({ code: 'ABORTED' });
    await within(5_000, run(chat, 'how do I reset my password?'));
    expect(chat.history().map((t) => t.user)).toEqual(['how do I reset my password?']);
  });
});
