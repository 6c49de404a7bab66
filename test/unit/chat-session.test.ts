import 'fake-indexeddb/auto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ChatSession, READING_WEIGHT, type SessionRetriever } from '../../src/chat/session';
import type { Query } from '../../src/retriever';
import type { TurnEvent } from '../../src/chat/types';
import { engineConfig, MODEL, SAMPLE_DOCS, sampleEngine } from '../fixtures/engine';
import { ThreadlineError } from '../../src/errors';
import { SessionStore } from '../../src/storage/session-store';
import { RetrievalEngine } from '../../src/worker/retrieval-engine';
import { buildPrebuiltIndex } from '../../src/prebuilt/build';
import { loadEmbedder } from '../../src/embedding/load-embedder';
import { FakeLlm } from '../fakes/fake-llm';

let engine: RetrievalEngine;
let unique = 0;

beforeAll(async () => {
  engine = await sampleEngine('chat-kb');
});

async function session(llm?: FakeLlm, options: Parameters<typeof ChatSession.open>[3] = {}) {
  const store = await SessionStore.open(`chat-${unique++}`);
  return { store, chat: await ChatSession.open(store, engine, llm, options) };
}

async function run(chat: ChatSession, text: string, signal?: AbortSignal): Promise<TurnEvent[]> {
  const events: TurnEvent[] = [];
  for await (const e of chat.ask(text, signal ? { signal } : {})) events.push(e);
  return events;
}

/** A fake LLM whose answer streams for about 200 ms: long enough to reload, stop or look at the store mid-answer. */
const slowLlm = () => new FakeLlm({ answer: () => ({ pieces: Array.from({ length: 40 }, (_, i) => `word${i} `), delayMs: 5 }) });

/** The type of a turn's next event (undefined once it ended). */
async function nextType(stream: AsyncIterator<TurnEvent>): Promise<TurnEvent['type'] | undefined> {
  const step = await stream.next();
  return step.done ? undefined : step.value.type;
}

/** Reads a turn's events until its answer starts streaming; a turn that ends first fails the test instead of looping forever. */
async function untilAnswerStreams(stream: AsyncIterator<TurnEvent>): Promise<void> {
  for (let type = await nextType(stream); type !== 'token'; type = await nextType(stream)) {
    if (type === undefined) throw new Error('the turn ended before its answer streamed');
  }
}

const find = <T extends TurnEvent['type']>(events: TurnEvent[], type: T) => events.find((e): e is Extract<TurnEvent, { type: T }> => e.type === type);

describe('chat options are checked when the session opens', () => {
  it.each([
    ['condense', { condense: 'LLM' }], ['k', { k: 0 }], ['k', { k: '5' }], ['k', { k: 1.5 }], ['k', { k: 5000 }],
    ['hedge', { hedge: 'yes' }], ['llmExpansion', { llmExpansion: 1 }], ['promptLayout', { promptLayout: 'wide' }],
    ['abstain', { abstain: null }], ['abstain.minCoverage', { abstain: { minCoverage: 2 } }], ['abstain.minDense', { abstain: { minDense: Number.NaN } }],
    ['memory', { memory: 'all' }], ['memory.kind', { memory: { kind: 'everything' } }], ['memory.turns', { memory: { turns: -1 } }], ['memory.maxTokens', { memory: { maxTokens: 0 } }],
  ])('refuses a bad %s with INVALID_INPUT naming it', async (name, options) => {
    await expect(session(undefined, options as never)).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining(`chat option ${name} `) as string });
  });

  it('accepts every documented value', async () => {
    for (const options of [{}, { condense: 'off' as const, k: 1000, hedge: true, llmExpansion: false, promptLayout: 'compact' as const, abstain: { minDense: -1, minCoverage: 0 }, memory: { kind: 'summary' as const, turns: 0, maxTokens: 1 } }]) {
      await expect(session(undefined, options)).resolves.toBeTruthy();
    }
  });
});

describe('chat session with the fake LLM (FakeLlm) and real retrieval', () => {
  it('llmExpansion adds the conversation\'s weighted words below an accepted LLM rewrite; off by default', async () => {
    const rewrite = () => 'How long do refunds take?';
    for (const llmExpansion of [false, true]) {
      const { chat } = await session(new FakeLlm({ condense: rewrite, answer: () => 'See [1].' }), { condense: 'llm', ...(llmExpansion ? { llmExpansion } : {}) });
      await run(chat, 'Does the warranty cover damaged pens?');
      const condensed = find(await run(chat, 'and how long do refunds take for those?'), 'condensed');
      expect(condensed).toMatchObject({ method: 'llm', question: 'How long do refunds take?', query: { text: 'How long do refunds take?' } });
      const terms = condensed?.query.terms ?? [];
      if (!llmExpansion) expect(terms).toEqual([]);
      else {
        expect(terms.length).toBeGreaterThan(0);
        expect(terms.every((t) => t.weight > 0 && t.weight < 1)).toBe(true); // below the rewrite's own words
        expect(terms.map((t) => t.term)).toEqual(expect.arrayContaining(['warranty', 'pens'])); // the first turn's specific words
      }
    }
  });

  it('builds the condense and answer prompts from the user\'s words, never the rewrite', async () => {
    const llm = new FakeLlm({
      condense: () => 'What is the refund window for damaged items?',
      answer: (last) => (last.includes('Question: what about damaged items?') ? 'Damaged orders can be reported within 60 days [1].' : 'Returns are accepted within 30 days [1].'),
    });
    const { chat } = await session(llm, { promptLayout: 'compact' });
    const first = await run(chat, "what's the refund window?");
    expect(find(first, 'condensed')).toMatchObject({ method: 'kept', gate: 'first-turn', question: "what's the refund window?" });
    const second = await run(chat, 'what about damaged items?');
    expect(find(second, 'condensed')).toMatchObject({ method: 'llm', gate: 'ellipsis', question: 'What is the refund window for damaged items?' });
    expect(find(second, 'sources')?.chunks[0]?.headingPath).toEqual(['Refund policy', 'Damaged on arrival']);

    const condensePrompt = llm.prompts('condense')[0]!;
    expect(condensePrompt[0]?.content).toContain('standalone question');
    expect(condensePrompt[1]?.content).toContain("User: what's the refund window?");
    expect(condensePrompt[1]?.content).toContain('Assistant: Returns are accepted within 30 days [1].');
    expect(condensePrompt[1]?.content).toContain('Last message: what about damaged items?');
    expect(llm.calls.find((c) => c.kind === 'condense')?.options).toMatchObject({ temperature: 0, maxTokens: 96 });

    const answerPrompt = llm.prompts('answer')[1]!;
    expect(answerPrompt[0]?.content).toContain('Cite the passages');
    expect(answerPrompt.slice(1, 3)).toEqual([
      { role: 'user', content: "what's the refund window?" },
      { role: 'assistant', content: 'Returns are accepted within 30 days [1].' },
    ]);
    const last = answerPrompt.at(-1)!.content;
    expect(last).toMatch(/^Passages:\n\n\[1\] Refund policy › Damaged on arrival\n/);
    expect(last).toContain('Question: what about damaged items?');
    expect(last).not.toContain('What is the refund window for damaged items?');
    expect(chat.history().map((t) => t.user)).toEqual(["what's the refund window?", 'what about damaged items?']);
    expect(JSON.stringify(chat.history())).not.toContain('Damaged on arrival\nIf your order');
  });

  it('the kv-stable layout resends the previous turn exactly as sent, raw reply included', async () => {
    const llm = new FakeLlm({ answer: () => 'Within 30 days [1][7].' });
    const { chat } = await session(llm);
    await run(chat, "what's the refund window?");
    await run(chat, 'how long does a refund take to reach my card?');
    const [first, second] = llm.prompts('answer');
    expect(second?.slice(0, first!.length)).toEqual(first);
    expect(second?.[first!.length]).toEqual({ role: 'assistant', content: 'Within 30 days [1][7].' }); // raw, invalid [7] kept for KV reuse
    expect(chat.history()[0]?.assistant).toBe('Within 30 days [1].'); // the stored answer is the checked one
    expect(second?.at(-1)?.content).toContain('Question: how long does a refund take to reach my card?');
  });

  it.each([
    ['a multi-line output', 'What is the refund window for damaged items?\nIt is 60 days.', 'llm', undefined],
    ['a chatty preamble', 'Sure! The standalone question is: "What is the refund window for damaged items?"', 'llm', undefined],
    ['an overlong output', `What is ${'the refund window '.repeat(40)}?`, 'rules', 'overlong'],
    ['a drifting rewrite', 'How do penguins sleep?', 'rules', 'drift'],
    ['an answer instead of a question', 'Damaged items can be reported within 60 days.', 'rules', 'answer-leak'],
  ])('guards %s', async (_label, output, method, fallback) => {
    const llm = new FakeLlm({ condense: () => output });
    const { chat } = await session(llm);
    await run(chat, "what's the refund window?");
    const condensed = find(await run(chat, 'what about damaged items?'), 'condensed');
    expect(condensed?.method).toBe(method);
    expect(condensed?.fallback).toBe(fallback);
    if (method === 'llm') expect(condensed?.question).toBe('What is the refund window for damaged items?');
    else expect(condensed?.question).toBe("what's the refund window, for damaged items?");
  });

  it('falls back to the rules when the LLM fails, and says so', async () => {
    const llm = new FakeLlm({ condense: () => new Error('GPU device lost') });
    const { chat } = await session(llm);
    await run(chat, "what's the refund window?");
    const condensed = find(await run(chat, 'what about damaged items?'), 'condensed');
    expect(condensed).toMatchObject({ method: 'rules', fallback: 'llm-error' });
    expect(condensed?.reason).toContain('GPU device lost');
  });

  it('abort mid-stream rejects with ABORTED and keeps no half turn', async () => {
    const llm = new FakeLlm({ answer: () => ({ pieces: Array.from({ length: 50 }, (_, i) => `word${i} `), delayMs: 5 }) });
    const { chat, store } = await session(llm);
    await run(chat, "what's the refund window?");
    const controller = new AbortController();
    const events: TurnEvent[] = [];
    const aborted = (async () => {
      for await (const e of chat.ask('how long does the refund take?', { signal: controller.signal })) {
        events.push(e);
        if (e.type === 'token' && events.filter((x) => x.type === 'token').length === 3) controller.abort();
      }
    })();
    await expect(aborted).rejects.toMatchObject({ code: 'ABORTED' });
    expect(chat.history()).toHaveLength(1);
    expect((await store.load(chat.id)).turns).toHaveLength(1);
    // The next turn works normally.
    expect(find(await run(chat, 'how do I track my order?'), 'done')?.mode).toBe('generated');
    expect(chat.history()).toHaveLength(2);
  });

  it('a question whose answer never ends (the page closed mid-answer) is offered again after a reload, with no half turn', async () => {
    const llm = slowLlm();
    const { chat, store } = await session(llm);
    await run(chat, "what's the refund window?");
    expect(chat.pending()).toBeUndefined();
    // The first page streams an answer and is never heard from again; a second page opens the same session meanwhile.
    const stream = chat.ask('what about damaged items?');
    expect(await nextType(stream)).toBe('condensed');
    await untilAnswerStreams(stream);
    const reloaded = await ChatSession.open(store, engine, llm, { sessionId: chat.id });
    expect(reloaded.pending()).toMatchObject({ user: 'what about damaged items?' });
    expect(reloaded.history().map((t) => t.user)).toEqual(["what's the refund window?"]);
    expect((await store.list())[0]?.pending?.user).toBe('what about damaged items?');
    // Asking again answers it: the question is no longer pending, for this page or the next.
    await run(reloaded, 'what about damaged items?');
    expect(reloaded.pending()).toBeUndefined();
    expect((await ChatSession.open(store, engine, llm, { sessionId: chat.id })).pending()).toBeUndefined();
    await stream.return?.(undefined);
  });

  it('small talk after a reload also takes the place of the unanswered question', async () => {
    const llm = slowLlm();
    const { chat, store } = await session(llm);
    const stream = chat.ask('how do I track my order?');
    await untilAnswerStreams(stream);
    const reloaded = await ChatSession.open(store, engine, llm, { sessionId: chat.id });
    expect(reloaded.pending()?.user).toBe('how do I track my order?');
    expect(find(await run(reloaded, 'thanks!'), 'done')?.mode).toBe('smalltalk');
    expect(reloaded.pending()).toBeUndefined();
    expect((await ChatSession.open(store, engine, llm, { sessionId: chat.id })).pending()).toBeUndefined();
    await stream.return?.(undefined);
  });

  it('the first question of a new conversation is stored at once: the conversation is listed and offers it', async () => {
    const llm = slowLlm();
    const { chat, store } = await session(llm);
    const stream = chat.ask('how do I reset my password?');
    await untilAnswerStreams(stream);
    const [listed] = await store.list();
    expect(listed).toMatchObject({ id: chat.id, title: 'how do I reset my password?', turnCount: 0, pending: { user: 'how do I reset my password?' } });
    await stream.return?.(undefined);
  });

  it('a failed answer leaves its question pending; a stopped one does not', async () => {
    // The retrieval worker dies mid-turn (a language model's failure falls back to an extractive answer instead).
    const store = await SessionStore.open(`chat-${unique++}`);
    const crashing = { termStats: engine.termStats.bind(engine), search: () => Promise.reject(new ThreadlineError('WORKER_CRASHED', 'the worker stopped')) };
    const failed = await ChatSession.open(store, crashing, undefined);
    await expect(run(failed, 'how do I track my order?')).rejects.toMatchObject({ code: 'WORKER_CRASHED' });
    expect((await ChatSession.open(store, engine, undefined, { sessionId: failed.id })).pending()?.user).toBe('how do I track my order?');

    const slow = slowLlm();
    const b = await session(slow);
    const controller = new AbortController();
    const stopped = (async () => {
      for await (const e of b.chat.ask('how do I track my order?', { signal: controller.signal })) if (e.type === 'token') controller.abort();
    })();
    await expect(stopped).rejects.toMatchObject({ code: 'ABORTED' });
    expect(b.chat.pending()).toBeUndefined();
    expect((await ChatSession.open(b.store, engine, slow, { sessionId: b.chat.id })).pending()).toBeUndefined();
  });

  it('removes invented citations and reports them', async () => {
    const llm = new FakeLlm({ answer: () => 'Within 30 days [1], or 60 when damaged [2][9].' });
    const { chat } = await session(llm);
    const done = find(await run(chat, "what's the refund window?"), 'done');
    expect(done?.answer).toBe('Within 30 days [1], or 60 when damaged [2].');
    expect(done?.invalidCitations).toEqual([9]);
    expect(done?.citations.map((c) => c.n)).toEqual([1, 2]);
  });

  it('answers extractively without an LLM, labelled, with highlights and sources', async () => {
    const { chat } = await session();
    const events = await run(chat, 'How long does a refund take to reach my card?');
    const done = find(events, 'done');
    expect(done?.mode).toBe('extractive');
    // The short answer first: the sentence that answers, with its citation, then the label.
    expect(done?.answer).toMatch(/^Once a return reaches our warehouse, the refund is processed within 5 business days\. Your bank may take another 3 to 5 days to show the money on your card statement\. \[1\]\n\nQuoted from the documents \(no language model\)/);
    expect(done?.extractive?.[0]?.label).toBe('Refund policy › Refund processing time');
    expect(done?.extractive?.[0]?.sentences.some((s) => s.highlight && s.text.includes('card statement'))).toBe(true);
    expect(done?.citations[0]?.docId).toBe('refunds');
  });

  it('abstains when nothing in the documents is relevant', async () => {
    const llm = new FakeLlm();
    const { chat } = await session(llm);
    const done = find(await run(chat, 'xylophone zeppelin quasar?'), 'done');
    expect(done?.mode).toBe('abstained');
    expect(llm.prompts('answer')).toHaveLength(0);
  });

  it('abstains on a forgotten document\'s question (coverage), answered while the document was there', async () => {
    const harbor = { id: 'harbor', title: 'Harbor', text: '# Harbor\n\n## Installing Harbor\nHarbor is a self-hosted photo backup server. Install Harbor with Docker: copy the compose file, then run docker compose up in its folder. The web interface opens on port 8080.', format: 'markdown' as const };
    await engine.add([harbor]);
    try {
      const before = find(await run((await session()).chat, 'how do I install Harbor?'), 'done');
      expect(before?.mode).toBe('extractive');
      expect(before?.citations[0]?.docId).toBe('harbor');
    } finally {
      await engine.remove(['harbor']);
    }
    const events = await run((await session()).chat, 'how do I install Harbor?');
    expect(find(events, 'sources')?.chunks.length).toBeGreaterThan(0); // passages were retrieved, and none holds the question's telling word
    expect(find(events, 'done')?.mode).toBe('abstained');
    // The same question with the test turned off quotes whatever came first.
    expect(find(await run((await session(undefined, { abstain: { minCoverage: 0 } })).chat, 'how do I install Harbor?'), 'done')?.mode).toBe('extractive');
  });

  it('answers small talk without retrieval', async () => {
    const { chat } = await session(new FakeLlm());
    await run(chat, "what's the refund window?");
    const events = await run(chat, 'thanks!');
    expect(find(events, 'sources')).toBeUndefined();
    expect(find(events, 'done')).toMatchObject({ mode: 'smalltalk', answer: "You're welcome! Ask me anything about the documents." });
  });

  it('resumes a stored session by id; two ids never see each other\'s turns', async () => {
    const store = await SessionStore.open(`chat-${unique++}`);
    const a = await ChatSession.open(store, engine, undefined, { sessionId: 'support-1' });
    const b = await ChatSession.open(store, engine, undefined, { sessionId: 'support-2' });
    await run(a, "what's the refund window?");
    await run(b, 'how do I reset my password?');
    await run(a, 'what about damaged items?');
    const again = await ChatSession.open(store, engine, undefined, { sessionId: 'support-1' });
    expect(again.history().map((t) => t.user)).toEqual(["what's the refund window?", 'what about damaged items?']);
    expect((await ChatSession.open(store, engine, undefined, { sessionId: 'support-2' })).history().map((t) => t.user)).toEqual(['how do I reset my password?']);
    expect((await store.list()).map((s) => s.id).sort()).toEqual(['support-1', 'support-2']);
    await again.reset();
    expect((await ChatSession.open(store, engine, undefined, { sessionId: 'support-1' })).history()).toEqual([]);
    await b.delete();
    expect((await store.list()).map((s) => s.id)).toEqual(['support-1']);
  });

  it('a follow-up searches near the previous answer\'s main source, not the chunk it quoted, also after a reload', async () => {
    const store = await SessionStore.open(`chat-${unique++}`);
    const queries: Query[] = [];
    const spy: SessionRetriever = { termStats: (words, o) => engine.termStats(words, o), search: (q, o) => { if (typeof q !== 'string') queries.push(q); return engine.search(q, o); } };
    const chat = await ChatSession.open(store, spy, undefined, { sessionId: 'reading' });
    const first = find(await run(chat, "what's the refund window?"), 'done');
    const quoted = first?.citations[0];
    expect(quoted).toMatchObject({ docId: 'refunds', chunkKey: expect.any(Number) as number });
    const events = await run(chat, 'what about damaged items?');
    expect(find(events, 'sources')?.reading).toEqual({ docId: 'refunds', label: quoted?.label });
    const damaged = find(events, 'done')?.citations[0];
    expect(queries.at(-1)?.context).toEqual({ docIds: ['refunds'], weight: READING_WEIGHT, except: [quoted?.chunkKey] });
    expect(damaged?.chunkKey).not.toBe(quoted?.chunkKey);
    expect(chat.history()[0]?.citations[0]).not.toHaveProperty('chunkKey'); // a reference for the search, not part of the conversation

    const again = await ChatSession.open(store, spy, undefined, { sessionId: 'reading' });
    const second = find(await run(again, 'and how long does that refund take?'), 'done');
    expect(queries.at(-1)?.context).toEqual({ docIds: [damaged?.docId], weight: READING_WEIGHT, except: [damaged?.chunkKey] });
    expect(second?.mode).toBe('extractive');
  });

  it('a condensed follow-up also searches the names the previous answer wrote as code, below everything else (scripted fake LLM answers, rules condense)', async () => {
    const { chat } = await session(new FakeLlm({ answer: () => 'Call plans.upgrade(\'plus\') or set billingCycle: \'yearly\' [1].' }), { condense: 'rules' });
    await run(chat, 'What does the Plus plan cost?');
    const condensed = find(await run(chat, 'does it include offline mode?'), 'condensed');
    expect(condensed).toMatchObject({ method: 'rules', gate: 'dangling-pronoun' });
    expect(condensed?.query.terms).toEqual(expect.arrayContaining([{ term: 'upgrade', weight: 0.15 }, { term: 'billingcycle', weight: 0.15 }]));
    // A question kept as typed is searched as typed.
    expect(find(await run(chat, 'How do I delete my account?'), 'condensed')?.query.terms).toEqual([]);
  });

  it('a pronoun resolved by the rules is hedged with the previous question (searched, and said in the sources event); a later question kept as typed is searched as typed with the previous question ranked beside it at 0.15; hedge: true hedges with the question as typed', async () => {
    const store = await SessionStore.open(`chat-${unique++}`);
    const queries: Query[] = [];
    const spy: SessionRetriever = { termStats: (words, o) => engine.termStats(words, o), search: (q, o) => { if (typeof q !== 'string') queries.push(q); return engine.search(q, o); } };
    const chat = await ChatSession.open(store, spy, undefined, { sessionId: 'hedge' });
    await run(chat, 'What does the Plus plan cost?');
    expect(queries.at(-1)).not.toHaveProperty('hedge');
    const events = await run(chat, 'does it include offline mode?');
    const condensed = find(events, 'condensed');
    expect(condensed).toMatchObject({ method: 'rules', gate: 'dangling-pronoun', query: { hedge: 'What does the Plus plan cost? does it include offline mode?', hedgeWeight: 0.3 } });
    expect(queries.at(-1)).toMatchObject({ hedge: 'What does the Plus plan cost? does it include offline mode?', hedgeWeight: 0.3 });
    expect(find(events, 'sources')?.hedged).toEqual({ text: 'What does the Plus plan cost? does it include offline mode?', weight: 0.3 });
    const kept = await run(chat, 'How do I delete my account?');
    expect(find(kept, 'condensed')).toMatchObject({ method: 'kept', gate: 'self-contained', question: 'How do I delete my account?', query: { text: 'How do I delete my account?', terms: [] } });
    expect(queries.at(-1)).toMatchObject({ text: 'How do I delete my account?', hedge: 'does it include offline mode? How do I delete my account?', hedgeWeight: 0.15 });
    expect(find(kept, 'sources')?.hedged).toEqual({ text: 'does it include offline mode? How do I delete my account?', weight: 0.15 });
    // hedge: true hedges with the question as typed, at the default weight, instead.
    const typed = await ChatSession.open(store, spy, undefined, { sessionId: 'hedge-typed', hedge: true });
    await run(typed, 'What does the Plus plan cost?');
    const hedged = await run(typed, 'does it include offline mode?');
    expect(queries.at(-1)).toMatchObject({ hedge: 'does it include offline mode?' });
    expect(queries.at(-1)).not.toHaveProperty('hedgeWeight');
    expect(find(hedged, 'sources')?.hedged).toEqual({ text: 'does it include offline mode?', weight: 0.5 });
  });

  it('rejects empty and oversized questions with typed errors', async () => {
    const { chat } = await session();
    expect(() => chat.ask('   ')).toThrow(ThreadlineError);
    expect(() => chat.ask('x'.repeat(20_001))).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });

  it('keeps prompt sizes bounded in a long conversation (window memory)', async () => {
    const llm = new FakeLlm({ answer: (_, i) => `Answer number ${i}: ${'the passages say several things about this topic '.repeat(8)}[1]` });
    const { chat } = await session(llm, { condense: 'llm' });
    const questions = ['What does the Plus plan cost?', 'does it include offline mode?', 'what about the Pro plan?', 'how do I track my order?', 'and international orders?'];
    const sizes: { turn: number; condense: number; answer: number }[] = [];
    for (let turn = 1; turn <= 20; turn++) {
      const before = llm.calls.length;
      await run(chat, questions[(turn - 1) % questions.length] as string);
      const calls = llm.calls.slice(before);
      const tokens = (kind: string) => calls.filter((c) => c.kind === kind).reduce((n, c) => n + c.messages.reduce((m, msg) => m + llm.countTokens(msg.content), 0), 0);
      sizes.push({ turn, condense: tokens('condense'), answer: tokens('answer') });
    }
    console.log('prompt tokens (FakeLlm tokenizer):', JSON.stringify(sizes.filter((s) => [2, 20].includes(s.turn))));
    const max = Math.max(...sizes.map((s) => s.answer));
    expect(max).toBeLessThan(1024 + 2_000); // history budget + passages + instructions
    expect(sizes[19]!.answer).toBeLessThan(sizes[9]!.answer * 1.5);
  });

  it('summary memory folds turns that left the window into a running summary used by the prompts', async () => {
    const llm = new FakeLlm({ summary: (_, i) => `Summary v${i}: the user asked about plans and refunds.` });
    const { chat, store } = await session(llm, { memory: { kind: 'summary', turns: 2 } });
    for (const q of ['What does the Plus plan cost?', 'What does the Pro plan cost?', 'how do I track my order?', 'what is the refund window?']) await run(chat, q);
    await new Promise((r) => setTimeout(r, 20));
    const info = (await store.load(chat.id)).info;
    expect(info?.summary).toMatch(/^Summary v\d: the user asked about plans and refunds\.$/);
    expect(info?.summarizedUpTo).toBe(2);
    await run(chat, 'and how do I reset my password?');
    expect(llm.prompts('answer').at(-1)?.[1]?.content).toContain('Summary of our earlier conversation: Summary v');
  });
});

describe('a turn while the embedding model downloads (a held loader at the Embedder seam, the real offline model behind it)', () => {
  it('answers from a words-only search and says so in its sources event; once the model is in, the next turn searches with it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((ok) => { release = ok; });
    const held = await RetrievalEngine.open(engineConfig(`chat-held-${unique++}`, { knownDims: 100 }), async () => { await gate; return loadEmbedder({ model: MODEL }); });
    await held.loadPrebuilt(await buildPrebuiltIndex(SAMPLE_DOCS, await loadEmbedder({ model: MODEL })));
    const chat = await ChatSession.open(await SessionStore.open(`chat-${unique++}`), held, undefined);
    const first = await run(chat, "what's the refund window?");
    const sources = first.find((e): e is Extract<TurnEvent, { type: 'sources' }> => e.type === 'sources');
    expect(sources?.lexicalOnly).toBe(true);
    expect(sources?.chunks[0]?.docId).toBe('refunds');
    expect(first.at(-1)).toMatchObject({ type: 'done', mode: 'extractive' });
    release();
    await new Promise((r) => setTimeout(r, 20));
    const second = (await run(chat, 'what about damaged items?')).find((e): e is Extract<TurnEvent, { type: 'sources' }> => e.type === 'sources');
    expect(second?.lexicalOnly).toBeUndefined();
    expect(second?.chunks[0]?.dense).toEqual(expect.any(Number));
    held.close();
  });

  it("modelPending: 'wait' waits for the model instead, however long; another value is INVALID_INPUT when the session opens", async () => {
    let release!: () => void;
    const gate = new Promise<void>((ok) => { release = ok; });
    const held = await RetrievalEngine.open(engineConfig(`chat-held-${unique++}`, { knownDims: 100 }), async () => { await gate; return loadEmbedder({ model: MODEL }); });
    await held.loadPrebuilt(await buildPrebuiltIndex(SAMPLE_DOCS, await loadEmbedder({ model: MODEL })));
    const store = await SessionStore.open(`chat-${unique++}`);
    await expect(ChatSession.open(store, held, undefined, { modelPending: 'soon' as never })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/modelPending must be one of 'lexical', 'wait'/) as string });
    const chat = await ChatSession.open(store, held, undefined, { modelPending: 'wait' });
    let done = false;
    const turn = run(chat, "what's the refund window?").then((events) => { done = true; return events; });
    await new Promise((r) => setTimeout(r, 400)); // past the 250 ms a 'lexical' turn waits
    expect(done).toBe(false);
    release();
    const sources = (await turn).find((e): e is Extract<TurnEvent, { type: 'sources' }> => e.type === 'sources');
    expect(sources?.lexicalOnly).toBeUndefined();
    expect(sources?.chunks[0]?.dense).toEqual(expect.any(Number));
    held.close();
  });
});
