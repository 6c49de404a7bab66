/**
 * Where the index's rows live and how a query is dotted with all of them.
 * With WebAssembly SIMD (every current browser, Node 16+) rows sit in a
 * WebAssembly.Memory, padded for the kernels in simd-kernels.ts; otherwise
 * in plain typed arrays scanned by unrolled JS loops. Both give the same
 * scores up to float summation order.
 */
import { ThreadlineError } from '../errors';
import { instantiateKernels, type KernelExports } from './simd-kernels';
import { dotRow } from './vector-math';

export interface RowMatrix<T extends Float32Array | Int8Array> {
  /** Elements per row (dims, plus zero padding for the SIMD kernels). */
  readonly stride: number;
  readonly simd: boolean;
  /** The rows, `capacity × stride`; a new view after every `reserve` that grows. */
  readonly data: T;
  /** Makes room for `rows` rows, keeping the existing ones. */
  reserve(rows: number): void;
  /**
   * Dot products of `query` (its first `dims` values count) with rows [0, rows).
   * The returned view is valid until the next call.
   */
  dots(query: Float32Array, rows: number): Float32Array;
}

const PAGE = 65_536;
const align = (n: number, to: number) => Math.ceil(n / to) * to;

/** One WebAssembly.Memory laid out as [query | rows | scores]; rows stay in place when it grows. */
class WasmRows {
  readonly dataOffset: number;
  capacity = 0;

  private constructor(readonly memory: WebAssembly.Memory, readonly kernels: KernelExports, readonly rowBytes: number, queryBytes: number) {
    this.dataOffset = align(queryBytes, 64);
  }

  /** Null where WebAssembly SIMD is unavailable. */
  static create(rowBytes: number, queryBytes: number): WasmRows | null {
    if (typeof WebAssembly !== 'object') return null;
    const memory = new WebAssembly.Memory({ initial: 1 });
    const kernels = instantiateKernels(memory);
    return kernels ? new WasmRows(memory, kernels, rowBytes, queryBytes) : null;
  }

  get outOffset(): number {
    return this.dataOffset + this.capacity * this.rowBytes;
  }

  grow(rows: number): boolean {
    if (rows <= this.capacity) return false;
    const needed = this.dataOffset + rows * (this.rowBytes + 4);
    const pages = Math.ceil(needed / PAGE) - this.memory.buffer.byteLength / PAGE;
    try {
      if (pages > 0) this.memory.grow(pages);
    } catch (error) {
      throw new ThreadlineError('OUT_OF_MEMORY', `The vector index cannot grow to ${rows} rows (${Math.round(needed / 1e6)} MB of WebAssembly memory).`, { cause: error });
    }
    this.capacity = rows;
    return true;
  }
}

class SimdF32Matrix implements RowMatrix<Float32Array> {
  readonly simd = true;
  readonly stride: number;
  data: Float32Array;

  constructor(private readonly dims: number, capacity: number, private readonly rows: WasmRows) {
    this.stride = rows.rowBytes / 4;
    this.rows.grow(capacity);
    this.data = this.view();
  }

  reserve(rows: number): void {
    if (this.rows.grow(rows)) this.data = this.view();
  }

  dots(query: Float32Array, rows: number): Float32Array {
    const buffer = this.rows.memory.buffer;
    const q = new Float32Array(buffer, 0, this.stride);
    q.set(query.subarray(0, this.dims));
    q.fill(0, this.dims);
    this.rows.kernels.dots_f32(0, this.rows.dataOffset, rows, this.stride * 4, this.rows.outOffset);
    return new Float32Array(buffer, this.rows.outOffset, rows);
  }

  private view(): Float32Array {
    return new Float32Array(this.rows.memory.buffer, this.rows.dataOffset, this.rows.capacity * this.stride);
  }
}

class SimdI8Matrix implements RowMatrix<Int8Array> {
  readonly simd = true;
  readonly stride: number;
  data: Int8Array;
  /** Largest i16 query value such that no i32 sum can overflow: stride × 127 × qMax < 2³¹. */
  private readonly qMax: number;

  constructor(private readonly dims: number, capacity: number, private readonly rows: WasmRows) {
    this.stride = rows.rowBytes;
    this.rows.grow(capacity);
    this.data = this.view();
    this.qMax = Math.min(32_767, Math.floor((2 ** 31 - 1) / (127 * this.stride)));
  }

  reserve(rows: number): void {
    if (this.rows.grow(rows)) this.data = this.view();
  }

  dots(query: Float32Array, rows: number): Float32Array {
    const buffer = this.rows.memory.buffer;
    let max = 0;
    for (let d = 0; d < this.dims; d++) max = Math.max(max, Math.abs(query[d] as number));
    const scale = max > 0 ? this.qMax / max : 1;
    const q = new Int16Array(buffer, 0, this.stride);
    for (let d = 0; d < this.dims; d++) q[d] = Math.round((query[d] as number) * scale);
    q.fill(0, this.dims);
    this.rows.kernels.dots_i8(0, this.rows.dataOffset, rows, this.stride, this.rows.outOffset);
    const out = new Float32Array(buffer, this.rows.outOffset, rows);
    const inverse = 1 / scale;
    for (let i = 0; i < rows; i++) out[i] = (out[i] as number) * inverse;
    return out;
  }

  private view(): Int8Array {
    return new Int8Array(this.rows.memory.buffer, this.rows.dataOffset, this.rows.capacity * this.stride);
  }
}

/** Plain typed arrays, grown by copying; scores from dotRow's unrolled loop. */
class JsMatrix<T extends Float32Array | Int8Array> implements RowMatrix<T> {
  readonly simd = false;
  data: T;
  private out = new Float32Array(0);

  constructor(readonly stride: number, capacity: number, private readonly make: (n: number) => T) {
    this.data = make(capacity * stride);
  }

  reserve(rows: number): void {
    if (rows * this.stride <= this.data.length) return;
    const fresh = this.make(rows * this.stride);
    (fresh as { set(a: ArrayLike<number>): void }).set(this.data);
    this.data = fresh;
  }

  dots(query: Float32Array, rows: number): Float32Array {
    if (this.out.length < rows) this.out = new Float32Array(Math.max(rows, this.out.length * 2));
    for (let row = 0; row < rows; row++) this.out[row] = dotRow(query, this.data, row);
    return this.out.subarray(0, rows);
  }
}

export function f32Matrix(dims: number, capacity: number, simd: boolean): RowMatrix<Float32Array> {
  const rows = simd ? WasmRows.create(align(dims, 16) * 4, align(dims, 16) * 4) : null; // 64-byte rows: four f32x4 per kernel step
  return rows ? new SimdF32Matrix(dims, capacity, rows) : new JsMatrix(dims, capacity, (n) => new Float32Array(n));
}

export function i8Matrix(dims: number, capacity: number, simd: boolean): RowMatrix<Int8Array> {
  const rows = simd ? WasmRows.create(align(dims, 32), align(dims, 32) * 2) : null; // two 16-byte loads per kernel step; i16 query
  return rows ? new SimdI8Matrix(dims, capacity, rows) : new JsMatrix(dims, capacity, (n) => new Int8Array(n));
}
