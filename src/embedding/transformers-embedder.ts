/**
 * Embedder backed by transformers.js feature extraction (mean pooling,
 * normalized). Runs unchanged in Node (onnxruntime-node) and in a browser
 * worker (onnxruntime-web). Loads are memoized per model, device and dtype.
 */
import { env, pipeline, type FeatureExtractionPipeline, type ProgressInfo } from '@huggingface/transformers';
import { ThreadlineError, throwIfAborted, toThreadlineError } from '../errors';
import type { ProgressListener } from '../progress';
import type { Embedder } from './embedder';
import { modelIdentity, resolveModelSource, type ModelSource } from './model-source';
import { OFFLINE_MODEL_ID, OFFLINE_MODEL_PATH } from './offline-model';

export type EmbedderDevice = 'auto' | 'wasm' | 'webgpu' | 'cpu';
export type EmbedderDtype = 'auto' | 'fp32' | 'fp16' | 'q8' | 'int8' | 'uint8' | 'q4' | 'q4f16' | 'bnb4';

export interface EmbedderOptions {
  /**
   * A Hugging Face hub id (`'Xenova/all-MiniLM-L6-v2'`) or the URL/path of a
   * self-hosted model folder (`'/models/my-model/'`); folders load with remote models off.
   * @default the offline model, served at `/threadline-glove-30k/`
   */
  model?: string;
  /**
   * `'auto'` uses WebGPU when an adapter exists (except for the tiny offline
   * model, where WASM is faster), else WASM; Node always uses the CPU.
   * @default 'auto'
   */
  device?: EmbedderDevice;
  /** Weight precision; `'auto'` lets transformers.js choose for the device. @default 'auto' ('fp32' for the offline model) */
  dtype?: EmbedderDtype;
  /** Texts per model call. @default 32 */
  batchSize?: number;
  /**
   * When the configured model cannot be loaded (offline, hub unreachable),
   * use the offline model instead (only while the index holds no vectors of
   * another model). `false` fails with MODEL_LOAD_FAILED instead.
   * @default 'offline'
   */
  fallback?: 'offline' | false;
  /**
   * Where the offline model is served, for the fallback (pages hosted under a
   * sub-path put it next to themselves, e.g. `'./threadline-glove-30k/'`).
   * @default '/threadline-glove-30k/'
   */
  offlineModel?: string;
}

export interface EmbedderRuntime {
  /** Base URL that relative model paths resolve against (the page or worker location). */
  baseUrl?: string;
  /** Self-hosted onnxruntime-web files, so nothing is fetched from a CDN. */
  wasmPaths?: { mjs: string; wasm: string };
  onProgress?: ProgressListener;
}

export const EMBEDDER_DEFAULTS = Object.freeze({
  model: OFFLINE_MODEL_PATH,
  device: 'auto',
  dtype: 'auto',
  batchSize: 32,
  fallback: 'offline',
  offlineModel: OFFLINE_MODEL_PATH,
} satisfies Required<EmbedderOptions>);

/**
 * Loads the configured model; if that fails and fallback is on, loads the
 * offline model (at `offlineModel`) instead and reports it.
 */
export async function loadWithFallback(options: EmbedderOptions, runtime: EmbedderRuntime = {}): Promise<Embedder> {
  try {
    return await loadTransformersEmbedder(options, runtime);
  } catch (error) {
    const wanted = options.model ?? EMBEDDER_DEFAULTS.model;
    if ((options.fallback ?? EMBEDDER_DEFAULTS.fallback) === false || resolveModelSource(wanted).name === OFFLINE_MODEL_ID) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    runtime.onProgress?.({ phase: 'model-fallback', from: wanted, to: OFFLINE_MODEL_ID, reason });
    return loadTransformersEmbedder({ model: options.offlineModel ?? EMBEDDER_DEFAULTS.offlineModel, batchSize: options.batchSize ?? EMBEDDER_DEFAULTS.batchSize }, runtime);
  }
}

/** The manifest identity of a configuration, known without loading the model. */
export function embedderIdentity(options: EmbedderOptions = {}): string {
  const opts = { ...EMBEDDER_DEFAULTS, ...options };
  const isOffline = resolveModelSource(opts.model).name === OFFLINE_MODEL_ID;
  return modelIdentity(opts.model, opts.dtype === 'auto' ? (isOffline ? 'fp32' : 'auto') : opts.dtype);
}

const loads = new Map<string, Promise<Embedder>>();

/** Loads (once per model/device/dtype) and returns a ready embedder whose `dims` is known. */
export function loadTransformersEmbedder(options: EmbedderOptions = {}, runtime: EmbedderRuntime = {}): Promise<Embedder> {
  const opts = { ...EMBEDDER_DEFAULTS, ...options };
  const key = `${opts.model}|${opts.device}|${opts.dtype}`;
  let load = loads.get(key);
  if (!load) {
    load = createEmbedder(opts, runtime);
    loads.set(key, load);
    // A failed load is forgotten so that a later call can retry (e.g. once back online).
    load.catch(() => loads.delete(key));
  }
  return load;
}

async function pickDevice(requested: EmbedderDevice, isOffline: boolean): Promise<'wasm' | 'webgpu'> {
  if (requested === 'wasm' || requested === 'cpu') return 'wasm';
  if (requested === 'webgpu') return 'webgpu';
  return !isOffline && (await hasWebGpuAdapter()) ? 'webgpu' : 'wasm';
}

/** Works in a page and in a worker (WorkerNavigator has `gpu` too). */
async function hasWebGpuAdapter(): Promise<boolean> {
  const nav = (globalThis as { navigator?: { gpu?: { requestAdapter(): Promise<unknown> } } }).navigator;
  if (!nav?.gpu) return false;
  return (await nav.gpu.requestAdapter().catch(() => null)) !== null;
}

function isNode(): boolean {
  return typeof process !== 'undefined' && typeof process.versions?.node === 'string';
}

async function createEmbedder(opts: Required<EmbedderOptions>, runtime: EmbedderRuntime): Promise<Embedder> {
  const source = resolveModelSource(opts.model, isNode() ? undefined : runtime.baseUrl);
  const isOffline = source.name === OFFLINE_MODEL_ID;
  const device = isNode() ? 'cpu' : await pickDevice(opts.device, isOffline);
  const dtype = opts.dtype === 'auto' ? (isOffline ? 'fp32' : undefined) : opts.dtype;
  configureSource(source);
  const onnx = env.backends.onnx as { wasm?: { wasmPaths?: unknown } } | undefined;
  if (runtime.wasmPaths && onnx?.wasm) onnx.wasm.wasmPaths = { ...runtime.wasmPaths };

  const started = performance.now();
  let extractor: FeatureExtractionPipeline;
  try {
    extractor = await pipeline('feature-extraction', source.name, {
      device,
      ...(dtype ? { dtype } : {}),
      progress_callback: (info: ProgressInfo) => reportDownload(info, opts.model, runtime.onProgress),
    });
  } catch (error) {
    throw toThreadlineError(error, 'MODEL_LOAD_FAILED', `Could not load embedding model "${opts.model}"`);
  }
  const embedder = new TransformersEmbedder(extractor, embedderIdentity(opts), opts.batchSize);
  const probe = await embedder.probeDims();
  runtime.onProgress?.({ phase: 'model-ready', model: opts.model, device, dims: probe, ms: performance.now() - started });
  return embedder;
}

const HUB = { host: env.remoteHost, template: env.remotePathTemplate };

/**
 * Points transformers.js at the model. A self-hosted folder in the browser is
 * loaded as a "remote host" rather than a local path: transformers.js skips
 * its existence check for local paths that are http(s) URLs, which silently
 * loses the tokenizer. Remote loading also caches files for offline reuse.
 */
function configureSource(source: ModelSource): void {
  if (source.localBase === null) {
    Object.assign(env, { allowRemoteModels: true, allowLocalModels: false, remoteHost: HUB.host, remotePathTemplate: HUB.template });
  } else if (isNode()) {
    Object.assign(env, { allowRemoteModels: false, allowLocalModels: true, localModelPath: source.localBase });
  } else {
    Object.assign(env, { allowRemoteModels: true, allowLocalModels: false, remoteHost: source.localBase, remotePathTemplate: '{model}/' });
  }
}

function reportDownload(info: ProgressInfo, model: string, onProgress?: ProgressListener): void {
  if (!onProgress || info.status !== 'progress') return;
  onProgress({
    phase: 'model-download', model, file: info.file, loaded: info.loaded, total: info.total,
    fraction: info.total > 0 ? info.loaded / info.total : 0,
  });
}

class TransformersEmbedder implements Embedder {
  dims = 0;
  readonly maxTokens: number;

  constructor(
    private readonly extractor: FeatureExtractionPipeline,
    readonly modelId: string,
    private readonly batchSize: number,
  ) {
    const max = (extractor.tokenizer as { model_max_length?: number }).model_max_length;
    this.maxTokens = typeof max === 'number' && Number.isFinite(max) && max > 0 ? max : 512;
  }

  async probeDims(): Promise<number> {
    const out = await this.run(['probe']);
    this.dims = out.dims;
    return out.dims;
  }

  countTokens(text: string): number {
    return this.extractor.tokenizer.encode(text, { add_special_tokens: false }).length;
  }

  async embed(texts: readonly string[], options: { signal?: AbortSignal } = {}): Promise<Float32Array> {
    const packed = new Float32Array(texts.length * this.dims);
    for (let start = 0; start < texts.length; start += this.batchSize) {
      throwIfAborted(options.signal);
      const batch = texts.slice(start, start + this.batchSize);
      const { data, dims } = await this.run(batch);
      if (dims !== this.dims) throw new ThreadlineError('EMBEDDING_FAILED', `model returned ${dims} dims, expected ${this.dims}`);
      packed.set(data, start * this.dims);
    }
    return packed;
  }

  private async run(texts: readonly string[]): Promise<{ data: Float32Array; dims: number }> {
    let output;
    try {
      output = await this.extractor([...texts], { pooling: 'mean', normalize: true });
    } catch (error) {
      throw toThreadlineError(error, 'EMBEDDING_FAILED', 'Embedding failed');
    }
    const dims = output.dims.at(-1) ?? 0;
    const data = Float32Array.from(output.data as Float32Array);
    output.dispose();
    // A text with no known token pools to a zero vector, which normalization turns into NaN.
    for (let i = 0; i < data.length; i++) if (Number.isNaN(data[i])) data[i] = 0;
    return { data, dims };
  }
}
