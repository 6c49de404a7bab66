/**
 * Chat sessions in IndexedDB (`threadline:<name>:sessions`). One record per
 * turn, so appending never rewrites the conversation; a turn and its session
 * header are written in one strict transaction. Only the user's own words and
 * the answers are kept: never rewritten questions, never retrieved chunks.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { abandon, storageError } from './storage-errors';
import { isSafeCount, isText } from '../util/guards';
import { SessionWrites, type SessionWatch } from './session-writes';

/** `chunkKey`: the quoted chunk, so the next turn can tell it from the rest of its document (session.ts, reading context). */
export interface StoredCitation { n: number; docId: string; label: string; url?: string; chunkKey?: number }

export interface StoredTurn {
  sessionId: string;
  index: number;
  user: string;
  assistant: string;
  mode: 'generated' | 'extractive' | 'abstained' | 'smalltalk';
  citations: StoredCitation[];
  at: number;
}

export interface SessionInfo {
  id: string;
  /** The first question, shortened, for session lists. */
  title: string;
  createdAt: number;
  updatedAt: number;
  turnCount: number;
  /** Running summary of turns [0, summarizedUpTo) when summary memory is on. */
  summary?: string;
  summarizedUpTo?: number;
  /**
   * The question of a turn that started and never ended: the page closed or
   * crashed mid-answer. Written when a turn starts, removed when it is saved
   * or stopped, so what a visitor typed survives a crash.
   */
  pending?: PendingQuestion;
}

/** A stored turn as a caller last read it: which one, and enough of it to tell it from another written at its index since. */
export interface TurnMark { index: number; at: number; user: string }

/** What `SessionStore.load` read. */
export interface LoadedSession {
  info: SessionInfo | undefined;
  /** Well-formed turns, oldest first. */
  turns: StoredTurn[];
  /** Records read that were not well-formed turns. */
  skipped: number;
  /** Whether `turns` are only those after the caller's last (`after`). */
  continued: boolean;
  /** The index of the first record read (a malformed one included); 0 when none was. */
  from: number;
  /** Stored turns with an index below `from` (0 unless `latest` left some out). */
  earlier: number;
  /** The conversation's first turn, when `latest` left it out. */
  first?: StoredTurn;
}

export interface PendingQuestion {
  /** Which turn wrote it: only that turn's save or stop removes it. */
  id: string;
  user: string;
  at: number;
}

interface SessionDB extends DBSchema {
  sessions: { key: string; value: SessionInfo; indexes: { byUpdated: number } };
  turns: { key: [string, number]; value: StoredTurn };
}

const SESSION_SCHEMA_VERSION = 1;
const TX = { durability: 'strict' } as const;

export class SessionStore {
  private readonly writes: SessionWrites;

  private constructor(private readonly db: IDBPDatabase<SessionDB>) {
    this.writes = new SessionWrites(db.name);
  }

  static async open(name: string): Promise<SessionStore> {
    try {
      const db = await openDB<SessionDB>(`threadline:${name}:sessions`, SESSION_SCHEMA_VERSION, {
        upgrade(database, oldVersion) {
          if (oldVersion < 1) {
            database.createObjectStore('sessions', { keyPath: 'id' }).createIndex('byUpdated', 'updatedAt');
            database.createObjectStore('turns', { keyPath: ['sessionId', 'index'] });
          }
        },
        blocking() { db.close(); },
      });
      return new SessionStore(db);
    } catch (error) {
      throw storageError(error, 'Could not open the session store');
    }
  }

  close(): void {
    this.writes.close();
    this.db.close();
  }

  /** Whether a chat needs to read its session again before a turn: see session-writes.ts. Take it before the first read. */
  watch(id: string): SessionWatch {
    return this.writes.watch(id);
  }

  async list(): Promise<SessionInfo[]> {
    return this.guard(async () => ((await this.db.getAllFromIndex('sessions', 'byUpdated')) as unknown[]).filter(isSessionInfo).map(withValidPending).reverse(), 'Could not list sessions');
  }

  /**
   * The session as stored now. Records that are not well-formed turns (a
   * browser bug, tampering, a future format) are skipped and counted, never
   * thrown: one bad record must not lock a visitor out of the conversation.
   *
   * `after`: the last turn the caller holds. When that record is still stored
   * as it was, only the turns after it are read (`continued`), so a turn costs
   * the same in a conversation of 1,000 turns as in one of 10; otherwise (the
   * session was reset or cleared elsewhere) the session is read as without it.
   *
   * `latest`: read only the latest this many turns (by index), and the first
   * one (`first`, which names the conversation's topic) when it is not among
   * them; `earlier` counts the stored turns before the ones read. Reading a
   * 1,000-turn conversation whole cost every reload of a chat page 1.3× a new
   * one's (bench/long-conversation.ts).
   */
  async load(id: string, after?: TurnMark, options: { latest?: number } = {}): Promise<LoadedSession> {
    return this.guard(async () => {
      const tx = this.db.transaction(['sessions', 'turns'], 'readonly');
      const turnStore = tx.objectStore('turns');
      const header = tx.objectStore('sessions').get(id);
      header.catch(() => undefined); // awaited below; a failure before then is the other requests' too, and thrown by them
      const read = (records: unknown[], continued: boolean, info: unknown, first?: unknown) => {
        const turns = records.filter(isStoredTurn).map(withValidChunkKeys);
        const from = recordIndex(records[0]) ?? 0;
        const head = isStoredTurn(first) ? withValidChunkKeys(first) : undefined;
        const earlier = head ? Math.max(0, from - head.index) : 0;
        return {
          info: isSessionInfo(info) ? withValidPending(info) : undefined, turns, skipped: records.length - turns.length, continued, from, earlier,
          ...(head && earlier > 0 ? { first: head } : {}),
        };
      };
      if (after && Number.isSafeInteger(after.index) && after.index >= 0) {
        const [known, newer] = await Promise.all([
          turnStore.get([id, after.index]),
          turnStore.getAll(IDBKeyRange.bound([id, after.index], [id, Number.MAX_SAFE_INTEGER], true)),
        ]);
        if (isStoredAs(known, after)) return read(newer, true, await header);
      }
      const all = turnsOf(id);
      const latest = options.latest;
      if (latest === undefined || !Number.isSafeInteger(latest) || latest < 1) return read(await turnStore.getAll(all), false, await header);
      // The last key, then the records from `latest` indexes before it: three small reads, not every record.
      const [firstRecords, last] = await Promise.all([turnStore.getAll(all, 1), turnStore.openKeyCursor(all, 'prev')]);
      const lastIndex = last ? last.key[1] : -1;
      const records = lastIndex < 0 ? [] : await turnStore.getAll(IDBKeyRange.bound([id, Math.max(0, lastIndex - latest + 1)], [id, Number.MAX_SAFE_INTEGER]));
      return read(records, false, await header, firstRecords[0]);
    }, 'Could not load the session');
  }

  /**
   * Up to `count` stored turns with indexes just below `below`, oldest first; `from` is the lowest index read and
   * `earlier` counts the stored turns below it. `held` is a turn the caller holds: when it is no longer stored as it
   * was (the session was reset or cleared elsewhere), nothing is read and null returned, as what the caller holds is
   * then not this conversation's (it reads the conversation again on its next turn).
   */
  async earlier(id: string, held: TurnMark, below: number, count: number): Promise<{ turns: StoredTurn[]; skipped: number; from: number; earlier: number } | null> {
    return this.guard(async () => {
      const tx = this.db.transaction('turns', 'readonly');
      const top = Math.max(0, Math.min(below, Number.MAX_SAFE_INTEGER));
      const from = count >= 1 ? Math.max(0, top - Math.min(count, Number.MAX_SAFE_INTEGER)) : top; // NaN or below 1: none
      const [known, records, firstRecords] = await Promise.all([
        tx.store.get([id, held.index]),
        from < top ? tx.store.getAll(IDBKeyRange.bound([id, from], [id, top], false, true)) : Promise.resolve([]),
        tx.store.getAll(turnsOf(id), 1),
      ]);
      if (!isStoredAs(known, held)) return null;
      const turns = records.filter(isStoredTurn).map(withValidChunkKeys);
      const lowest = recordIndex(records[0]) ?? top;
      const first = recordIndex(firstRecords[0]);
      return { turns, skipped: records.length - turns.length, from: lowest, earlier: first === undefined ? 0 : Math.max(0, lowest - first) };
    }, 'Could not load earlier turns');
  }

  /**
   * Appends a turn after the last one stored, whoever wrote it: the index is
   * computed inside the write transaction, so two handles on one session (two
   * tabs, or two chats in one page) never overwrite each other's turns. The
   * header is merged with the stored one. Returns what was stored. `by`: the
   * chat writing it (its watch stays current), as for every write below.
   */
  async append(info: SessionInfo, turn: Omit<StoredTurn, 'index'>, answers?: string, by?: SessionWatch): Promise<{ info: SessionInfo; turn: StoredTurn }> {
    return this.guard(async () => {
      const tx = this.db.transaction(['sessions', 'turns'], 'readwrite', TX);
      try {
        const range = turnsOf(info.id);
        const turns = tx.objectStore('turns');
        const [last, stored] = await Promise.all([turns.openKeyCursor(range, 'prev'), tx.objectStore('sessions').get(info.id)]);
        const index = last ? (last.key)[1] + 1 : 0;
        const saved: StoredTurn = { ...turn, sessionId: info.id, index };
        const header = isSessionInfo(stored) ? withValidPending(stored) : undefined;
        // The stored header's count, which every write keeps (counting the records reads them all: 1,000 turns cost every
        // question a few ms more); counted only where the header has none that fits (a damaged or foreign record).
        const count = header && isSafeCount(header.turnCount) && header.turnCount <= index ? header.turnCount : await turns.count(range);
        const rest = withoutPending(info);
        const pending = header?.pending !== undefined && header.pending.id !== answers ? header.pending : undefined;
        const merged: SessionInfo = {
          ...rest,
          title: header?.title || info.title,
          createdAt: header?.createdAt ?? info.createdAt,
          turnCount: count + 1,
          ...((header?.summarizedUpTo ?? 0) > (info.summarizedUpTo ?? 0) ? { summary: header?.summary, summarizedUpTo: header?.summarizedUpTo } : {}),
          // The stored question stays unless this turn answers it (another tab's turn may be running).
          ...(pending ? { pending } : {}),
        };
        await Promise.all([turns.put(saved), tx.objectStore('sessions').put(merged), tx.done]);
        this.writes.wrote(info.id, by);
        return { info: merged, turn: saved };
      } catch (error) {
        abandon(tx);
        throw error;
      }
    }, 'Could not save the turn');
  }

  /** Stores the running summary in the header as it is stored now (a pending question written since is kept). */
  async saveSummary(info: SessionInfo, summary: string, summarizedUpTo: number, by?: SessionWatch): Promise<SessionInfo> {
    return this.updateHeader(info, (header) => ({ ...header, summary, summarizedUpTo }), 'Could not save the session', by);
  }

  /**
   * Records the question of a turn that has started (`fresh` is the header of
   * a session not stored yet). A later question replaces an earlier one that
   * was never answered.
   */
  async markPending(fresh: SessionInfo, pending: PendingQuestion, by?: SessionWatch): Promise<void> {
    const title = fresh.title || pending.user.slice(0, 80);
    await this.updateHeader(fresh, (header) => ({ ...header, title: header.title || title, updatedAt: Math.max(header.updatedAt, pending.at), pending }), 'Could not save the question', by);
  }

  /** Removes the pending question if `id`'s turn wrote it (a stopped turn); returns the header. */
  async clearPending(fresh: SessionInfo, id: string, by?: SessionWatch): Promise<SessionInfo> {
    return this.updateHeader(fresh, (header) => (header.pending?.id === id ? withoutPending(header) : header), 'Could not save the session', by);
  }

  /** Read, change and write the header in one transaction, so two writers never lose each other's fields. */
  private async updateHeader(fresh: SessionInfo, change: (header: SessionInfo) => SessionInfo, message: string, by?: SessionWatch): Promise<SessionInfo> {
    return this.guard(async () => {
      const tx = this.db.transaction('sessions', 'readwrite', TX);
      try {
        const stored = await tx.store.get(fresh.id);
        const header = change(isSessionInfo(stored) ? withValidPending(stored) : withoutPending(fresh));
        await Promise.all([tx.store.put(header), tx.done]);
        this.writes.wrote(fresh.id, by);
        return header;
      } catch (error) {
        abandon(tx);
        throw error;
      }
    }, message);
  }

  /** Deletes the session's turns; with `keepSession`, keeps an empty header (reset). */
  async clear(id: string, keepSession: boolean, info?: SessionInfo, by?: SessionWatch): Promise<void> {
    await this.guard(async () => {
      const tx = this.db.transaction(['sessions', 'turns'], 'readwrite', TX);
      const ops: Promise<unknown>[] = [tx.objectStore('turns').delete(turnsOf(id))];
      ops.push(keepSession && info ? tx.objectStore('sessions').put(info) : tx.objectStore('sessions').delete(id));
      await Promise.all([...ops, tx.done]);
      this.writes.wrote(id, by);
    }, 'Could not clear the session');
  }

  /** Deletes every session of this name and their turns. */
  async clearAll(): Promise<void> {
    await this.guard(async () => {
      const tx = this.db.transaction(['sessions', 'turns'], 'readwrite', TX);
      await Promise.all([tx.objectStore('turns').clear(), tx.objectStore('sessions').clear(), tx.done]);
      this.writes.wrote(null);
    }, 'Could not delete the sessions');
  }

  private async guard<T>(work: () => Promise<T>, message: string): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw storageError(error, message);
    }
  }
}

/** Every turn record of session `id`. */
function turnsOf(id: string): IDBKeyRange {
  return IDBKeyRange.bound([id, 0], [id, Number.MAX_SAFE_INTEGER]);
}

/** Whether a record is the well-formed turn a caller marked, not another written at its index since. */
function isStoredAs(record: unknown, mark: TurnMark): record is StoredTurn {
  return isStoredTurn(record) && record.at === mark.at && record.user === mark.user;
}

/** The index part of a turn record's key (a record is stored under its own sessionId and index, well-formed or not). */
function recordIndex(record: unknown): number | undefined {
  const index = (record as { index?: unknown } | null | undefined)?.index;
  return typeof index === 'number' && Number.isSafeInteger(index) ? index : undefined;
}

function isStoredTurn(value: unknown): value is StoredTurn {
  const t = value as Partial<StoredTurn> | null;
  return typeof t === 'object' && t !== null && isText(t.sessionId) && Number.isInteger(t.index) && isText(t.user) && isText(t.assistant)
    && isText(t.mode) && Array.isArray(t.citations) && t.citations.every((c) => typeof c === 'object' && c !== null && Number.isInteger(c.n) && isText(c.docId) && isText(c.label));
}

/** A citation's chunk key is a hint: a malformed one (tampering, a future format) is dropped, the turn kept. */
function withValidChunkKeys(turn: StoredTurn): StoredTurn {
  if (turn.citations.every((c) => c.chunkKey === undefined || isSafeCount(c.chunkKey))) return turn;
  return { ...turn, citations: turn.citations.map(({ chunkKey, ...c }) => (isSafeCount(chunkKey) ? { ...c, chunkKey } : c)) };
}

/** A header whose pending question is malformed (tampering, a future format) is kept without it. */
function withValidPending(info: SessionInfo): SessionInfo {
  const p = info.pending as Partial<PendingQuestion> | undefined;
  const valid = p === undefined || (typeof p === 'object' && p !== null && isText(p.id) && isText(p.user) && p.user.trim() !== '' && typeof p.at === 'number');
  return valid ? info : withoutPending(info);
}

function withoutPending(info: SessionInfo): SessionInfo {
  const copy = { ...info };
  delete copy.pending;
  return copy;
}

function isSessionInfo(value: unknown): value is SessionInfo {
  const i = value as Partial<SessionInfo> | null;
  return typeof i === 'object' && i !== null && isText(i.id) && isText(i.title) && typeof i.createdAt === 'number' && typeof i.updatedAt === 'number';
}
