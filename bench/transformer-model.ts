/**
 * npx tsx bench/transformer-model.ts [--force]
 * Writes .models/bench-minilm-l6-shape/: a transformers.js model folder with
 * all-MiniLM-L6-v2's shape and seeded random weights (scripts/offline-model/bert-writer.ts),
 * the offline model's word-level tokenizer, and both files transformers.js
 * picks from (`onnx/model.onnx`, fp32; `onnx/model_quantized.onnx`, q8, its
 * default on WASM). It costs what a transformer embedding model costs and
 * means nothing: the ingest benchmark's "transformer-shaped" embedder, never a
 * model to search with. Skipped when the folder is up to date.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MINILM_L6_SHAPE, writeBertOnnx } from '../scripts/offline-model/bert-writer';
import { writeFolder } from '../scripts/offline-model/write-folder';

export const TRANSFORMER_SHAPE_MODEL = 'bench-minilm-l6-shape';
/**
 * The embedder options the benchmarks use it with (the folder is served from .models/ at the site's root):
 * WASM, at transformers.js's default precision there (q8), as a browser without WebGPU runs a hub model.
 */
export const TRANSFORMER = { model: `/${TRANSFORMER_SHAPE_MODEL}/`, device: 'wasm' } as const;
/** Bump when the output would change. */
const RECIPE = 'bert-shape-v1';
const MODELS = resolve(import.meta.dirname, '../.models');

/** The folder's path, written first when missing or stale. */
export function ensureTransformerModel(force = false): string {
  const out = join(MODELS, TRANSFORMER_SHAPE_MODEL);
  const marker = join(out, 'threadline.json');
  if (!force && existsSync(marker) && (JSON.parse(readFileSync(marker, 'utf8')) as { recipe?: string }).recipe === RECIPE) return out;
  const source = join(MODELS, 'threadline-glove-30k-onnx');
  if (!existsSync(join(source, 'tokenizer.json'))) throw new Error(`${source}/tokenizer.json is missing: run npm run model first`);
  const tokenizer = readFileSync(join(source, 'tokenizer.json'), 'utf8');
  const vocabSize = Object.keys((JSON.parse(tokenizer) as { model: { vocab: Record<string, number> } }).model.vocab).length;
  const shape = { ...MINILM_L6_SHAPE, vocabSize };
  const docString = `${RECIPE}: all-MiniLM-L6-v2's shape with seeded random weights; for timing only, its vectors mean nothing`;
  const files: Record<string, string | Uint8Array> = {
    'onnx/model.onnx': writeBertOnnx(shape, { seed: 1, quantized: false, docString }),
    'onnx/model_quantized.onnx': writeBertOnnx(shape, { seed: 1, quantized: true, docString }),
    'tokenizer.json': tokenizer,
    'tokenizer_config.json': readFileSync(join(source, 'tokenizer_config.json'), 'utf8'),
    'config.json': JSON.stringify({
      model_type: 'bert', architectures: ['BertModel'], hidden_size: shape.hidden, num_hidden_layers: shape.layers,
      num_attention_heads: shape.heads, intermediate_size: shape.intermediate, max_position_embeddings: shape.maxPositions, vocab_size: vocabSize,
    }, null, 2),
    'threadline.json': JSON.stringify({ recipe: RECIPE, shape, note: docString }, null, 2),
  };
  writeFolder(out, files);
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const started = performance.now();
  const out = ensureTransformerModel(process.argv.includes('--force'));
  console.log(`${out} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
