/**
 * When to refresh after another tab changed the index. Notices arrive once
 * per commit (an ingest in another tab sends one every few hundred
 * milliseconds), and a refresh reads the whole index, which also holds up that
 * tab's next write transaction. So notices are debounced: the refresh runs
 * once the other tab has been quiet for QUIET_MS, or MAX_WAIT_MS after the
 * first notice, whichever comes first; at most one is pending at a time.
 */

/** A refresh waits until another tab's commits pause this long… */
const QUIET_MS = 150;
/** …but never longer than this after the first notice: another tab sees a change within about a second. */
const MAX_WAIT_MS = 1_000;

export class RefreshScheduler {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private firstNotice: number | null = null;

  /** `current` is the generation memory holds; `run` queues the refresh (it re-checks the store when its turn comes). */
  constructor(private readonly current: () => number, private readonly run: () => void) {}

  notice(generation: number): void {
    if (generation <= this.current()) return;
    const now = performance.now();
    this.firstNotice ??= now;
    if (this.timer !== null) clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(QUIET_MS, this.firstNotice + MAX_WAIT_MS - now));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.firstNotice = null;
      this.run();
    }, wait);
  }

  cancel(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
