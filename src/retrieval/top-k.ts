/**
 * Exact top-k by partial selection: a size-k min-heap over (score, key), so a
 * scan of n items costs O(n log k) and never sorts the whole list. Ties break
 * on the smaller key, which keeps every ranking deterministic.
 */
export interface Hit {
  key: number;
  score: number;
}

/** True when a ranks below b (lower score, or equal score and larger key). */
function worse(aScore: number, aKey: number, bScore: number, bKey: number): boolean {
  return aScore < bScore || (aScore === bScore && aKey > bKey);
}

export class TopK {
  private readonly scores: Float64Array;
  private readonly keys: Float64Array;
  private count = 0;

  constructor(readonly k: number) {
    this.scores = new Float64Array(Math.max(0, k));
    this.keys = new Float64Array(Math.max(0, k));
  }

  /** Smallest score that can still enter, -Infinity while not full. */
  get threshold(): number {
    return this.count < this.k ? -Infinity : (this.scores[0] ?? -Infinity);
  }

  push(key: number, score: number): void {
    if (this.k <= 0 || Number.isNaN(score)) return;
    if (this.count < this.k) {
      this.scores[this.count] = score;
      this.keys[this.count] = key;
      this.siftUp(this.count++);
    } else if (worse(this.scores[0] ?? 0, this.keys[0] ?? 0, score, key)) {
      this.scores[0] = score;
      this.keys[0] = key;
      this.siftDown(0);
    }
  }

  /** The kept hits, best first. */
  result(): Hit[] {
    const out: Hit[] = [];
    for (let i = 0; i < this.count; i++) out.push({ key: this.keys[i] ?? 0, score: this.scores[i] ?? 0 });
    return out.sort((a, b) => b.score - a.score || a.key - b.key);
  }

  private swap(i: number, j: number): void {
    const s = this.scores[i] ?? 0; this.scores[i] = this.scores[j] ?? 0; this.scores[j] = s;
    const k = this.keys[i] ?? 0; this.keys[i] = this.keys[j] ?? 0; this.keys[j] = k;
  }

  private below(i: number, j: number): boolean {
    return worse(this.scores[i] ?? 0, this.keys[i] ?? 0, this.scores[j] ?? 0, this.keys[j] ?? 0);
  }

  private siftUp(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.below(i, parent)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private siftDown(i: number): void {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.count && this.below(l, m)) m = l;
      if (r < this.count && this.below(r, m)) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }
}
