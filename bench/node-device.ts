/**
 * npx tsx bench/node-device.ts [--passages N] [--batches 32,128] [--dtype fp32|q8] [--json FILE]
 * Embedding a site's passages in Node, as `threadline index --device` does: the
 * transformer-shaped model (bench/transformer-model.ts: all-MiniLM-L6-v2's shape,
 * fp32, the weights Node reads with dtype 'auto') on the CPU and on a GPU through
 * onnxruntime-node's WebGPU, in the same run. Prints passages per second, the GPU's
 * ratio to the CPU, and how far the GPU's vectors are from the CPU's (cosine of each
 * passage's two vectors: an index built on a GPU is searched by queries embedded on
 * a CPU or in a browser). Without a GPU adapter it says why and prints the CPU alone.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { loadEmbedder } from '../src/embedding/load-embedder';
import { isThreadlineError } from '../src/errors';
import { median, syntheticCorpus, vocabulary } from './corpus';
import { ensureTransformerModel } from './transformer-model';

const args = process.argv.slice(2);
const option = (name: string) => { const at = args.indexOf(name); return at >= 0 ? args[at + 1] : undefined; };
const PASSAGES = Number(option('--passages') ?? 400);
const BATCHES = (option('--batches') ?? '32,128').split(',').map(Number);
/** The weights: fp32 (what Node reads with dtype 'auto') or q8 (the browser's default on WASM). */
const dtypeArg = option('--dtype') ?? 'fp32';
if (dtypeArg !== 'fp32' && dtypeArg !== 'q8') throw new Error('--dtype takes fp32 or q8 (the two files the benchmark model has)');
const DTYPE: 'fp32' | 'q8' = dtypeArg;
const ROUNDS = 3;
const WORDS = 150; // about as many tokens with the word-level tokenizer: a chunk of the size the chunker makes

const folder = `${ensureTransformerModel()}/`;
const vocab = vocabulary(JSON.parse(readFileSync(resolve(import.meta.dirname, '../.models/threadline-glove-30k/tokenizer.json'), 'utf8')) as { model: { vocab: Record<string, number> } });
const words = syntheticCorpus(vocab, PASSAGES * WORDS * 8).flatMap((d) => d.text.split(/\s+/).filter((w) => !w.startsWith('#')));
const passages = Array.from({ length: PASSAGES }, (_, i) => words.slice(i * WORDS, (i + 1) * WORDS).join(' '));
if (passages.at(-1)?.split(' ').length !== WORDS) throw new Error('the synthetic corpus is too short for --passages');

interface Run { device: string; batchSize: number; loadMs: number; ms: number[]; passagesPerS: number; vectors: Float32Array }

async function run(device: 'cpu' | 'webgpu', batchSize: number): Promise<Run> {
  const started = performance.now();
  const embedder = await loadEmbedder({ model: folder, dtype: DTYPE, device, batchSize });
  const loadMs = performance.now() - started;
  await embedder.embed(passages.slice(0, batchSize)); // warm-up: the first call compiles (GPU shaders) and allocates
  const ms: number[] = [];
  let vectors: Float32Array = new Float32Array(0);
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    vectors = await embedder.embed(passages);
    ms.push(performance.now() - t0);
  }
  return { device, batchSize, loadMs, ms, passagesPerS: PASSAGES / (median(ms) / 1000), vectors };
}

/** Cosine of each passage's two vectors (both are normalized): min and mean. */
function agreement(a: Float32Array, b: Float32Array, dims: number): { min: number; mean: number } {
  let min = Infinity;
  let sum = 0;
  for (let p = 0; p < a.length / dims; p++) {
    let dot = 0;
    for (let d = 0; d < dims; d++) dot += (a[p * dims + d] as number) * (b[p * dims + d] as number);
    min = Math.min(min, dot);
    sum += dot;
  }
  return { min, mean: sum / (a.length / dims) };
}

const fmt = (r: Run) => `${r.device} batch ${r.batchSize}: load ${r.loadMs.toFixed(0)} ms, ${r.passagesPerS.toFixed(1)} passages/s (median of ${ROUNDS} rounds: ${r.ms.map((m) => m.toFixed(0)).join(', ')} ms)`;
console.log(`${PASSAGES} passages of ${WORDS} words; ${availableParallelism()} CPU threads; model ${folder} (${DTYPE})`);
const cpu = await run('cpu', 32);
console.log(fmt(cpu));
const report: Record<string, unknown> = { passages: PASSAGES, words: WORDS, dtype: DTYPE, threads: availableParallelism(), cpu: { ...cpu, vectors: undefined } };
for (const batchSize of BATCHES) {
  try {
    const gpu = await run('webgpu', batchSize);
    const agree = agreement(cpu.vectors, gpu.vectors, 384);
    console.log(`${fmt(gpu)}; ${(gpu.passagesPerS / cpu.passagesPerS).toFixed(2)}× the CPU; cosine to the CPU's vectors min ${agree.min.toFixed(6)}, mean ${agree.mean.toFixed(6)}`);
    report[`webgpu-${batchSize}`] = { ...gpu, vectors: undefined, ratio: gpu.passagesPerS / cpu.passagesPerS, agreement: agree };
  } catch (error) {
    const reason = isThreadlineError(error) ? `${error.code} (${JSON.stringify(error.details.reason ?? null)}): ${error.message}` : String(error);
    console.log(`webgpu batch ${batchSize}: not measured: ${reason}`);
    report[`webgpu-${batchSize}`] = { error: reason };
    break;
  }
}
const jsonFile = option('--json');
if (jsonFile) writeFileSync(jsonFile, JSON.stringify(report, null, 2));
