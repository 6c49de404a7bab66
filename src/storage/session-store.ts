/**
 * Chat sessions in IndexedDB (`threadline:<name>:sessions`). One record per
 * turn, so appending never rewrites the conversation; a turn and its session
 * header are written in one strict transaction. Only the user's own words and
 * the answers are kept: never rewritten questions, never retrieved chunks.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { storageError } from './storage-errors';

export interface StoredCitation { n: number; docId: string; label: string; url?: string }

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
}

interface SessionDB extends DBSchema {
  sessions: { key: string; value: SessionInfo; indexes: { byUpdated: number } };
  turns: { key: [string, number]; value: StoredTurn };
}

const SESSION_SCHEMA_VERSION = 1;
const TX = { durability: 'strict' } as const;

export class SessionStore {
  private constructor(private readonly db: IDBPDatabase<SessionDB>) {}

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
    this.db.close();
  }

  async list(): Promise<SessionInfo[]> {
    return this.guard(async () => (await this.db.getAllFromIndex('sessions', 'byUpdated')).reverse(), 'Could not list sessions');
  }

  async load(id: string): Promise<{ info: SessionInfo | undefined; turns: StoredTurn[] }> {
    return this.guard(async () => {
      const tx = this.db.transaction(['sessions', 'turns'], 'readonly');
      const [info, turns] = await Promise.all([
        tx.objectStore('sessions').get(id),
        tx.objectStore('turns').getAll(IDBKeyRange.bound([id, 0], [id, Number.MAX_SAFE_INTEGER])),
      ]);
      return { info, turns };
    }, 'Could not load the session');
  }

  async append(info: SessionInfo, turn: StoredTurn): Promise<void> {
    await this.guard(async () => {
      const tx = this.db.transaction(['sessions', 'turns'], 'readwrite', TX);
      await Promise.all([tx.objectStore('turns').put(turn), tx.objectStore('sessions').put(info), tx.done]);
    }, 'Could not save the turn');
  }

  async saveInfo(info: SessionInfo): Promise<void> {
    await this.guard(() => this.db.put('sessions', info).then(() => undefined), 'Could not save the session');
  }

  /** Deletes the session's turns; with `keepSession`, keeps an empty header (reset). */
  async clear(id: string, keepSession: boolean, info?: SessionInfo): Promise<void> {
    await this.guard(async () => {
      const tx = this.db.transaction(['sessions', 'turns'], 'readwrite', TX);
      const ops: Promise<unknown>[] = [tx.objectStore('turns').delete(IDBKeyRange.bound([id, 0], [id, Number.MAX_SAFE_INTEGER]))];
      ops.push(keepSession && info ? tx.objectStore('sessions').put(info) : tx.objectStore('sessions').delete(id));
      await Promise.all([...ops, tx.done]);
    }, 'Could not clear the session');
  }

  private async guard<T>(work: () => Promise<T>, message: string): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw storageError(error, message);
    }
  }
}
