import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ChatSession } from '../../src/chat/session';
import { SessionStore } from '../../src/storage/session-store';
import type { RetrievalEngine } from '../../src/worker/retrieval-engine';
import { sampleEngine } from '../fixtures/engine';

let engine: RetrievalEngine;
let unique = 0;

beforeAll(async () => {
  engine = await sampleEngine('session-writes-kb');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

async function run(chat: ChatSession, text: string): Promise<string[]> {
  const types: string[] = [];
  for await (const event of chat.ask(text)) types.push(event.type);
  return types;
}

/** Counts the reads of a real store's sessions (and can make the next one fail, as a storage fault would). */
function countReads(store: SessionStore): { reads: () => number; failNext: () => void; holdNext: () => void } {
  const load = store.load.bind(store);
  let reads = 0;
  let next: 'fail' | 'hold' | null = null;
  store.load = (...args: Parameters<SessionStore['load']>) => {
    reads++;
    const now = next;
    next = null;
    if (now === 'fail') return Promise.reject(new Error('the disk is gone'));
    if (now === 'hold') return new Promise(() => undefined); // a read that never ends: only Stop ends the turn
    return load(...args);
  };
  return { reads: () => reads, failNext: () => { next = 'fail'; }, holdNext: () => { next = 'hold'; } };
}

/** Until another page's write has been heard (BroadcastChannel delivers asynchronously, as between tabs). */
const heard = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('a turn reads its session only when something else wrote it (session-writes.ts)', () => {
  it('a chat alone reads its session once, when it opens: its own turns read nothing more', async () => {
    const store = await SessionStore.open(`writes-${unique++}`);
    const { reads } = countReads(store);
    const chat = await ChatSession.open(store, engine, undefined, { sessionId: 's' });
    expect(reads()).toBe(1);
    for (const q of ["what's the refund window?", 'what about damaged items?', 'thanks!', 'how do I track my order?']) await run(chat, q);
    expect(reads()).toBe(1);
    expect(chat.history()).toHaveLength(4);
  });

  it('another chat of this page writing the session makes the next turn read it, once', async () => {
    const store = await SessionStore.open(`writes-${unique++}`);
    const a = await ChatSession.open(store, engine, undefined, { sessionId: 's' });
    const b = await ChatSession.open(store, engine, undefined, { sessionId: 's' });
    const { reads } = countReads(store);
    await run(a, "what's the refund window?");
    expect(reads()).toBe(0);
    await run(b, 'how do I track my order?'); // a wrote since b opened: b reads
    expect(reads()).toBe(1);
    await run(a, 'what about damaged items?'); // b wrote: a reads
    expect(reads()).toBe(2);
    await run(a, 'and how long does the refund take?');
    expect(reads()).toBe(2);
    expect(a.history().map((t) => t.user)).toEqual(["what's the refund window?", 'how do I track my order?', 'what about damaged items?', 'and how long does the refund take?']);
    await b.reset();
    await run(a, 'how do I reset my password?');
    expect(a.history().map((t) => t.user)).toEqual(['how do I reset my password?']);
  });

  it("another page's write (another store on the database, heard through BroadcastChannel) is read at the next turn", async () => {
    const name = `writes-${unique++}`;
    const here = await SessionStore.open(name);
    const there = await SessionStore.open(name);
    const { reads } = countReads(here);
    const a = await ChatSession.open(here, engine, undefined, { sessionId: 's' });
    const b = await ChatSession.open(there, engine, undefined, { sessionId: 's' });
    await run(a, "what's the refund window?");
    await heard();
    await run(b, 'how do I track my order?');
    await heard();
    await run(a, 'what about damaged items?');
    expect(reads()).toBe(2); // when a opened, and after b's turn
    expect(a.history().map((t) => t.user)).toEqual(["what's the refund window?", 'how do I track my order?', 'what about damaged items?']);
    // Deleting every session there: the next turn here starts a new conversation.
    await (await SessionStore.open(name)).clearAll();
    await heard();
    await run(a, 'how do I reset my password?');
    expect(a.history().map((t) => t.user)).toEqual(['how do I reset my password?']);
    here.close();
    there.close();
  });

  it('a read that fails or is stopped is tried again at the next turn', async () => {
    const store = await SessionStore.open(`writes-${unique++}`);
    const a = await ChatSession.open(store, engine, undefined, { sessionId: 's' });
    const b = await ChatSession.open(store, engine, undefined, { sessionId: 's' });
    await run(b, 'how do I track my order?');
    const { reads, failNext, holdNext } = countReads(store);
    failNext();
    await expect(run(a, "what's the refund window?")).rejects.toThrow('the disk is gone');
    await run(a, "what's the refund window?");
    expect(reads()).toBe(2);
    expect(a.history().map((t) => t.user)).toEqual(['how do I track my order?', "what's the refund window?"]);
    // Stopped while it reads: read again next time.
    await run(b, 'thanks!'); // b reads too (a wrote): the store is theirs
    expect(reads()).toBe(3);
    holdNext();
    const stop = new AbortController();
    const events = a.ask('what about damaged items?', { signal: stop.signal });
    const first = events.next();
    await expect.poll(reads).toBe(4);
    stop.abort();
    await expect(first).rejects.toMatchObject({ code: 'ABORTED' });
    await run(a, 'what about damaged items?');
    expect(reads()).toBe(5);
    expect(a.history().map((t) => t.user)).toEqual(['how do I track my order?', "what's the refund window?", 'thanks!', 'what about damaged items?']);
  });

  it('without BroadcastChannel, where other pages cannot be heard, every turn reads', async () => {
    vi.stubGlobal('BroadcastChannel', undefined);
    const store = await SessionStore.open(`writes-${unique++}`);
    const { reads } = countReads(store);
    const chat = await ChatSession.open(store, engine, undefined, { sessionId: 's' });
    await run(chat, "what's the refund window?");
    await run(chat, 'what about damaged items?');
    expect(reads()).toBe(3);
  });
});

describe('ChatSession.warm: the search code runs once while the visitor types', () => {
  it('asks the worker for term statistics and a search once, whatever is typed; failures are ignored', async () => {
    const store = await SessionStore.open(`writes-${unique++}`);
    const calls: string[] = [];
    const retriever = {
      termStats: (words: readonly string[]) => { calls.push(`termStats ${words.join(' ')}`); return engine.termStats(words); },
      search: (query: string) => { calls.push(`search ${query}`); return engine.search(query, { k: 1 }); },
    };
    const chat = await ChatSession.open(store, retriever, undefined, { sessionId: 's' });
    chat.warm('  what about damaged items?  ');
    chat.warm('what about damaged items? And');
    expect(calls).toEqual(['termStats what about damaged items?', 'search what about damaged items?']);
    // Typed nothing yet, a hostile paste, or a worker that fails: nothing thrown, nothing left unhandled.
    const failing = { termStats: () => Promise.reject(new Error('worker gone')), search: () => Promise.reject(new Error('worker gone')) };
    for (const text of ['', '\u0000'.repeat(100_000), ' it '.repeat(50_000)]) (await ChatSession.open(store, failing, undefined, {})).warm(text);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The turn after it runs as ever.
    expect(await run(chat, 'what about damaged items?')).toContain('done');
  });
});
