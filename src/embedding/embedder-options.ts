/**
 * The embedder's options and defaults, apart from the loader so that pages
 * that only configure a model (the root entry) do not pull the loader in.
 */
import { ThreadlineError } from '../errors';
import { shown } from '../util/shown';
import type { ProgressListener } from '../progress';
import type { ModelFiles } from './model-files';
import { OFFLINE_MODEL_ID } from './offline-model';

export const EMBEDDER_DEVICES = ['auto', 'wasm', 'webgpu', 'cpu'] as const;
export type EmbedderDevice = (typeof EMBEDDER_DEVICES)[number];
export const EMBEDDER_DTYPES = ['auto', 'fp32', 'fp16', 'q8', 'int8', 'uint8', 'q4', 'q4f16', 'bnb4'] as const;
export type EmbedderDtype = (typeof EMBEDDER_DTYPES)[number];

/** Whether a value names one of EMBEDDER_DTYPES: the one test that the options check, `threadline index --dtype` and threadline/vite share. */
export function isEmbedderDtype(value: unknown): value is EmbedderDtype {
  return (EMBEDDER_DTYPES as readonly unknown[]).includes(value);
}

export interface EmbedderOptions {
  /**
   * `'threadline-glove-30k'` (the offline model that ships with threadline), a Hugging
   * Face hub id (`'Xenova/all-MiniLM-L6-v2'`, `'minishlab/potion-base-8M'`) or the URL/path
   * of a self-hosted model folder (`'/models/my-model/'`). Model2Vec folders run without
   * ONNX Runtime; transformer folders load transformers.js.
   * @default 'threadline-glove-30k'
   */
  model?: string;
  /**
   * Transformer models only: `'auto'` uses WebGPU when an adapter exists, else WASM.
   * In Node, `'auto'` uses the CPU and `'webgpu'` a GPU through onnxruntime-node's own
   * WebGPU (Vulkan on Linux, Metal on macOS, D3D12 on Windows).
   * @default 'auto'
   */
  device?: EmbedderDevice;
  /** Transformer models only: weight precision; `'auto'` lets transformers.js choose for the device. @default 'auto' */
  dtype?: EmbedderDtype;
  /**
   * Transformer models in a browser: the URL of a folder serving onnxruntime-web's
   * `ort-wasm-simd-threaded.asyncify.mjs` and `.wasm` (from `node_modules/onnxruntime-web/dist/`,
   * the version threadline was built with). Relative URLs resolve against the page.
   * @default './ort/' next to the retrieval worker's script
   */
  wasmPaths?: string;
  /**
   * Transformer models: at most this many texts per model call. Calls are sized to take about a quarter
   * of a second each (texts of similar length together), so a search or an abort waits at most that long
   * during an add(). @default 32
   */
  batchSize?: number;
  /**
   * When the configured model cannot be loaded (offline, hub unreachable),
   * use the offline model instead (only while the index holds no vectors of
   * another model). `false` fails with MODEL_LOAD_FAILED instead.
   * @default 'offline'
   */
  fallback?: 'offline' | false;
  /**
   * Where the fallback finds the offline model: `'threadline-glove-30k'` (the copy that
   * ships with threadline) or the URL of a folder holding it.
   * @default 'threadline-glove-30k'
   */
  offlineModel?: string;
}

export interface EmbedderRuntime {
  /** Base URL that relative model paths resolve against (the page or worker location). */
  baseUrl?: string;
  /** Self-hosted onnxruntime-web files for transformer models, so nothing is fetched from a CDN. */
  wasmPaths?: { mjs: string; wasm: string };
  /** Where the built-in offline model's files are (default: next to this module). */
  offlineFiles?: ModelFiles;
  onProgress?: ProgressListener;
  /** The model's files are fetched only once this settles (the retrieval worker's warm-up: after the index files it fetches ahead). */
  notBefore?: Promise<unknown>;
}

export const EMBEDDER_DEFAULTS = Object.freeze({
  model: OFFLINE_MODEL_ID,
  device: 'auto',
  dtype: 'auto',
  wasmPaths: '',
  batchSize: 32,
  fallback: 'offline',
  offlineModel: OFFLINE_MODEL_ID,
} satisfies Required<EmbedderOptions>);


/** The most texts one model call takes: far past any batch that gains (32 is the default), short of one that exhausts a tab. */
const MAX_BATCH_SIZE = 4096;

/**
 * What is wrong with embedder options that would fail later and obscurely, or never: a batch size of 0 or
 * NaN failed only at the first add() ("text array must be non-empty"), an unknown device or precision fell
 * through to transformers.js. INVALID_INPUT names the option and what it takes; null when nothing is wrong.
 */
export function embedderOptionsProblem(options: unknown): ThreadlineError | null {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return new ThreadlineError('INVALID_INPUT', `embedder must be an object of options, got ${shown(options)}`);
  const o = options as Record<string, unknown>;
  const text = (value: unknown) => typeof value === 'string' && value.trim() !== '';
  const oneOf = (values: readonly unknown[]) => values.map((v) => (typeof v === 'string' ? `'${v}'` : String(v))).join(', ');
  const checks: [field: string, ok: boolean, takes: string][] = [
    ['model', o.model === undefined || text(o.model), 'a hub id or a model folder\'s URL'],
    ['offlineModel', o.offlineModel === undefined || text(o.offlineModel), 'a model folder\'s URL or \'threadline-glove-30k\''],
    ['device', o.device === undefined || (EMBEDDER_DEVICES as readonly unknown[]).includes(o.device), `one of ${oneOf(EMBEDDER_DEVICES)}`],
    ['dtype', o.dtype === undefined || isEmbedderDtype(o.dtype), `one of ${oneOf(EMBEDDER_DTYPES)}`],
    ['wasmPaths', o.wasmPaths === undefined || typeof o.wasmPaths === 'string', 'a folder\'s URL'],
    ['batchSize', o.batchSize === undefined || (Number.isInteger(o.batchSize) && (o.batchSize as number) >= 1 && (o.batchSize as number) <= MAX_BATCH_SIZE), `a whole number from 1 to ${MAX_BATCH_SIZE}`],
    ['fallback', o.fallback === undefined || o.fallback === 'offline' || o.fallback === false, "'offline' or false"],
  ];
  const bad = checks.find(([, ok]) => !ok);
  return bad ? new ThreadlineError('INVALID_INPUT', `embedder.${bad[0]} must be ${bad[2]}, got ${shown(o[bad[0]])}`) : null;
}

/** Throws embedderOptionsProblem's error, if any. Run by createThreadline() (and, as a rejection, by loadEmbedder()). */
export function assertEmbedderOptions(options: unknown): asserts options is EmbedderOptions {
  const problem = embedderOptionsProblem(options);
  if (problem) throw problem;
}
