/**
 * Writes a BERT sentence encoder's ONNX graph with seeded random weights: the
 * cost of a transformer embedding model, not its quality. No transformer
 * weights can be had on the machines that build and test threadline, and the
 * ingest benchmark needs an embedder that costs what the models users pick
 * from the hub cost (all-MiniLM-L6-v2 is the design's example: 6 layers,
 * hidden 384, 12 heads, FFN 1536), so that `add()`'s own work can be measured
 * against it. The time a graph takes depends on its shapes, not on its values.
 *
 * Per layer (post-norm BERT, as exported from transformers):
 *   q,k,v = x·W + b; heads = softmax(q·kᵀ/√d + mask)·v; x = LN(x + heads·Wo + bo)
 *   x = LN(x + GELU(x·W1 + b1)·W2 + b2)                  (GELU with Erf, as exported)
 * Embeddings: word rows + position rows + the token-type-0 row, then LN.
 * `quantized` writes what transformers.js loads by default on WASM
 * (`model_quantized.onnx`, dtype q8): every weight MatMul becomes
 * DynamicQuantizeLinear → MatMulInteger (uint8 weights, one scale and zero point
 * per tensor) → Cast → Mul, as onnxruntime's dynamic quantization writes it; the
 * attention products and the embedding table stay float.
 */
import protobuf from 'protobufjs';
import { DT, ONNX_SUBSET, tensorInput } from './onnx-writer';

export interface BertShape {
  vocabSize: number;
  hidden: number;
  layers: number;
  heads: number;
  intermediate: number;
  maxPositions: number;
}

/** all-MiniLM-L6-v2's shape (its vocabulary size aside: the tokenizer given decides that). */
export const MINILM_L6_SHAPE: Omit<BertShape, 'vocabSize'> = { hidden: 384, layers: 6, heads: 12, intermediate: 1536, maxPositions: 512 };

const ATTR = { FLOAT: 1, INT: 2, INTS: 7 } as const;
/** LayerNormalization is an ONNX op from opset 17; IR version 8 goes with it. */
const OPSET = 17;
const IR_VERSION = 8;

type Attr = { name: string; type: number; i?: number; f?: number; ints?: number[] };
interface Tensor { name: string; dims: number[]; dataType: number; rawData: Uint8Array }

/** A graph under construction: initializers and nodes in order, each output named once. */
class GraphBuilder {
  readonly initializer: Tensor[] = [];
  readonly node: { opType: string; name: string; input: string[]; output: string[]; attribute: Attr[] }[] = [];
  private count = 0;

  tensor(name: string, dims: number[], dataType: number, data: ArrayBufferView): string {
    this.initializer.push({ name, dims, dataType, rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) });
    return name;
  }

  ints(name: string, values: number[]): string {
    return this.tensor(name, [values.length], DT.INT64, BigInt64Array.from(values.map(BigInt)));
  }

  scalar(name: string, value: number): string {
    return this.tensor(name, [], DT.FLOAT, Float32Array.of(value));
  }

  op(opType: string, input: string[], attribute: Attr[] = [], outputs = 1): string[] {
    const name = `${opType.toLowerCase()}_${this.count++}`;
    const output = Array.from({ length: outputs }, (_, i) => (outputs === 1 ? name : `${name}_${i}`));
    this.node.push({ opType, name, input, output, attribute });
    return output;
  }

  one(opType: string, input: string[], attribute: Attr[] = []): string {
    return this.op(opType, input, attribute)[0] as string;
  }
}

/** mulberry32: a small seeded generator, so a model is the same bytes on every machine. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Normal values with BERT's initializer's spread (σ = 0.02), from the sum of four uniforms. */
function weights(n: number, next: () => number): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = (next() + next() + next() + next() - 2) * 0.02 * Math.sqrt(3);
  return out;
}

/** Per-tensor asymmetric uint8 quantization, as onnxruntime's dynamic quantization stores a weight. */
function quantize(w: Float32Array): { q: Uint8Array; scale: number; zeroPoint: number } {
  let min = 0;
  let max = 0;
  for (const v of w) { if (v < min) min = v; if (v > max) max = v; }
  const scale = (max - min) / 255 || 1;
  const zeroPoint = Math.round(-min / scale);
  const q = new Uint8Array(w.length);
  for (let i = 0; i < w.length; i++) q[i] = Math.min(255, Math.max(0, Math.round((w[i] as number) / scale) + zeroPoint));
  return { q, scale, zeroPoint };
}

/** x·W + b, W random [k × n]; float, or dynamically quantized. */
function dense(g: GraphBuilder, x: string, name: string, k: number, n: number, next: () => number, quantized: boolean): string {
  const w = weights(k * n, next);
  const bias = g.tensor(`${name}.bias`, [n], DT.FLOAT, new Float32Array(n));
  if (!quantized) return g.one('Add', [g.one('MatMul', [x, g.tensor(`${name}.weight`, [k, n], DT.FLOAT, w)]), bias]);
  const { q, scale, zeroPoint } = quantize(w);
  const [xq, xScale, xZero] = g.op('DynamicQuantizeLinear', [x], [], 3) as [string, string, string];
  const product = g.one('MatMulInteger', [xq, g.tensor(`${name}.weight_quantized`, [k, n], DT.UINT8, q), xZero, g.tensor(`${name}.weight_zero_point`, [], DT.UINT8, Uint8Array.of(zeroPoint))]);
  const scaleBoth = g.one('Mul', [xScale, g.scalar(`${name}.weight_scale`, scale)]);
  const asFloat = g.one('Cast', [product], [{ name: 'to', type: ATTR.INT, i: DT.FLOAT }]);
  return g.one('Add', [g.one('Mul', [asFloat, scaleBoth]), bias]);
}

function layerNorm(g: GraphBuilder, x: string, name: string, hidden: number): string {
  const gamma = g.tensor(`${name}.weight`, [hidden], DT.FLOAT, new Float32Array(hidden).fill(1));
  const beta = g.tensor(`${name}.bias`, [hidden], DT.FLOAT, new Float32Array(hidden));
  return g.one('LayerNormalization', [x, gamma, beta], [{ name: 'axis', type: ATTR.INT, i: -1 }, { name: 'epsilon', type: ATTR.FLOAT, f: 1e-12 }]);
}

function encoderLayer(g: GraphBuilder, x: string, negMask: string, l: number, s: BertShape, next: () => number, quantized: boolean): string {
  const headDims = s.hidden / s.heads;
  const split = g.ints(`layer${l}.split`, [0, 0, s.heads, headDims]);
  const heads = (t: string, perm: number[]) => g.one('Transpose', [g.one('Reshape', [t, split])], [{ name: 'perm', type: ATTR.INTS, ints: perm }]);
  const q = heads(dense(g, x, `layer${l}.query`, s.hidden, s.hidden, next, quantized), [0, 2, 1, 3]);
  const k = heads(dense(g, x, `layer${l}.key`, s.hidden, s.hidden, next, quantized), [0, 2, 3, 1]);
  const v = heads(dense(g, x, `layer${l}.value`, s.hidden, s.hidden, next, quantized), [0, 2, 1, 3]);
  const scores = g.one('Add', [g.one('Mul', [g.one('MatMul', [q, k]), g.scalar(`layer${l}.scale`, 1 / Math.sqrt(headDims))]), negMask]);
  const probs = g.one('Softmax', [scores], [{ name: 'axis', type: ATTR.INT, i: -1 }]);
  const merged = g.one('Reshape', [
    g.one('Transpose', [g.one('MatMul', [probs, v])], [{ name: 'perm', type: ATTR.INTS, ints: [0, 2, 1, 3] }]),
    g.ints(`layer${l}.merge`, [0, 0, s.hidden]),
  ]);
  const attended = layerNorm(g, g.one('Add', [dense(g, merged, `layer${l}.attention_output`, s.hidden, s.hidden, next, quantized), x]), `layer${l}.attention_norm`, s.hidden);
  const up = dense(g, attended, `layer${l}.intermediate`, s.hidden, s.intermediate, next, quantized);
  const erf = g.one('Erf', [g.one('Mul', [up, g.scalar(`layer${l}.inv_sqrt2`, Math.SQRT1_2)])]);
  const gelu = g.one('Mul', [g.one('Mul', [up, g.scalar(`layer${l}.half`, 0.5)]), g.one('Add', [erf, g.scalar(`layer${l}.one`, 1)])]);
  const down = dense(g, gelu, `layer${l}.output`, s.intermediate, s.hidden, next, quantized);
  return layerNorm(g, g.one('Add', [down, attended]), `layer${l}.output_norm`, s.hidden);
}

/** Serializes the encoder to ONNX protobuf bytes (inputs input_ids and attention_mask, output last_hidden_state). */
export function writeBertOnnx(s: BertShape, options: { seed: number; quantized: boolean; docString: string }): Uint8Array {
  if (!Number.isInteger(s.hidden / s.heads)) throw new Error(`hidden ${s.hidden} is not a multiple of heads ${s.heads}`);
  const next = random(options.seed);
  const g = new GraphBuilder();
  const words = g.one('Gather', [g.tensor('embeddings.word', [s.vocabSize, s.hidden], DT.FLOAT, weights(s.vocabSize * s.hidden, next)), 'input_ids']);
  const length = g.one('Slice', [g.one('Shape', ['input_ids']), g.ints('one', [1]), g.ints('two', [2])]);
  const positions = g.one('Slice', [g.tensor('embeddings.position', [s.maxPositions, s.hidden], DT.FLOAT, weights(s.maxPositions * s.hidden, next)), g.ints('zero', [0]), length, g.ints('axis0', [0])]);
  const tokenType = g.tensor('embeddings.token_type', [s.hidden], DT.FLOAT, weights(s.hidden, next));
  let x = layerNorm(g, g.one('Add', [g.one('Add', [words, positions]), tokenType]), 'embeddings.norm', s.hidden);
  // A padded position gets −10⁴ before the softmax, as BERT's extended attention mask does.
  const mask = g.one('Unsqueeze', [g.one('Cast', ['attention_mask'], [{ name: 'to', type: ATTR.INT, i: DT.FLOAT }]), g.ints('mask_axes', [1, 2])]);
  const negMask = g.one('Mul', [g.one('Sub', [g.scalar('mask_one', 1), mask]), g.scalar('mask_min', -10_000)]);
  for (let l = 0; l < s.layers; l++) x = encoderLayer(g, x, negMask, l, s, next, options.quantized);
  g.node.push({ opType: 'Identity', name: 'output', input: [x], output: ['last_hidden_state'], attribute: [] });
  const Model = protobuf.parse(ONNX_SUBSET).root.lookupType('onnx.ModelProto');
  const model = {
    irVersion: IR_VERSION, producerName: 'threadline', producerVersion: '1', docString: options.docString,
    opsetImport: [{ domain: '', version: OPSET }],
    graph: {
      name: 'bert_shape', docString: options.docString, initializer: g.initializer, node: g.node,
      input: [tensorInput('input_ids', DT.INT64, ['batch_size', 'sequence_length']), tensorInput('attention_mask', DT.INT64, ['batch_size', 'sequence_length'])],
      output: [tensorInput('last_hidden_state', DT.FLOAT, ['batch_size', 'sequence_length', s.hidden])],
    },
  };
  const problem = Model.verify(model);
  if (problem) throw new Error(`invalid ONNX model: ${problem}`);
  return Model.encode(Model.fromObject(model)).finish();
}
