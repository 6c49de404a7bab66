/**
 * The exact scan's hot loops as WebAssembly SIMD: dot products of one query
 * with every row of a matrix, f32 (f32x4 multiply-add, four accumulators) and
 * int8 (i8 → i16 widening, i32x4.dot_i16x8_s). The module is assembled here
 * from its instructions (a few hundred bytes), so there is no toolchain and
 * no opaque binary in the repository. Rows are padded by the caller: f32 rows
 * to a multiple of 64 bytes, int8 rows to a multiple of 32 bytes.
 *
 * Exports, each (query, base, rows, rowBytes, out) → () writing `rows` f32 scores at `out`:
 *   dots_f32: query is rowBytes/4 f32 values
 *   dots_i8:  query is rowBytes i16 values (the f32 query scaled and rounded)
 * and sum_f32(base, bytes) → f32: the SIMD memory-read floor for benchmarks.
 */

const leb = (value: number): number[] => {
  const out: number[] = [];
  let v = value >>> 0;
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    out.push(byte);
  } while (v !== 0);
  return out;
};
const vec = (items: number[][]): number[] => [...leb(items.length), ...items.flat()];
const name = (s: string): number[] => [...leb(s.length), ...Array.from(s, (c) => c.charCodeAt(0))];
const section = (id: number, body: number[]): number[] => [id, ...leb(body.length), ...body];

const I32 = 0x7f, F32 = 0x7d, V128 = 0x7b, VOID = 0x40;
const op = {
  block: [0x02, VOID], loop: [0x03, VOID], end: [0x0b], br: (d: number) => [0x0c, d], brIf: (d: number) => [0x0d, d],
  get: (i: number) => [0x20, i], set: (i: number) => [0x21, i], tee: (i: number) => [0x22, i],
  i32: (n: number) => [0x41, ...signedLeb(n)], add: [0x6a], mul: [0x6c], shl: [0x74], geU: [0x4f],
  f32Add: [0x92], f32Store: [0x38, 2, 0], f32FromI32: [0xb2],
  load: (offset: number) => [0xfd, 0x00, 4, ...leb(offset)],
  zero: [0xfd, 0x0c, ...new Array<number>(16).fill(0)],
  f32x4Add: [0xfd, ...leb(0xe4)], f32x4Mul: [0xfd, ...leb(0xe6)], f32Lane: (l: number) => [0xfd, 0x1f, l],
  i32x4Add: [0xfd, ...leb(0xae)], dotI16: [0xfd, ...leb(0xba)], i32Lane: (l: number) => [0xfd, 0x1b, l],
  extendLow: [0xfd, ...leb(0x87)], extendHigh: [0xfd, ...leb(0x88)],
};

function signedLeb(value: number): number[] {
  const out: number[] = [];
  let v = value | 0;
  for (;;) {
    const byte = v & 0x7f;
    v >>= 7;
    const done = (v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

// Parameters and locals shared by both dot kernels.
const [Q, BASE, ROWS, ROW_BYTES, OUT, R, J, P] = [0, 1, 2, 3, 4, 5, 6, 7];
const ACC = [8, 9, 10, 11];

/** Loops over rows; `inner` is the per-row column loop, `finish` leaves the row's f32 score on the stack. */
function rowLoop(inner: number[], finish: number[]): number[] {
  return [
    ...op.i32(0), ...op.set(R),
    ...op.block, ...op.loop,
    ...op.get(R), ...op.get(ROWS), ...op.geU, ...op.brIf(1),
    ...ACC.flatMap((a) => [...op.zero, ...op.set(a)]),
    ...op.get(BASE), ...op.get(R), ...op.get(ROW_BYTES), ...op.mul, ...op.add, ...op.set(P),
    ...op.i32(0), ...op.set(J),
    ...op.block, ...op.loop,
    ...op.get(J), ...op.get(ROW_BYTES), ...op.geU, ...op.brIf(1),
    ...inner,
    ...op.br(0), ...op.end, ...op.end,
    // out[r] = finish
    ...op.get(OUT), ...op.get(R), ...op.i32(2), ...op.shl, ...op.add,
    ...finish,
    ...op.f32Store,
    ...op.get(R), ...op.i32(1), ...op.add, ...op.set(R),
    ...op.br(0), ...op.end, ...op.end,
  ];
}

/** acc[i] += row[p + j + 16i] * q[j + 16i] for i in 0..3; j += 64. */
const f32Inner = [
  ...ACC.flatMap((acc, i) => [
    ...op.get(acc),
    ...op.get(P), ...op.get(J), ...op.add, ...op.load(16 * i),
    ...op.get(Q), ...op.get(J), ...op.add, ...op.load(16 * i),
    ...op.f32x4Mul, ...op.f32x4Add, ...op.set(acc),
  ]),
  ...op.get(J), ...op.i32(64), ...op.add, ...op.set(J),
];
const f32Finish = [
  ...op.get(ACC[0] as number), ...op.get(ACC[1] as number), ...op.f32x4Add,
  ...op.get(ACC[2] as number), ...op.get(ACC[3] as number), ...op.f32x4Add, ...op.f32x4Add, ...op.tee(ACC[0] as number),
  ...op.f32Lane(0), ...op.get(ACC[0] as number), ...op.f32Lane(1), ...op.f32Add,
  ...op.get(ACC[0] as number), ...op.f32Lane(2), ...op.f32Add, ...op.get(ACC[0] as number), ...op.f32Lane(3), ...op.f32Add,
];

/** Two 16-byte int8 loads per step, each widened to two i16x8 halves and dotted with the i16 query (at q + 2j). */
const i8Inner = [
  ...[0, 1].flatMap((half) => [
    ...op.get(ACC[2 * half] as number),
    ...op.get(P), ...op.get(J), ...op.add, ...op.load(16 * half), ...op.extendLow,
    ...op.get(Q), ...op.get(J), ...op.i32(1), ...op.shl, ...op.add, ...op.load(32 * half),
    ...op.dotI16, ...op.i32x4Add, ...op.set(ACC[2 * half] as number),
    ...op.get(ACC[2 * half + 1] as number),
    ...op.get(P), ...op.get(J), ...op.add, ...op.load(16 * half), ...op.extendHigh,
    ...op.get(Q), ...op.get(J), ...op.i32(1), ...op.shl, ...op.add, ...op.load(32 * half + 16),
    ...op.dotI16, ...op.i32x4Add, ...op.set(ACC[2 * half + 1] as number),
  ]),
  ...op.get(J), ...op.i32(32), ...op.add, ...op.set(J),
];
const i8Finish = [
  ...op.get(ACC[0] as number), ...op.get(ACC[1] as number), ...op.i32x4Add,
  ...op.get(ACC[2] as number), ...op.get(ACC[3] as number), ...op.i32x4Add, ...op.i32x4Add, ...op.tee(ACC[0] as number),
  ...op.i32Lane(0), ...op.get(ACC[0] as number), ...op.i32Lane(1), ...op.add,
  ...op.get(ACC[0] as number), ...op.i32Lane(2), ...op.add, ...op.get(ACC[0] as number), ...op.i32Lane(3), ...op.add,
  ...op.f32FromI32,
];

/** sum_f32(base, bytes): four f32x4 accumulators over the bytes (a multiple of 64), summed. */
const sumBody = [
  ...op.i32(0), ...op.set(2),
  ...[3, 4, 5, 6].flatMap((a) => [...op.zero, ...op.set(a)]),
  ...op.block, ...op.loop,
  ...op.get(2), ...op.get(1), ...op.geU, ...op.brIf(1),
  ...[3, 4, 5, 6].flatMap((acc, i) => [...op.get(acc), ...op.get(0), ...op.get(2), ...op.add, ...op.load(16 * i), ...op.f32x4Add, ...op.set(acc)]),
  ...op.get(2), ...op.i32(64), ...op.add, ...op.set(2),
  ...op.br(0), ...op.end, ...op.end,
  ...op.get(3), ...op.get(4), ...op.f32x4Add, ...op.get(5), ...op.get(6), ...op.f32x4Add, ...op.f32x4Add, ...op.tee(3),
  ...op.f32Lane(0), ...op.get(3), ...op.f32Lane(1), ...op.f32Add, ...op.get(3), ...op.f32Lane(2), ...op.f32Add, ...op.get(3), ...op.f32Lane(3), ...op.f32Add,
];

function code(locals: [number, number][], body: number[]): number[] {
  const bytes = [...vec(locals.map(([count, type]) => [...leb(count), type])), ...body, ...op.end];
  return [...leb(bytes.length), ...bytes];
}

/** The module's bytes: imports env.memory, exports dots_f32, dots_i8, sum_f32. */
export function kernelModuleBytes(): Uint8Array<ArrayBuffer> {
  const dotType = [0x60, ...vec([[I32], [I32], [I32], [I32], [I32]]), ...vec([])];
  const sumType = [0x60, ...vec([[I32], [I32]]), ...vec([[F32]])];
  const dotLocals: [number, number][] = [[3, I32], [4, V128]];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec([dotType, sumType])),
    ...section(2, vec([[...name('env'), ...name('memory'), 0x02, 0x00, ...leb(1)]])),
    ...section(3, vec([[0], [0], [1]])),
    ...section(7, vec([[...name('dots_f32'), 0x00, 0], [...name('dots_i8'), 0x00, 1], [...name('sum_f32'), 0x00, 2]])),
    ...section(10, vec([
      code(dotLocals, rowLoop(f32Inner, f32Finish)),
      code(dotLocals, rowLoop(i8Inner, i8Finish)),
      code([[1, I32], [4, V128]], sumBody),
    ])),
  ]);
}

export interface KernelExports {
  dots_f32(query: number, base: number, rows: number, rowBytes: number, out: number): void;
  dots_i8(query: number, base: number, rows: number, rowBytes: number, out: number): void;
  sum_f32(base: number, bytes: number): number;
}

let compiled: WebAssembly.Module | null | undefined;

/** The compiled module, or null where WebAssembly SIMD is unavailable (the JS scan is used then). */
export function kernelModule(): WebAssembly.Module | null {
  if (compiled !== undefined) return compiled;
  try {
    const bytes = kernelModuleBytes();
    compiled = typeof WebAssembly === 'object' && WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
  } catch {
    compiled = null;
  }
  return compiled;
}

/** Instantiates the kernels over `memory` (synchronous: the module is a few hundred bytes). */
export function instantiateKernels(memory: WebAssembly.Memory): KernelExports | null {
  const module = kernelModule();
  if (!module) return null;
  return new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as KernelExports;
}
