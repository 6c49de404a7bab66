import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ChatSession } from '../../src/chat/session';
import type { TurnEvent } from '../../src/chat/types';
import type { ChatMessage, GenerateOptions, Llm } from '../../src/llm/llm';
import { SessionStore, type SessionInfo } from '../../src/storage/session-store';
import type { RetrievalEngine } from '../../src/worker/retrieval-engine';
import { sampleEngine } from '../fixtures/engine';

let engine: RetrievalEngine;
let unique = 0;

beforeAll(async () => {
  engine = await sampleEngine('latest-turns-kb');
});

async function run(chat: ChatSession, text: string): Promise<TurnEvent[]> {
  const events: TurnEvent[] = [];
  for await (const e of chat.ask(text)) events.push(e);
  return events;
}

const condensed = (events: TurnEvent[]) => events.find((e): e is Extract<TurnEvent, { type: 'condensed' }> => e.type === 'condensed');

/** A conversation's questions: the first names the topic, the rest wander, so the condenser's reading of the first and latest turns shows. */
const FIRST = 'how do I export my notes as Markdown?';
const QUESTIONS = ["what's the refund window?", 'how do I track my order?', 'which plans include offline sync?', 'how do I reset my password?', 'what does Pro cost?'];

/** Stores `n` turns of session `id` as a chat would (SessionStore.append), without running them. */
async function fill(store: SessionStore, id: string, n: number): Promise<void> {
  let info: SessionInfo = { id, title: '', createdAt: 1, updatedAt: 1, turnCount: 0 };
  for (let i = 0; i < n; i++) {
    const user = i === 0 ? FIRST : `${QUESTIONS[i % QUESTIONS.length] as string} (${i})`;
    ({ info } = await store.append(info, { sessionId: id, user, assistant: `Answer ${i}: see the refunds page.`, mode: 'extractive', citations: [{ n: 1, docId: 'refunds', label: 'Refunds' }], at: 1000 + i }));
  }
}

describe('ChatSession latestTurns: a long conversation read from its end', () => {
  it('reads the latest turns, then the earlier ones on demand, oldest first, until it holds the whole conversation', async () => {
    const store = await SessionStore.open(`latest-${unique++}`);
    await fill(store, 's', 40);
    const whole = (await ChatSession.open(store, engine, undefined, { sessionId: 's' })).history();
    expect(whole).toHaveLength(40);
    const chat = await ChatSession.open(store, engine, undefined, { sessionId: 's', latestTurns: 20 });
    expect(chat.history()).toEqual(whole.slice(20));
    expect(chat.earlierCount).toBe(20);
    expect(await chat.earlier(5)).toEqual(whole.slice(15, 20));
    expect(chat.history()).toEqual(whole.slice(15));
    expect(chat.earlierCount).toBe(15);
    expect(await chat.fullHistory()).toEqual(whole); // read, not held
    expect(chat.history()).toHaveLength(25);
    expect(await chat.earlier()).toEqual(whole.slice(0, 15));
    expect(chat.earlierCount).toBe(0);
    expect(chat.history()).toEqual(whole);
    expect(await chat.earlier(10)).toEqual([]);
    // A short conversation is read whole; a new one is empty.
    expect((await ChatSession.open(store, engine, undefined, { sessionId: 'new', latestTurns: 30 })).earlierCount).toBe(0);
  });

  it('holds at least what condensing and prompts read (the first turn and the latest 15, memory.turns), so a follow-up is condensed as from the whole conversation', async () => {
    const full = await SessionStore.open(`latest-${unique++}`);
    const partial = await SessionStore.open(`latest-${unique++}`);
    await fill(full, 's', 60);
    await fill(partial, 's', 60);
    const a = await ChatSession.open(full, engine, undefined, { sessionId: 's' });
    const b = await ChatSession.open(partial, engine, undefined, { sessionId: 's', latestTurns: 1 });
    expect(b.history()).toHaveLength(15);
    expect(b.earlierCount).toBe(45);
    expect((await ChatSession.open(partial, engine, undefined, { sessionId: 's', latestTurns: 1, memory: { turns: 20 } })).history()).toHaveLength(20);
    for (const q of ['what about damaged items?', 'and how long does it take?', 'does it work offline?']) {
      const [x, y] = [condensed(await run(a, q)), condensed(await run(b, q))];
      expect(y?.query).toEqual(x?.query);
      expect(y?.question).toEqual(x?.question);
    }
    expect(b.history().map((t) => t.user)).toEqual(a.history().slice(45).map((t) => t.user));
  });

  it('after a reset elsewhere, earlier() reads nothing of the old conversation, and the next turn reads the new one', async () => {
    const store = await SessionStore.open(`latest-${unique++}`);
    await fill(store, 's', 40);
    const a = await ChatSession.open(store, engine, undefined, { sessionId: 's', latestTurns: 20 });
    const b = await ChatSession.open(store, engine, undefined, { sessionId: 's' });
    await b.reset();
    await run(b, 'how do I track my order?');
    expect(await a.earlier(5)).toEqual([]);
    expect(await a.fullHistory()).toHaveLength(20); // what it holds: the store no longer has its conversation
    await run(a, 'what about damaged items?');
    expect(a.history().map((t) => t.user)).toEqual(['how do I track my order?', 'what about damaged items?']);
    expect(a.earlierCount).toBe(0);
    expect(await a.earlier()).toEqual([]);
  });

  it('a turn asked meanwhile keeps the turns read by earlier() and the count of those left', async () => {
    const store = await SessionStore.open(`latest-${unique++}`);
    await fill(store, 's', 50);
    const chat = await ChatSession.open(store, engine, undefined, { sessionId: 's', latestTurns: 20 });
    await chat.earlier(10);
    await run(chat, 'what about damaged items?');
    expect(chat.history()).toHaveLength(31);
    expect(chat.earlierCount).toBe(20);
    expect(await chat.earlier()).toHaveLength(20);
    expect(chat.history().map((t) => t.user)).toEqual((await store.load('s')).turns.map((t) => t.user));
  });

  it('malformed stored turns below the latest are skipped and counted past: every earlier() moves further back', async () => {
    const name = `latest-${unique++}`;
    const store = await SessionStore.open(name);
    await fill(store, 's', 40);
    const db = await openDB(`threadline:${name}:sessions`);
    for (let i = 10; i < 20; i++) await db.put('turns', { sessionId: 's', index: i, user: null, assistant: 42 });
    db.close();
    const chat = await ChatSession.open(store, engine, undefined, { sessionId: 's', latestTurns: 20 });
    expect(chat.earlierCount).toBe(20);
    expect(await chat.earlier(10)).toEqual([]); // all ten malformed
    expect(chat.earlierCount).toBe(10);
    expect((await chat.earlier(10)).map((t) => t.at)).toEqual(Array.from({ length: 10 }, (_, i) => 1000 + i));
    expect(chat.earlierCount).toBe(0);
    expect(chat.history()).toHaveLength(30);
  });

  it('bad values are INVALID_INPUT when the session opens, or when earlier() is called', async () => {
    const store = await SessionStore.open(`latest-${unique++}`);
    for (const latestTurns of [0, -1, 1.5, Number.NaN, '30', Infinity]) {
      await expect(ChatSession.open(store, engine, undefined, { latestTurns: latestTurns as number })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('chat option latestTurns ') as string });
    }
    await fill(store, 's', 30);
    const chat = await ChatSession.open(store, engine, undefined, { sessionId: 's', latestTurns: 15 });
    for (const count of [0, -3, Number.NaN, '5']) await expect(chat.earlier(count as number)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(chat.earlierCount).toBe(15);
    // A fraction reads whole turns, at most that many.
    expect(await chat.earlier(2.7)).toHaveLength(2);
  });
});

/** A fake Llm (test seam) that answers every turn and records what each summary was asked to fold in. */
class SummarizingLlm implements Llm {
  readonly id = 'fake-summarizing-llm';
  readonly summarized: string[] = [];
  async *stream(messages: readonly ChatMessage[], options: GenerateOptions = {}): AsyncIterable<string> {
    await Promise.resolve();
    if (options.purpose === 'summary') {
      this.summarized.push(messages.map((m) => m.content).join('\n'));
      yield 'The visitor asked about refunds.';
      return;
    }
    yield 'Answered [1].';
  }
}

describe('ChatSession latestTurns with summary memory (fake Llm)', () => {
  it('folds in turns it does not hold by reading them from the store', async () => {
    const store = await SessionStore.open(`latest-${unique++}`);
    await fill(store, 's', 40); // never summarized: turns 0–33 are due
    const llm = new SummarizingLlm();
    const chat = await ChatSession.open(store, engine, llm, { sessionId: 's', latestTurns: 15, memory: { kind: 'summary', turns: 6 } });
    expect(chat.history()).toHaveLength(15);
    await run(chat, 'what about damaged items?');
    await expect.poll(async () => (await store.load('s')).info?.summarizedUpTo, { timeout: 5000 }).toBe(35);
    const folded = llm.summarized.join('\n');
    expect(folded).toContain('Answer 0:');
    expect(folded).toContain('Answer 34:');
    expect(folded).not.toContain('Answer 35:');
    expect(chat.history()).toHaveLength(16); // reading them for the summary did not add them to the history
  });
});
