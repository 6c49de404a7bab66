/**
 * Exact cosine index over one contiguous matrix (rows normalized on insert).
 * Removal swaps the last row into the hole, so the matrix stays dense and a
 * scan reads memory strictly sequentially. Optionally keeps an int8 copy
 * (per-row scale) for a 4× smaller scan whose candidates are rescored in f32.
 * Scans run as WebAssembly SIMD where available (row-matrix.ts), else as JS.
 * Pure: no IO, no workers; runs in Node and in the browser.
 */
import { ThreadlineError } from '../errors';
import { f32Matrix, i8Matrix, type RowMatrix } from './row-matrix';
import { TopK, type Hit } from './top-k';
import { dotRow, isUnitSum, normalizeInPlace, sumOfSquares } from './vector-math';

export interface VectorIndexOptions {
  /** Keep an int8 copy for `search(..., { int8: true })`. @default false */
  int8?: boolean;
  /** Initial capacity in rows. @default 1024 */
  capacity?: number;
  /** Scan with WebAssembly SIMD when the runtime has it; `false` forces the JS scan. @default true */
  simd?: boolean;
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
  return isUnitSum(sumOfSquares(v, offset, length));
}

export class VectorIndex {
  private readonly f32: RowMatrix<Float32Array>;
  private readonly q8: RowMatrix<Int8Array> | null;
  private q8Scale: Float32Array | null;
  private rowKeys: Float64Array;
  private readonly rowOf = new Map<number, number>();
  private rows = 0;
  /** Row width of the f32 matrix (dims plus zero padding). */
  private readonly stride: number;

  constructor(readonly dims: number, options: VectorIndexOptions = {}) {
    if (!Number.isInteger(dims) || dims <= 0) throw new ThreadlineError('INVALID_INPUT', `dims must be a positive integer, got ${dims}`);
    const capacity = Math.max(1, options.capacity ?? 1024);
    const simd = options.simd ?? true;
    this.f32 = f32Matrix(dims, capacity, simd);
    this.stride = this.f32.stride;
    this.rowKeys = new Float64Array(capacity);
    this.q8 = options.int8 ? i8Matrix(dims, capacity, simd) : null;
    this.q8Scale = options.int8 ? new Float32Array(capacity) : null;
  }

  /** Whether scans run as WebAssembly SIMD. */
  get simd(): boolean {
    return this.f32.simd;
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

  /** Rows it holds without growing. */
  get capacity(): number {
    return this.rowKeys.length;
  }

  /**
   * Writes a zero into every memory page of the free rows, so the operating
   * system maps them now rather than during the copy that fills them: fresh
   * pages cost about 0.45 ms per MB to map (45 ms of a 100k × 384 hydrate),
   * and a hydrate calls this while IndexedDB is still reading, when the
   * thread has nothing else to do. Rows already held are not touched.
   */
  touch(): void {
    const touchFrom = <T extends Float32Array | Int8Array>(data: T, from: number, perPage: number) => {
      for (let i = from; i < data.length; i += perPage) data[i] = 0;
    };
    touchFrom(this.f32.data, this.rows * this.stride, 1024);
    if (this.q8) touchFrom(this.q8.data, this.rows * this.q8.stride, 4096);
  }

  /** Copy of the stored (normalized) vector for `key`, or undefined. */
  vector(key: number): Float32Array | undefined {
    const row = this.rowOf.get(key);
    return row === undefined ? undefined : this.f32.data.slice(row * this.stride, row * this.stride + this.dims);
  }

  /**
   * Adds rows from a packed `keys.length × dims` matrix; an existing key is replaced.
   * `unit[i] === 1` says row i was already measured as unit length (a hydrate's record
   * check computes every stored row's length anyway): it is not read again here.
   */
  add(keys: ArrayLike<number>, vectors: Float32Array, unit?: ArrayLike<number>): void {
    if (vectors.length !== keys.length * this.dims) {
      throw new ThreadlineError('INVALID_INPUT', `expected ${keys.length}×${this.dims} values, got ${vectors.length}`, {
        details: { dims: this.dims },
      });
    }
    this.reserve(this.rows + keys.length);
    const first = this.rows;
    const rowsOf = new Uint32Array(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as number;
      const row = this.rowOf.get(key) ?? this.rows++;
      this.rowOf.set(key, row);
      this.rowKeys[row] = key;
      rowsOf[i] = row;
    }
    const data = this.f32.data;
    // All new keys, in order, unpadded rows (a hydrate's runs): one copy instead of one per row.
    if (this.rows - first === keys.length && this.stride === this.dims) data.set(vectors, first * this.stride);
    else for (let i = 0; i < keys.length; i++) data.set(vectors.subarray(i * this.dims, (i + 1) * this.dims), (rowsOf[i] as number) * this.stride);
    for (let i = 0; i < keys.length; i++) {
      const row = rowsOf[i] as number;
      if (unit?.[i] !== 1 && !isUnit(data, row * this.stride, this.dims)) normalizeInPlace(data, row * this.stride, this.dims);
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
    // Normalized, and zero-padded to the row stride (dotRow and the kernels read whole rows).
    const q = new Float32Array(this.stride);
    q.set(query);
    normalizeInPlace(q, 0, this.dims);
    if (options.int8 && this.q8) return this.searchInt8(q, k, options);
    const top = new TopK(Math.min(k, this.rows));
    const allow = options.allow;
    const scores = this.f32.dots(q, this.rows);
    for (let row = 0; row < this.rows; row++) {
      const key = this.rowKeys[row] as number;
      if (allow && !allow(key)) continue;
      top.push(key, scores[row] as number);
    }
    return top.result();
  }

  private searchInt8(q: Float32Array, k: number, options: VectorSearchOptions): Hit[] {
    const scale = this.q8Scale as Float32Array;
    const candidates = new TopK(Math.min(this.rows, Math.max(k, k * (options.rescoreFactor ?? 4))));
    const scores = (this.q8 as RowMatrix<Int8Array>).dots(q, this.rows);
    for (let row = 0; row < this.rows; row++) {
      if (options.allow && !options.allow(this.rowKeys[row] as number)) continue;
      candidates.push(row, (scores[row] as number) * (scale[row] as number));
    }
    const exact = new TopK(Math.min(k, this.rows));
    for (const { key: row } of candidates.result()) exact.push(this.rowKeys[row] as number, dotRow(q, this.f32.data, row));
    return exact.result();
  }

  private quantizeRow(row: number): void {
    if (!this.q8 || !this.q8Scale) return;
    const base = row * this.stride;
    const data = this.f32.data;
    let max = 0;
    for (let d = 0; d < this.dims; d++) max = Math.max(max, Math.abs(data[base + d] as number));
    const scale = max > 0 ? max / 127 : 1;
    this.q8Scale[row] = scale;
    const q8 = this.q8.data;
    const q8Base = row * this.q8.stride;
    for (let d = 0; d < this.dims; d++) q8[q8Base + d] = Math.round((data[base + d] as number) / scale);
  }

  private moveRow(from: number, to: number): void {
    const key = this.rowKeys[from] as number;
    this.f32.data.copyWithin(to * this.stride, from * this.stride, (from + 1) * this.stride);
    if (this.q8 && this.q8Scale) {
      const width = this.q8.stride;
      this.q8.data.copyWithin(to * width, from * width, (from + 1) * width);
      this.q8Scale[to] = this.q8Scale[from] as number;
    }
    this.rowKeys[to] = key;
    this.rowOf.set(key, to);
  }

  private reserve(rows: number): void {
    const capacity = this.rowKeys.length;
    if (rows <= capacity) return;
    const next = Math.max(rows, Math.ceil(capacity * 1.5));
    this.f32.reserve(next);
    this.q8?.reserve(next);
    const grow = (old: Float32Array | Float64Array, fresh: Float32Array | Float64Array) => { fresh.set(old.subarray(0, this.rows)); return fresh; };
    this.rowKeys = grow(this.rowKeys, new Float64Array(next)) as Float64Array;
    if (this.q8Scale) this.q8Scale = grow(this.q8Scale, new Float32Array(next)) as Float32Array;
  }
}
