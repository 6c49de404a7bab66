/**
 * A chat session: the lock, the history, the sequence of a turn and its
 * events. One turn is the design's five steps: gate and condense
 * (condense.ts), retrieve, answer (answer.ts), remember. A turn is saved only
 * when it completes, so an abort (or a consumer that breaks out of its loop)
 * leaves no half turn; the question alone is stored when the turn starts
 * (`pending()`), so a page that closes or crashes mid-answer loses nothing
 * the visitor typed. Turns of one session run one at a time, and every
 * await of a turn races its signal, so Stop always stops.
 */
import { ThreadlineError, throwIfAborted } from '../errors';
import { complete, type Llm } from '../llm/llm';
import type { Retriever } from '../retriever';
import type { LoadedSession, PendingQuestion, SessionInfo, SessionStore, StoredTurn, TurnMark } from '../storage/session-store';
import type { SessionWatch } from '../storage/session-writes';
import { HEDGE_RAW_WEIGHT } from '../retrieval/fusion';
import { raced } from '../util/abort';
import { Mutex } from '../util/mutex';
import { answerTurn, type AbstainRule } from './answer';
import { validateChatOptions } from './chat-options';
import { keptAsTyped, type CondensedEvent } from './kept-as-typed';
import { asQuery } from './searched-query';
import { eventStream } from './event-stream';
import type { GateReason } from './rules/gate';
import { isSmalltalk } from './rules/smalltalk';
import { loadedTurnRules, turnRules, type TurnRules } from './turn-rules-loader';
import { MEMORY_DEFAULTS, SUMMARY_MAX_TOKENS, estimateTokens, truncateToTokens, windowTurns, type CountTokens } from './memory';
import { PromptLayout } from './prompt-layout';
import { MAX_READ_TURNS } from './rules/read-bounds';
import { summaryMessages } from './prompts';
import type { HistoryTurn } from './rules/topics';
import type { AnswerMode, ChatOptions, Turn, TurnEvent } from './types';

/** What a session needs of the index. */
export type SessionRetriever = Pick<Retriever, 'search' | 'termStats'>;

/** `hedge` is off: hedging the expanded query lost 3 points of gap closure on CAsT 2021 and gained 3 on our own set (README, Quality; docs/quality-log.md). */
export const CHAT_DEFAULTS = Object.freeze({ condense: 'auto', llmExpansion: false, hedge: false, k: 5, minDense: 0.3, minCoverage: 0.2, promptLayout: 'kv-stable', modelPending: 'lexical' } as const);
/**
 * The reading context of a follow-up's search: the other chunks of the previous answer's main source gain
 * this many standard deviations of the fused scores (fusion.ts Prior). One: a unit of the evidence itself;
 * 0.25–1 measured alike on CAsT 2021, where conversations leave the document, and 0.5–1 best on our sets, where
 * they stay in it (README, Quality; docs/quality-log.md). `npm run eval` applies it the same way.
 */
export const READING_WEIGHT = 1;
/** warm() reads at most this much of what is typed. */
const MAX_WARM_CHARS = 200;
/** A conversation for warm() to condense against: any will do, its code is what runs. */
const WARM_HISTORY: readonly HistoryTurn[] = [{ user: 'How long is the refund window for orders?', assistant: 'Thirty days from delivery.' }];
/** Questions longer than this are refused with INVALID_INPUT. */
export const MAX_QUESTION_CHARS = 20_000;
/** Tokens of the question that go into prompts. */
const QUESTION_PROMPT_TOKENS = 1_024;
/** A summary that takes longer than this is given up (the window alone still bounds every prompt). */
const SUMMARY_TIMEOUT_MS = 60_000;

/** Options resolved once when the session opens; later code never writes `?? default`. */
type ResolvedChatOptions = Required<Pick<ChatOptions, 'condense' | 'llmExpansion' | 'hedge' | 'k' | 'promptLayout' | 'modelPending'>> & { abstain: AbstainRule; memory: typeof MEMORY_DEFAULTS | Required<NonNullable<ChatOptions['memory']>> };

function resolveOptions(options: ChatOptions): ResolvedChatOptions {
  return {
    condense: options.condense ?? CHAT_DEFAULTS.condense,
    llmExpansion: options.llmExpansion ?? CHAT_DEFAULTS.llmExpansion,
    hedge: options.hedge ?? CHAT_DEFAULTS.hedge,
    k: options.k ?? CHAT_DEFAULTS.k,
    promptLayout: options.promptLayout ?? CHAT_DEFAULTS.promptLayout,
    modelPending: options.modelPending ?? CHAT_DEFAULTS.modelPending,
    abstain: { minDense: options.abstain?.minDense ?? CHAT_DEFAULTS.minDense, minCoverage: options.abstain?.minCoverage ?? CHAT_DEFAULTS.minCoverage },
    memory: { ...MEMORY_DEFAULTS, ...options.memory },
  };
}

export class ChatSession {
  /** The stored turns held, oldest first: all of them, or with `latestTurns` the latest (and those read since). */
  private turns: StoredTurn[];
  /** The conversation's first turn, when `turns` leaves it out: the condenser reads it (it names the topic). */
  private first: StoredTurn | undefined;
  /** The index below which no stored turn has been read, and how many stored turns lie below it. */
  private below = 0;
  private earlierStored = 0;
  /** Turns read when the session opens or is read again (undefined: all); see ChatOptions.latestTurns. */
  private readonly readLatest: number | undefined;
  /** Whether anything but this chat wrote the session since it last read it (session-writes.ts). */
  private readonly watch: SessionWatch;
  private readonly lock = new Mutex();
  private readonly layout: PromptLayout;
  private readonly options: ResolvedChatOptions;
  private readonly count: CountTokens;
  private summarizing = false;
  private warmed = false;

  private constructor(
    private info: SessionInfo,
    turns: StoredTurn[],
    watch: SessionWatch,
    readLatest: number | undefined,
    private readonly store: SessionStore,
    private readonly retriever: SessionRetriever,
    private readonly llm: Llm | undefined,
    options: ResolvedChatOptions,
  ) {
    this.turns = turns;
    this.watch = watch;
    this.options = options;
    this.readLatest = readLatest;
    this.count = llm?.countTokens ? (t) => (llm as Required<Llm>).countTokens(t) : estimateTokens;
    this.layout = new PromptLayout(this.options.promptLayout, this.options.memory, this.count);
  }

  static async open(store: SessionStore, retriever: SessionRetriever, llm: Llm | undefined, options: ChatOptions = {}): Promise<ChatSession> {
    validateChatOptions(options);
    const id = options.sessionId ?? crypto.randomUUID();
    if (typeof id !== 'string' || id.trim() === '' || id.length > 200) throw new ThreadlineError('INVALID_INPUT', 'sessionId must be a non-empty string of at most 200 characters');
    const resolved = resolveOptions(options);
    const latest = latestRead(options.latestTurns, resolved.memory);
    const watch = store.watch(id);
    const loaded = await store.load(id, undefined, latest !== undefined ? { latest } : {});
    const now = Date.now();
    const session = new ChatSession(loaded.info ?? { id, title: '', createdAt: now, updatedAt: now, turnCount: 0 }, loaded.turns, watch, latest, store, retriever, llm, resolved);
    session.held(loaded);
    // A resumed conversation's next turn needs the condenser: where its code is fetched lazily, that starts now.
    if (loaded.turns.length) void turnRules().catch(() => undefined);
    return session;
  }

  /**
   * Runs a turn's search code once, on `text` (what the visitor has typed so far): the index's term statistics and a
   * search in the worker, and the gate and condenser here. A worker's code is compiled on its first call on every
   * page load (workers get no compile cache), so the first question after a reload took 10 ms longer than the next;
   * a chat UI calls this as the visitor starts typing, so that happens while they type. Best effort (failures are
   * ignored), once per session; it waits for nothing and stores nothing.
   */
  warm(text = ''): void {
    if (this.warmed) return;
    this.warmed = true;
    const sample = text.trim().slice(0, MAX_WARM_CHARS) || 'what is it?';
    const words = sample.split(/\s+/).slice(0, 8);
    void this.retriever.termStats(words, { forms: true }).catch(() => undefined);
    void this.retriever.search(sample, { k: 1, modelPending: 'lexical' }).catch(() => undefined);
    // Fetches the condenser's code too where it is fetched lazily (turn-rules-loader.ts), while the visitor types.
    void turnRules().then((rules) => { rules.resolveAndExpand(sample, WARM_HISTORY, () => 0); }).catch(() => undefined);
  }

  /** Stored turns before the first that `history()` returns: 0 unless the session was opened with `latestTurns`. */
  get earlierCount(): number {
    return this.earlierStored;
  }

  /**
   * Reads up to `count` stored turns before the first that `history()` returns (all of them by default), adds
   * them to it, and returns them, oldest first: for a log that shows a long conversation's earlier turns on
   * demand, or an export of the whole conversation. Returns none when there are none, or when the conversation
   * was reset or cleared elsewhere meanwhile (the next question reads it again).
   */
  async earlier(count = Infinity, options: { signal?: AbortSignal } = {}): Promise<Turn[]> {
    if (typeof count !== 'number' || Number.isNaN(count) || count < 1) throw new ThreadlineError('INVALID_INPUT', 'earlier() takes how many turns to read: a number of at least 1');
    const read = await this.readEarlier(Math.floor(count), options.signal);
    if (!read) return [];
    this.turns = [...read.turns, ...this.turns];
    this.below = read.from;
    this.earlierStored = read.earlier;
    if (this.earlierStored === 0) this.first = undefined;
    return read.turns.map(asTurn);
  }

  /**
   * The whole conversation, for an export: what `history()` returns and the earlier turns it leaves out, read from
   * the store (`history()` stays as it was).
   */
  async fullHistory(options: { signal?: AbortSignal } = {}): Promise<Turn[]> {
    const held = this.history();
    const read = await this.readEarlier(Infinity, options.signal);
    return read ? [...read.turns.map(asTurn), ...held] : this.history();
  }

  /**
   * Up to `count` stored turns before those held; null when there are none, or when what this session holds was
   * replaced meanwhile (a reset elsewhere, seen by a turn) or is no longer stored: those turns would not be its.
   */
  private async readEarlier(count: number, signal: AbortSignal | undefined): Promise<Awaited<ReturnType<SessionStore['earlier']>>> {
    const oldest = this.turns[0];
    if (!oldest || this.earlierStored === 0) return null;
    const read = await raced(this.store.earlier(this.info.id, mark(oldest), this.below, count), signal);
    return read && this.turns[0] === oldest ? read : null;
  }

  get id(): string {
    return this.info.id;
  }

  /**
   * The conversation so far: the user's own words and the answers. Every stored turn, or for a session opened with
   * `latestTurns` the latest ones and those `earlier()` has read since (`fullHistory()` reads them all).
   */
  history(): Turn[] {
    return this.turns.map(asTurn);
  }

  /**
   * The question of a turn that started and never ended (the page closed or
   * crashed mid-answer), as stored when this session was opened or last
   * asked; undefined once a later turn is saved or stopped. A chat UI offers
   * it again ("your last question was not answered").
   */
  pending(): { user: string; at: number } | undefined {
    const p = this.info.pending;
    return p ? { user: p.user, at: p.at } : undefined;
  }

  /** Forgets the turns, keeps the session id. */
  async reset(): Promise<void> {
    await this.lock.run(async () => {
      const now = Date.now();
      this.info = { id: this.info.id, title: '', createdAt: this.info.createdAt, updatedAt: now, turnCount: 0 };
      await this.store.clear(this.info.id, true, this.info, this.watch);
      this.forget();
    });
  }

  /** Deletes the session and its turns. */
  async delete(): Promise<void> {
    await this.lock.run(async () => {
      await this.store.clear(this.info.id, false, undefined, this.watch);
      this.forget();
    });
  }

  /**
   * Asks a question. The events stream as the turn runs; breaking out of the
   * loop or aborting `signal` cancels the turn (nothing is saved); a consumer
   * that simply stops reading lets the turn finish and be saved.
   */
  ask(text: string, options: { signal?: AbortSignal } = {}): AsyncIterableIterator<TurnEvent> {
    if (typeof text !== 'string' || text.trim() === '') throw new ThreadlineError('INVALID_INPUT', 'ask() needs a non-empty question');
    if (text.length > MAX_QUESTION_CHARS) throw new ThreadlineError('INVALID_INPUT', `The question is longer than ${MAX_QUESTION_CHARS} characters.`);
    return eventStream<TurnEvent>(async (emit, signal) => {
      const release = await this.lock.acquire(signal);
      const turn: Running = { id: crypto.randomUUID() };
      try {
        await this.runTurn(text, emit, signal, turn);
      } catch (error) {
        // Stopped on purpose: the question is no longer waiting for an answer. A failed turn leaves it, as a crash would.
        if (signal.aborted && turn.marking) await this.unmark(turn.marking, turn.id);
        throw error;
      } finally {
        release();
      }
    }, options.signal);
  }

  /** Gate and condense, retrieve, answer, remember. */
  private async runTurn(text: string, emit: (e: TurnEvent) => void, signal: AbortSignal, turn: Running): Promise<void> {
    const started = performance.now();
    await this.refresh(signal);
    // The first turn too where only the latest are held: the condenser reads the first and the latest 15 (read-bounds.ts),
    // and at least that many are held (latestRead), so it reads the same as from the whole conversation.
    const held = this.first ? [this.first, ...this.turns] : this.turns;
    const history: HistoryTurn[] = held.map((t) => ({ user: t.user, assistant: t.assistant }));
    const window = windowTurns(history, this.options.memory, this.count);

    // The condenser's code (turn-rules-loader.ts): bundled with the page except in the standalone element, which fetches
    // it when first needed. There a first turn, which it keeps as typed, does not wait for it (small talk is told apart
    // without it); a later turn waits, and where it cannot be fetched searches as typed and says so.
    // undefined: a first turn while it downloads; null: it could not be fetched.
    let rules: TurnRules | null | undefined = loadedTurnRules();
    if (!rules && history.length > 0) rules = await raced(turnRules().catch(() => null), signal);
    else if (!rules) void turnRules().catch(() => undefined);
    if (isSmalltalk(text)) return this.replySmalltalk(text, 'smalltalk', emit, started);
    // The question is stored while the turn runs (not awaited here: the write overlaps condensing and retrieval).
    // Best effort: a store that cannot take it must not cost the visitor the answer.
    const pending: PendingQuestion = { id: turn.id, user: text, at: Date.now() };
    turn.marking = this.store.markPending(this.info, pending, this.watch).then(() => true, () => false);

    // 1–2. Gate and condense.
    const condensed: CondensedEvent = rules
      ? await rules.condenseTurn(text, history, window, { retriever: this.retriever, llm: this.llm, mode: this.options.condense, llmExpansion: this.options.llmExpansion, summary: this.info.summary, signal })
      : rules === undefined
        ? keptAsTyped(text, 'first-turn', 'kept as typed (first-turn)')
        : keptAsTyped(text, 'condenser-unavailable', 'the condenser\'s code could not be fetched (is the connection lost?): searched as typed; reloading the page fetches it again');
    emit(condensed);
    const condenseMs = performance.now() - started;

    // 3. Retrieve: the query as data, one round trip; a follow-up searches near the previous answer's main
    // source (a conversation tends to stay in a document while it moves across its sections), but not the
    // passage it quoted: favouring that one cost CAsT follow-ups 0.11 MRR, where the next answer is elsewhere.
    throwIfAborted(signal);
    const { query } = condensed;
    // `hedge: true` hedges every changed question with the question as typed; otherwise the condenser's own hedge, if any.
    const searched = this.options.hedge && query.text !== text ? { ...asQuery({ text: query.text, terms: query.terms }), hedge: text } : asQuery(query);
    const reading = condensed.method !== 'kept' ? this.turns.at(-1)?.citations[0] : undefined;
    const hits = await raced(this.retriever.search({
      ...searched,
      ...(reading !== undefined ? { context: { docIds: [reading.docId], weight: READING_WEIGHT, except: reading.chunkKey !== undefined ? [reading.chunkKey] : [] } } : {}),
    }, { k: this.options.k, modelPending: this.options.modelPending, signal }), signal);
    const hedged = searched.hedge !== undefined ? { text: searched.hedge, weight: searched.hedgeWeight ?? HEDGE_RAW_WEIGHT } : undefined;
    emit({
      type: 'sources', chunks: hits, ...(hedged ? { hedged } : {}), ...(reading !== undefined ? { reading: { docId: reading.docId, label: reading.label } } : {}),
      ...(hits.some((h) => h.lexicalOnly) ? { lexicalOnly: true as const } : {}),
    });
    const retrieveMs = performance.now() - started - condenseMs;

    // 4. Answer.
    const question = truncateToTokens(text, QUESTION_PROMPT_TOKENS, estimateTokens);
    const answering = answerTurn(condensed.question, hits, {
      llm: this.llm, typed: text, abstain: this.options.abstain, started, signal,
      prompt: (passages) => this.layout.build(question, passages, window, this.info.summary),
      completed: (prompt, answer) => this.layout.completed(prompt, answer),
    });
    let step = await answering.next();
    while (!step.done) {
      emit(step.value);
      step = await answering.next();
    }
    const done = step.value;

    // 5. Remember: the user's own words and the answer, never the rewrite or the passages.
    throwIfAborted(signal);
    await turn.marking;
    await this.remember(text, done.answer, done.mode, done.citations.map(({ n, docId, label, url, chunkKey }) => ({ n, docId, label, ...(url !== undefined ? { url } : {}), chunkKey })), turn.id);
    void this.summarize(); // after this turn, outside the lock; runs even if the consumer stops at 'done'
    emit({ ...done, timings: { ...done.timings, condenseMs, retrieveMs, totalMs: performance.now() - started } });
  }

  private async replySmalltalk(text: string, gate: GateReason, emit: (e: TurnEvent) => void, started: number): Promise<void> {
    emit(keptAsTyped(text, gate, 'small talk: answered without retrieval'));
    const reply = smalltalkReply(text);
    emit({ type: 'token', text: reply });
    const ms = performance.now() - started;
    // A new turn, even small talk, takes the place of a question left unanswered.
    await this.remember(text, reply, 'smalltalk', [], this.info.pending?.id);
    emit({ type: 'done', answer: reply, mode: 'smalltalk', citations: [], invalidCitations: [], timings: { condenseMs: 0, retrieveMs: 0, firstTokenMs: ms, totalMs: ms } });
  }

  /**
   * Re-reads the stored session: another handle (another tab) may have added turns since. Only the turns after
   * the last one held are read while that one is still stored as it was (SessionStore.load), so a turn's cost does
   * not grow with the conversation: 1,000 stored turns cost every question 8 ms more before (bench/long-conversation.ts).
   */
  private async refresh(signal: AbortSignal): Promise<void> {
    // Nothing written since the last read but by this chat (whose writes it holds): nothing to read.
    if (!this.watch.stale) return;
    this.watch.reading();
    const last = this.turns.at(-1);
    let loaded: LoadedSession;
    try {
      loaded = await raced(this.store.load(this.info.id, last ? mark(last) : undefined, this.readLatest !== undefined ? { latest: this.readLatest } : {}), signal);
    } catch (error) {
      this.watch.unread(); // stopped or failed: read at the next turn
      throw error;
    }
    const next = !loaded.continued ? loaded.turns : loaded.turns.length ? [...this.turns, ...loaded.turns] : this.turns;
    if (next.length !== this.turns.length || next.at(-1)?.index !== this.turns.at(-1)?.index) this.layout.reset();
    if (loaded.continued) this.turns = next;
    else this.held(loaded);
    if (loaded.info) this.info = loaded.info;
  }

  /** Holds what a read of the whole session (or of its latest turns) found. */
  private held(loaded: { turns: StoredTurn[]; from: number; earlier: number; first?: StoredTurn }): void {
    this.turns = loaded.turns;
    this.below = loaded.from;
    this.earlierStored = loaded.earlier;
    this.first = loaded.first;
  }

  private forget(): void {
    this.turns = [];
    this.first = undefined;
    this.below = 0;
    this.earlierStored = 0;
    this.layout.reset();
  }

  /** Removes a stopped turn's question (best effort: the page may be closing). */
  private async unmark(marking: Promise<boolean>, id: string): Promise<void> {
    if (!(await marking)) return;
    try {
      this.info = await this.store.clearPending(this.info, id, this.watch);
    } catch {
      // It stays offered as unanswered, which is what it is.
    }
  }

  private async remember(user: string, assistant: string, mode: AnswerMode, citations: StoredTurn['citations'], answers?: string): Promise<void> {
    const now = Date.now();
    const info: SessionInfo = { ...this.info, title: this.info.title || user.slice(0, 80), updatedAt: now };
    const saved = await this.store.append(info, { sessionId: this.info.id, user, assistant, mode, citations, at: now }, answers, this.watch);
    this.info = saved.info;
    this.turns = [...this.turns, saved.turn];
  }

  /** The stored turns with indexes in [from, to): those held, and those below what is held read from the store. */
  private async storedBetween(from: number, to: number, signal: AbortSignal): Promise<StoredTurn[]> {
    const held = this.turns.filter((t) => t.index >= from && t.index < to);
    const oldest = this.turns[0];
    if (from >= this.below || !oldest) return held;
    const top = Math.min(to, this.below);
    const read = await raced(this.store.earlier(this.info.id, mark(oldest), top, top - from), signal);
    return read ? [...read.turns, ...held] : held;
  }

  /** Summary memory: folds turns that left the window into the running summary (best effort, bounded in time). */
  private async summarize(): Promise<void> {
    const memory = this.options.memory;
    if (memory.kind !== 'summary' || !this.llm || this.summarizing) return;
    // By turn index (a session opened with latestTurns holds only the latest turns).
    const upTo = Math.max(0, (this.turns.at(-1)?.index ?? -1) + 1 - memory.turns);
    const from = this.info.summarizedUpTo ?? 0;
    if (upTo <= from) return;
    this.summarizing = true;
    const timeout = AbortSignal.timeout(SUMMARY_TIMEOUT_MS);
    let caughtUp = false;
    try {
      const older = (await this.storedBetween(from, upTo, timeout)).map((t) => ({ user: t.user, assistant: t.assistant }));
      const text = await raced(complete(this.llm, summaryMessages(this.info.summary ?? '', older), { purpose: 'summary', temperature: 0, maxTokens: SUMMARY_MAX_TOKENS, signal: timeout }), timeout);
      await this.lock.run(async () => {
        this.info = await this.store.saveSummary(this.info, truncateToTokens(text.trim(), SUMMARY_MAX_TOKENS, this.count), upTo, this.watch);
      });
      caughtUp = true;
    } catch {
      // The summary is an optimisation; the window alone still bounds every prompt.
    } finally {
      this.summarizing = false;
    }
    // Turns that finished meanwhile are folded in next (after a success only: a failing model is not retried in a loop).
    if (caughtUp) await this.summarize();
  }
}

/**
 * How many of the latest turns a session with `latestTurns` reads: at least what condensing reads (the first
 * turn, held apart, and the latest MAX_READ_TURNS - 1) and what prompts carry (memory.turns).
 */
function latestRead(latestTurns: number | undefined, memory: { turns: number }): number | undefined {
  return latestTurns === undefined ? undefined : Math.max(latestTurns, MAX_READ_TURNS - 1, memory.turns);
}

function mark(turn: StoredTurn): TurnMark {
  return { index: turn.index, at: turn.at, user: turn.user };
}

function asTurn({ user, assistant, mode, citations, at }: StoredTurn): Turn {
  return { user, assistant, mode, citations: citations.map(({ n, docId, label, url }) => ({ n, docId, label, ...(url !== undefined ? { url } : {}) })), at };
}

/** One ask()'s turn: its id, and the write of its pending question once started. */
interface Running { id: string; marking?: Promise<boolean> }

function smalltalkReply(text: string): string {
  const t = text.toLowerCase();
  if (/\b(?:thank|thanks|thx|ty|cheers|appreciate)/.test(t)) return "You're welcome! Ask me anything about the documents.";
  if (/\b(?:bye|goodbye|later|cya)\b/.test(t)) return 'Goodbye!';
  if (/\b(?:hi|hello|hey|hiya|howdy|greetings|morning|evening|afternoon)\b/.test(t)) return 'Hello! Ask me a question about the documents.';
  return 'Okay. What else would you like to know?';
}
