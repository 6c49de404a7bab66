/**
 * A chat session: one turn = gate → condense → retrieve → answer → remember.
 * Each step reports what it decided as an event. A turn is saved only when it
 * completes, so an abort (or a consumer that stops iterating) leaves no half
 * turn; turns of one session run one at a time.
 */
import { ThreadlineError, isThreadlineError, throwIfAborted, toThreadlineError } from '../errors';
import { complete, type ChatMessage, type Llm } from '../llm/llm';
import type { SearchHit } from '../retrieval/memory-index';
import type { Retriever } from '../retriever';
import type { SessionInfo, SessionStore, StoredTurn } from '../storage/session-store';
import { checkCitations } from './citations';
import { extractiveAnswer } from './extractive';
import { EXPAND_DEFAULTS, resolveAndExpand } from './expand';
import { decide } from './gate';
import { condenseWithLlm } from './llm-condenser';
import { MEMORY_DEFAULTS, SUMMARY_MAX_TOKENS, estimateTokens, truncateToTokens, windowTurns, type CountTokens } from './memory';
import { answerMessages, summaryMessages } from './prompts';
import { specificityFrom, wordsToScore, type Specificity } from './specificity';
import type { HistoryTurn } from './topics';
import type { AnswerMode, ChatOptions, Turn, TurnEvent } from './types';

/** What a session needs of the index. */
export type SessionRetriever = Pick<Retriever, 'search' | 'termStats'>;

/** `hedge` is off: hedging the expanded query lost 3 points of gap closure on CAsT 2021 and gained 3 on our own set (README, Quality). */
export const CHAT_DEFAULTS = Object.freeze({ condense: 'auto', hedge: false, k: 5, minDense: 0.3 } as const);
/** Questions longer than this are refused with INVALID_INPUT. */
export const MAX_QUESTION_CHARS = 20_000;
/** Tokens of the question that go into prompts. */
const QUESTION_PROMPT_TOKENS = 1_024;
/** Tokens an answer may generate. */
const ANSWER_MAX_TOKENS = 768;

type Event<T extends TurnEvent['type']> = Extract<TurnEvent, { type: T }>;

export class ChatSession {
  private turns: StoredTurn[];
  private busy: Promise<void> = Promise.resolve();
  /** The answer conversation exactly as last sent, reply included (kv-stable layout). */
  private answerConversation: ChatMessage[] | null = null;

  private constructor(
    private info: SessionInfo,
    turns: StoredTurn[],
    private readonly store: SessionStore,
    private readonly retriever: SessionRetriever,
    private readonly llm: Llm | undefined,
    private readonly options: ChatOptions,
  ) {
    this.turns = turns;
  }

  static async open(store: SessionStore, retriever: SessionRetriever, llm: Llm | undefined, options: ChatOptions = {}): Promise<ChatSession> {
    const id = options.sessionId ?? crypto.randomUUID();
    if (typeof id !== 'string' || id.trim() === '' || id.length > 200) throw new ThreadlineError('INVALID_INPUT', 'sessionId must be a non-empty string of at most 200 characters');
    const { info, turns } = await store.load(id);
    const now = Date.now();
    return new ChatSession(info ?? { id, title: '', createdAt: now, updatedAt: now, turnCount: 0 }, turns, store, retriever, llm, options);
  }

  get id(): string {
    return this.info.id;
  }

  /** The conversation so far: the user's own words and the answers. */
  history(): Turn[] {
    return this.turns.map(({ user, assistant, mode, citations, at }) => ({ user, assistant, mode, citations, at }));
  }

  /** Forgets the turns, keeps the session id. */
  async reset(): Promise<void> {
    await this.exclusive(async () => {
      const now = Date.now();
      this.info = { id: this.info.id, title: '', createdAt: this.info.createdAt, updatedAt: now, turnCount: 0 };
      await this.store.clear(this.info.id, true, this.info);
      this.turns = [];
    });
  }

  /** Deletes the session and its turns. */
  async delete(): Promise<void> {
    await this.exclusive(async () => {
      await this.store.clear(this.info.id, false);
      this.turns = [];
    });
  }

  ask(text: string, options: { signal?: AbortSignal } = {}): AsyncIterable<TurnEvent> {
    if (typeof text !== 'string' || text.trim() === '') throw new ThreadlineError('INVALID_INPUT', 'ask() needs a non-empty question');
    if (text.length > MAX_QUESTION_CHARS) throw new ThreadlineError('INVALID_INPUT', `The question is longer than ${MAX_QUESTION_CHARS} characters.`);
    return this.turn(text, options.signal);
  }

  private async *turn(text: string, signal: AbortSignal | undefined): AsyncGenerator<TurnEvent> {
    const release = await this.acquire();
    try {
      yield* this.runTurn(text, signal);
    } finally {
      release();
    }
  }

  private async *runTurn(text: string, signal: AbortSignal | undefined): AsyncGenerator<TurnEvent> {
    const started = performance.now();
    throwIfAborted(signal);
    const history: HistoryTurn[] = this.turns.map((t) => ({ user: t.user, assistant: t.assistant }));
    const count: CountTokens = this.llm?.countTokens ? (t) => (this.llm as Required<Llm>).countTokens(t) : estimateTokens;
    const window = windowTurns(history, this.options.memory, count);
    const decision = decide(text, history.length > 0);

    if (decision.action === 'reply') {
      yield { type: 'condensed', original: text, question: text, query: { text, terms: [] }, method: 'kept', gate: decision.reason, reason: 'small talk: answered without retrieval' };
      const reply = smalltalkReply(text);
      yield { type: 'token', text: reply };
      const ms = performance.now() - started;
      await this.remember(text, reply, 'smalltalk', []);
      yield { type: 'done', answer: reply, mode: 'smalltalk', citations: [], invalidCitations: [], timings: { condenseMs: 0, retrieveMs: 0, firstTokenMs: ms, totalMs: ms } };
      return;
    }

    const condensed = await this.condense(text, history, window, signal);
    yield condensed;
    const condenseMs = performance.now() - started;

    throwIfAborted(signal);
    const k = this.options.k ?? CHAT_DEFAULTS.k;
    const hedge = (this.options.hedge ?? CHAT_DEFAULTS.hedge) && condensed.query.text !== text;
    const { query } = condensed;
    // A follow-up searches near the previous answer's main source (its first citation): a conversation
    // tends to stay in a document while it moves across its sections. Weighted like the conversation's topic words.
    const reading = condensed.method !== 'kept' ? this.turns.at(-1)?.citations[0]?.docId : undefined;
    const hits = await this.retriever.search({
      text: query.text,
      ...(query.terms.length ? { terms: query.terms } : {}),
      ...(hedge ? { hedge: text } : {}),
      ...(reading !== undefined ? { context: { docIds: [reading], weight: EXPAND_DEFAULTS.firstTurnWeight } } : {}),
    }, { k, ...(signal ? { signal } : {}) });
    yield { type: 'sources', chunks: hits, hedged: hedge };
    const retrieveMs = performance.now() - started - condenseMs;

    const done = yield* this.answer(text, condensed.question, hits, window, signal, started);
    await this.remember(text, done.answer, done.mode, done.citations.map(({ n, docId, label, url }) => ({ n, docId, label, ...(url !== undefined ? { url } : {}) })));
    void this.summarize(count); // queued behind this turn; runs even if the consumer stops at 'done'
    yield { ...done, timings: { ...done.timings, condenseMs, retrieveMs, totalMs: performance.now() - started } };
  }

  /** Gate, then condense: the LLM when there is one (and the mode allows), else resolve and expand (expand.ts). */
  private async condense(text: string, history: HistoryTurn[], window: HistoryTurn[], signal: AbortSignal | undefined): Promise<Event<'condensed'>> {
    const mode = this.options.condense ?? CHAT_DEFAULTS.condense;
    const kept = { question: text, query: { text, terms: [] } };
    if (mode === 'off') return { type: 'condensed', original: text, ...kept, method: 'kept', gate: decide(text, history.length > 0).reason, reason: 'condensation is off' };
    const specificity = history.length ? await this.specificity(text, history, signal) : () => 0;
    const zero = resolveAndExpand(text, history, specificity);
    const base = { type: 'condensed' as const, original: text, gate: zero.decision.reason };
    if (zero.decision.action !== 'condense') return { ...base, ...kept, method: 'kept', reason: zero.reason };
    if (this.llm && mode !== 'rules') {
      const out = await condenseWithLlm(this.llm, text, window, zero.decision, {
        ...(signal ? { signal } : {}), ...(this.info.summary ? { summary: this.info.summary } : {}), fallback: () => zero,
      });
      const query = out.method === 'rules' ? zero.query : { text: out.question, terms: [] };
      return { ...base, question: out.question, query, method: out.method, reason: out.reason, ...(out.fallback ? { fallback: out.fallback } : {}) };
    }
    return { ...base, question: zero.question, query: zero.query, method: 'rules', reason: zero.reason };
  }

  /** How specific the turn's and the history's words are in the user's own index (one round trip). */
  private async specificity(text: string, history: HistoryTurn[], signal: AbortSignal | undefined): Promise<Specificity> {
    return specificityFrom(await this.retriever.termStats(wordsToScore(text, history), signal ? { signal } : {}));
  }

  private async *answer(
    question: string, condensed: string, hits: SearchHit[], window: HistoryTurn[], signal: AbortSignal | undefined, started: number,
  ): AsyncGenerator<TurnEvent, Event<'done'>> {
    const timings = { condenseMs: 0, retrieveMs: 0, firstTokenMs: 0, totalMs: 0 };
    const minDense = this.options.abstain?.minDense ?? CHAT_DEFAULTS.minDense;
    const best = hits[0];
    if (!best || (hits.every((h) => h.lexical === undefined) && (best.dense ?? 0) < minDense)) {
      const text = 'I could not find this in the documents.';
      yield { type: 'token', text };
      return { type: 'done', answer: text, mode: 'abstained', citations: [], invalidCitations: [], timings: { ...timings, firstTokenMs: performance.now() - started } };
    }
    if (this.llm) {
      const prompt = this.answerPrompt(truncateToTokens(question, QUESTION_PROMPT_TOKENS, estimateTokens), hits, window);
      this.answerConversation = null; // only a completed reply makes the conversation reusable
      let answer = '';
      try {
        for await (const piece of this.llm.stream(prompt, { purpose: 'answer', maxTokens: ANSWER_MAX_TOKENS, ...(signal ? { signal } : {}) })) {
          throwIfAborted(signal);
          if (!answer) timings.firstTokenMs = performance.now() - started;
          answer += piece;
          yield { type: 'token', text: piece };
        }
        throwIfAborted(signal);
      } catch (error) {
        if (isThreadlineError(error, 'ABORTED') || signal?.aborted) throw toThreadlineError(error, 'ABORTED');
        if (answer) throw toThreadlineError(error, 'LLM_FAILED', 'The language model failed mid-answer');
        return { ...this.extractive(condensed, hits, started, timings), fallback: 'llm-error' };
      }
      if ((this.options.promptLayout ?? 'kv-stable') === 'kv-stable') this.answerConversation = [...prompt, { role: 'assistant', content: answer }];
      const checked = checkCitations(answer, hits);
      return { type: 'done', answer: checked.answer, mode: 'generated', citations: checked.citations, invalidCitations: checked.invalid, timings };
    }
    const done = this.extractive(condensed, hits, started, timings);
    yield { type: 'token', text: done.answer };
    return done;
  }

  /** The compact prompt, or the previous conversation extended by this turn when that stays within budget. */
  private answerPrompt(question: string, hits: SearchHit[], window: HistoryTurn[]): ChatMessage[] {
    const compact = answerMessages(question, hits, window, this.info.summary);
    const previous = this.answerConversation;
    if ((this.options.promptLayout ?? 'kv-stable') !== 'kv-stable' || !previous) return compact;
    const memory = { ...MEMORY_DEFAULTS, ...this.options.memory };
    const extended = [...previous, compact.at(-1) as ChatMessage];
    const count = (messages: ChatMessage[]) => messages.reduce((n, m) => n + (this.llm?.countTokens?.(m.content) ?? estimateTokens(m.content)), 0);
    const turnsCarried = extended.filter((m) => m.role === 'assistant').length;
    return turnsCarried <= memory.turns && count(extended) <= count(compact) + memory.maxTokens ? extended : compact;
  }

  private extractive(question: string, hits: SearchHit[], started: number, timings: Event<'done'>['timings']): Event<'done'> {
    const { text, passages } = extractiveAnswer(question, hits);
    const { citations } = checkCitations(passages.map((p) => `[${p.n}]`).join(' '), hits);
    return { type: 'done', answer: text, mode: 'extractive', citations, invalidCitations: [], extractive: passages, timings: { ...timings, firstTokenMs: performance.now() - started } };
  }

  private async remember(user: string, assistant: string, mode: AnswerMode, citations: StoredTurn['citations']): Promise<void> {
    const now = Date.now();
    const turn: StoredTurn = { sessionId: this.info.id, index: this.turns.length, user, assistant, mode, citations, at: now };
    const info: SessionInfo = { ...this.info, title: this.info.title || user.slice(0, 80), updatedAt: now, turnCount: this.turns.length + 1 };
    await this.store.append(info, turn);
    this.info = info;
    this.turns = [...this.turns, turn];
  }

  /** Summary memory: folds turns that left the window into the running summary (best effort). */
  private async summarize(count: CountTokens): Promise<void> {
    const memory = { ...MEMORY_DEFAULTS, ...this.options.memory };
    if (memory.kind !== 'summary' || !this.llm) return;
    const upTo = Math.max(0, this.turns.length - memory.turns);
    const from = this.info.summarizedUpTo ?? 0;
    if (upTo <= from) return;
    await this.exclusive(async () => {
      try {
        const older = this.turns.slice(from, upTo).map((t) => ({ user: t.user, assistant: t.assistant }));
        const text = await complete(this.llm as Llm, summaryMessages(this.info.summary ?? '', older), { purpose: 'summary', temperature: 0, maxTokens: SUMMARY_MAX_TOKENS });
        this.info = { ...this.info, summary: truncateToTokens(text.trim(), SUMMARY_MAX_TOKENS, count), summarizedUpTo: upTo };
        await this.store.saveInfo(this.info);
      } catch {
        // The summary is an optimisation; the window alone still bounds every prompt.
      }
    });
  }

  private async exclusive<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await work();
    } finally {
      release();
    }
  }

  /** Waits for this session's earlier turns and maintenance; call the result to let the next one run. */
  private async acquire(): Promise<() => void> {
    let release!: () => void;
    const previous = this.busy;
    this.busy = new Promise((r) => { release = r; });
    await previous;
    return release;
  }
}

function smalltalkReply(text: string): string {
  const t = text.toLowerCase();
  if (/\b(?:thank|thanks|thx|ty|cheers|appreciate)/.test(t)) return "You're welcome! Ask me anything about the documents.";
  if (/\b(?:bye|goodbye|later|cya)\b/.test(t)) return 'Goodbye!';
  if (/\b(?:hi|hello|hey|hiya|howdy|greetings|morning|evening|afternoon)\b/.test(t)) return 'Hello! Ask me a question about the documents.';
  return 'Okay. What else would you like to know?';
}
