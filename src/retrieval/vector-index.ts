/**
 * Exact cosine index over one contiguous Float32Array (rows normalized on
 * insert). Removal swaps the last row into the hole, so the matrix stays dense
 * and a scan reads memory strictly sequentially. Optionally keeps an int8 copy
 * (per-row scale) for a 4× smaller scan whose candidates are rescored in f32.
 * Pure: no IO, no workers; runs in Node and in the browser.
 */
import { ThreadlineError } from '../errors';
import { TopK, type Hit } from './top-k';
import { dotRow, normalizeInPlace } from './vector-math';

export interface VectorIndexOptions {
  /** Keep an int8 copy for `search(..., { int8: true })`. @default false */
  int8?: boolean;
  /** Initial capacity in rows. @default 1024 */
  capacity?: number;
}

export interface VectorSearchOptions {
  /** Only keys for which this returns true are ranked. */
  allow?: (key: number) => boolean;
  /** Scan the int8 copy, then rescore `k × rescoreFactor` candidates in f32. */
  int8?: boolean;
  /** @default 4 */
  rescoreFactor?: number;
}

/** Unit length within float rounding (cheaper than normalizing again, and exact rows stay bit-identical). */
function isUnit(v: Float32Array, offset: number, length: number): boolean {
  let sum = 0;
  for (let i = offset; i < offset + length; i++) sum += (v[i] as number) * (v[i] as number);
  return Math.abs(sum - 1) < 1e-5;
}

export class VectorIndex {
  private data: Float32Array;
  private q8: Int8Array | null;
  private q8Scale: Float32Array | null;
  private rowKeys: Float64Array;
  private readonly rowOf = new Map<number, number>();
  private rows = 0;

  constructor(readonly dims: number, options: VectorIndexOptions = {}) {
    if (!Number.isInteger(dims) || dims <= 0) throw new ThreadlineError('INVALID_INPUT', `dims must be a positive integer, got ${dims}`);
    const capacity = Math.max(1, options.capacity ?? 1024);
    this.data = new Float32Array(capacity * dims);
    this.rowKeys = new Float64Array(capacity);
    this.q8 = options.int8 ? new Int8Array(capacity * dims) : null;
    this.q8Scale = options.int8 ? new Float32Array(capacity) : null;
  }

  get size(): number {
    return this.rows;
  }

  has(key: number): boolean {
    return this.rowOf.has(key);
  }

  keys(): number[] {
    return Array.from(this.rowKeys.subarray(0, this.rows));
  }

  /** Copy of the stored (normalized) vector for `key`, or undefined. */
  vector(key: number): Float32Array | undefined {
    const row = this.rowOf.get(key);
    return row === undefined ? undefined : this.data.slice(row * this.dims, (row + 1) * this.dims);
  }

  /** Adds rows from a packed `keys.length × dims` matrix; an existing key is replaced. */
  add(keys: ArrayLike<number>, vectors: Float32Array): void {
    if (vectors.length !== keys.length * this.dims) {
      throw new ThreadlineError('INVALID_INPUT', `expected ${keys.length}×${this.dims} values, got ${vectors.length}`, {
        details: { dims: this.dims },
      });
    }
    this.reserve(this.rows + keys.length);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as number;
      const row = this.rowOf.get(key) ?? this.rows++;
      this.rowOf.set(key, row);
      this.rowKeys[row] = key;
      this.data.set(vectors.subarray(i * this.dims, (i + 1) * this.dims), row * this.dims);
      if (!isUnit(this.data, row * this.dims, this.dims)) normalizeInPlace(this.data, row * this.dims, this.dims);
      this.quantizeRow(row);
    }
  }

  /** Removes keys (unknown keys are ignored); returns how many were removed. */
  remove(keys: Iterable<number>): number {
    let removed = 0;
    for (const key of keys) {
      const row = this.rowOf.get(key);
      if (row === undefined) continue;
      const last = --this.rows;
      if (row !== last) this.moveRow(last, row);
      this.rowOf.delete(key);
      removed++;
    }
    return removed;
  }

  clear(): void {
    this.rows = 0;
    this.rowOf.clear();
  }

  /** Exact top-k by cosine (the query is normalized here). */
  search(query: Float32Array, k: number, options: VectorSearchOptions = {}): Hit[] {
    if (query.length !== this.dims) {
      throw new ThreadlineError('INVALID_INPUT', `query has ${query.length} dims, index has ${this.dims}`);
    }
    const q = normalizeInPlace(Float32Array.from(query));
    if (options.int8 && this.q8) return this.searchInt8(q, k, options);
    const top = new TopK(Math.min(k, this.rows));
    const allow = options.allow;
    for (let row = 0; row < this.rows; row++) {
      const key = this.rowKeys[row] as number;
      if (allow && !allow(key)) continue;
      top.push(key, dotRow(q, this.data, row));
    }
    return top.result();
  }

  private searchInt8(q: Float32Array, k: number, options: VectorSearchOptions): Hit[] {
    const q8 = this.q8 as Int8Array;
    const scale = this.q8Scale as Float32Array;
    const dims = this.dims;
    const candidates = new TopK(Math.min(this.rows, Math.max(k, k * (options.rescoreFactor ?? 4))));
    for (let row = 0; row < this.rows; row++) {
      const key = this.rowKeys[row] as number;
      if (options.allow && !options.allow(key)) continue;
      // Same unrolled shape as dotRow, over Int8Array: kept separate so each hot loop stays monomorphic in V8.
      const base = row * dims;
      let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      let d = 0;
      for (; d + 3 < dims; d += 4) {
        s0 += (q[d] as number) * (q8[base + d] as number);
        s1 += (q[d + 1] as number) * (q8[base + d + 1] as number);
        s2 += (q[d + 2] as number) * (q8[base + d + 2] as number);
        s3 += (q[d + 3] as number) * (q8[base + d + 3] as number);
      }
      for (; d < dims; d++) s0 += (q[d] as number) * (q8[base + d] as number);
      candidates.push(row, (s0 + s1 + s2 + s3) * (scale[row] as number));
    }
    const exact = new TopK(Math.min(k, this.rows));
    for (const { key: row } of candidates.result()) exact.push(this.rowKeys[row] as number, dotRow(q, this.data, row));
    return exact.result();
  }

  private quantizeRow(row: number): void {
    if (!this.q8 || !this.q8Scale) return;
    const base = row * this.dims;
    let max = 0;
    for (let d = 0; d < this.dims; d++) max = Math.max(max, Math.abs(this.data[base + d] as number));
    const scale = max > 0 ? max / 127 : 1;
    this.q8Scale[row] = scale;
    for (let d = 0; d < this.dims; d++) this.q8[base + d] = Math.round((this.data[base + d] as number) / scale);
  }

  private moveRow(from: number, to: number): void {
    const key = this.rowKeys[from] as number;
    this.data.copyWithin(to * this.dims, from * this.dims, (from + 1) * this.dims);
    if (this.q8 && this.q8Scale) {
      this.q8.copyWithin(to * this.dims, from * this.dims, (from + 1) * this.dims);
      this.q8Scale[to] = this.q8Scale[from] as number;
    }
    this.rowKeys[to] = key;
    this.rowOf.set(key, to);
  }

  private reserve(rows: number): void {
    const capacity = this.rowKeys.length;
    if (rows <= capacity) return;
    const next = Math.max(rows, Math.ceil(capacity * 1.5));
    const grow = <T extends Float32Array | Int8Array | Float64Array>(old: T, make: (n: number) => T, width: number): T => {
      const fresh = make(next * width);
      // Same element type on both sides; TypeScript cannot relate the generic subarray to set's parameter.
      (fresh as { set(a: ArrayLike<number>): void }).set(old.subarray(0, this.rows * width));
      return fresh;
    };
    this.data = grow(this.data, (n) => new Float32Array(n), this.dims);
    this.rowKeys = grow(this.rowKeys, (n) => new Float64Array(n), 1);
    if (this.q8) this.q8 = grow(this.q8, (n) => new Int8Array(n), this.dims);
    if (this.q8Scale) this.q8Scale = grow(this.q8Scale, (n) => new Float32Array(n), 1);
  }
}
