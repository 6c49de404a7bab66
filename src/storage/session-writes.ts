/**
 * Which stored sessions were written since a chat last read them, so a turn
 * reads its session again only when something else wrote it (another chat of
 * this page, another tab). Every turn used to read it: on the example page that
 * read cost the first question after a reload 8.4 ms of its 28 (later ones 3.4 ms).
 *
 * Each session has a write count: this page's writes add one as they commit,
 * and other pages' writes add one when their message arrives on a
 * BroadcastChannel named after the database (each write posts one after
 * committing). A chat that read at count n, and whose own writes were the only
 * ones since, sees the count its own write left and reads nothing. Without
 * BroadcastChannel, or when a message cannot be posted, every turn reads, as
 * before. A page that writes the database without posting (an older threadline
 * in another tab, the browser's developer tools) is seen at the next write that
 * posts, or the next reload.
 */

/** The message other pages post: the session written, or `null` for all of them (a clearAll). */
interface WriteMessage { threadlineSessionWrite: string | null }

export class SessionWrites {
  private readonly counts = new Map<string, number>();
  /** Writes to every session at once (clearAll, and messages that name none). */
  private all = 0;
  private readonly channel: BroadcastChannel | null;

  constructor(channelName: string) {
    this.channel = openChannel(channelName);
    this.channel?.addEventListener('message', (event) => {
      const id = (event.data as Partial<WriteMessage> | null)?.threadlineSessionWrite;
      if (typeof id === 'string') this.counts.set(id, (this.counts.get(id) ?? 0) + 1);
      else this.all++;
    });
  }

  /** The session's write count; null where other pages' writes cannot be heard (then every read is needed). */
  count(id: string): number | null {
    return this.channel ? (this.counts.get(id) ?? 0) + this.all : null;
  }

  /**
   * A write of this page committed (`id` null: every session). `by`, the chat that wrote it, stays current when
   * its last read had seen every write before this one.
   */
  wrote(id: string | null, by?: SessionWatch): void {
    const before = id === null ? null : this.count(id);
    if (id === null) this.all++;
    else this.counts.set(id, (this.counts.get(id) ?? 0) + 1);
    if (by && before !== null && by.seen === before) by.seen = this.count(by.id);
    try {
      this.channel?.postMessage({ threadlineSessionWrite: id } satisfies WriteMessage);
    } catch {
      // A closed channel (the store was closed): other pages read at their next turn whatever happens.
    }
  }

  /** A watch over one session's writes, current as of now. */
  watch(id: string): SessionWatch {
    return new SessionWatch(this, id);
  }

  close(): void {
    this.channel?.close();
  }
}

/** One chat's view of its session: whether anything it has not read was written since its last read. */
export class SessionWatch {
  /** The write count its last read saw (null: unknown, read next time). */
  seen: number | null;

  constructor(private readonly writes: SessionWrites, readonly id: string) {
    this.seen = writes.count(id);
  }

  /** Whether the session may hold writes this chat has not read. */
  get stale(): boolean {
    const now = this.writes.count(this.id);
    return now === null || now !== this.seen;
  }

  /** Called as a read of the whole session starts: writes committed after this make it stale again. */
  reading(): void {
    this.seen = this.writes.count(this.id);
  }

  /** The read did not finish: read at the next turn. */
  unread(): void {
    this.seen = null;
  }
}

function openChannel(name: string): BroadcastChannel | null {
  if (typeof BroadcastChannel !== 'function') return null;
  try {
    const channel = new BroadcastChannel(name);
    // In Node, an open channel would keep the process alive; in browsers there is no unref.
    (channel as BroadcastChannel & { unref?: () => void }).unref?.();
    return channel;
  } catch {
    return null;
  }
}
