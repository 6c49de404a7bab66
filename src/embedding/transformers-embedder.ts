/**
 * Transformer embedding models through transformers.js feature extraction
 * (mean pooling, normalized). Runs unchanged in Node (onnxruntime-node, which
 * the consumer installs with @huggingface/transformers) and in a browser worker
 * (onnxruntime-web). Imported lazily by load-embedder.ts, only when a model
 * that is not static is configured.
 */
import { env, pipeline, type FeatureExtractionPipeline, type ProgressInfo } from '@huggingface/transformers';
import { ThreadlineError, throwIfAborted, toThreadlineError } from '../errors';
import type { ProgressListener } from '../progress';
import type { Embedder } from './embedder';
import type { EmbedderDevice, EmbedderOptions, EmbedderRuntime } from './embedder-options';
import { resolveModelSource, type ModelSource } from './model-source';
import { ortWasmPaths } from './ort-assets';
import { Mutex } from '../util/mutex';
import { nextTask } from '../util/next-task';
import { isNode } from '../util/runtime';

async function pickDevice(requested: EmbedderDevice): Promise<'wasm' | 'webgpu'> {
  if (requested === 'wasm' || requested === 'cpu') return 'wasm';
  if (requested === 'webgpu') return 'webgpu';
  return (await hasWebGpuAdapter()) ? 'webgpu' : 'wasm';
}

/**
 * In Node: the CPU, unless WebGPU is asked for by name. onnxruntime-node carries its own WebGPU (Dawn, over
 * Vulkan on Linux, Metal on macOS, D3D12 on Windows), so `threadline index` can embed a large corpus on a GPU;
 * `'auto'` stays on the CPU so that a build machine's drivers never decide what an index holds.
 */
function nodeDevice(requested: EmbedderDevice): 'cpu' | 'webgpu' {
  return requested === 'webgpu' ? 'webgpu' : 'cpu';
}

/** Works in a page and in a worker (WorkerNavigator has `gpu` too). */
async function hasWebGpuAdapter(): Promise<boolean> {
  const nav = (globalThis as { navigator?: { gpu?: { requestAdapter(): Promise<unknown> } } }).navigator;
  if (!nav?.gpu) return false;
  return (await nav.gpu.requestAdapter().catch(() => null)) !== null;
}


export async function loadTransformersEmbedder(opts: Required<EmbedderOptions>, modelId: string, runtime: EmbedderRuntime): Promise<Embedder> {
  const source = resolveModelSource(opts.model, isNode() ? undefined : runtime.baseUrl);
  const device = isNode() ? nodeDevice(opts.device) : await pickDevice(opts.device);
  const dtype = opts.dtype === 'auto' ? undefined : opts.dtype;
  configureSource(source);
  const onnx = env.backends.onnx as { wasm?: { wasmPaths?: unknown } } | undefined;
  const wasmPaths = opts.wasmPaths ? ortWasmPaths(new URL(opts.wasmPaths.replace(/\/?$/, '/'), runtime.baseUrl ?? globalThis.location?.href)) : runtime.wasmPaths;
  if (wasmPaths && onnx?.wasm) onnx.wasm.wasmPaths = { ...wasmPaths };
  // transformers.js would otherwise copy onnxruntime's files into Cache Storage and import its factory from a
  // blob: URL, which a Content-Security-Policy without blob: in script-src refuses ("no available backend").
  // Imported from its own same-origin URL, the browser's HTTP cache keeps both files as it keeps every other.
  env.useWasmCache = false;

  const started = performance.now();
  let extractor: FeatureExtractionPipeline;
  try {
    extractor = await pipeline('feature-extraction', source.name, {
      device,
      ...(dtype ? { dtype } : {}),
      progress_callback: (info: ProgressInfo) => reportDownload(info, opts.model, runtime.onProgress),
    });
  } catch (error) {
    throw loadFailure(error, opts, wasmPaths);
  }
  const embedder = new TransformersEmbedder(extractor, modelId, opts.batchSize);
  const probe = await embedder.probeDims();
  runtime.onProgress?.({ phase: 'model-ready', model: opts.model, device, dims: probe, ms: performance.now() - started });
  return embedder;
}

/**
 * A failed pipeline load, said with what to do. A missing model file (transformers.js: "Could not locate file")
 * names the file and the precision that asked for it: with dtype 'auto' transformers.js reads
 * `onnx/model_quantized.onnx` on WASM but `onnx/model.onnx` on WebGPU and in Node, so a folder that
 * `threadline index` read in Node can lack the browser's file. A page's Content-Security-Policy that refuses
 * WebAssembly is said as such; only a runtime that did not load gets the hint about onnxruntime-web's files.
 */
function loadFailure(error: unknown, opts: Required<EmbedderOptions>, wasmPaths: { wasm: string } | undefined): ThreadlineError {
  const failure = toThreadlineError(error, 'MODEL_LOAD_FAILED', `Could not load embedding model "${opts.model}"`);
  if (failure.code !== 'MODEL_LOAD_FAILED') return failure;
  const said = failure.message.replace(/\.*$/, '');
  const missing = /Could not locate file: "?([^"\s]+?)"?\.?$/m.exec(failure.message)?.[1];
  if (missing) {
    const precision = opts.dtype === 'auto'
      ? "dtype 'auto' reads onnx/model_quantized.onnx on WASM, onnx/model.onnx on WebGPU and in Node"
      : `dtype '${opts.dtype}' reads that file`;
    return new ThreadlineError('MODEL_LOAD_FAILED', `Could not load embedding model "${opts.model}": ${missing} is missing (${precision}). Deploy it, or set embedder.dtype to a precision the folder has.`, { cause: error, details: { url: missing } });
  }
  if (/WebGPU adapter|No supported adapters/i.test(failure.message)) {
    const driver = isNode() ? ' onnxruntime-node reaches the GPU through Vulkan on Linux (a GPU driver and libvulkan.so.1), Metal on macOS, D3D12 on Windows.' : '';
    return new ThreadlineError('MODEL_LOAD_FAILED', `Could not load embedding model "${opts.model}" on WebGPU: no GPU adapter here.${driver} Set device 'cpu' (or 'auto') to embed without one.`, { cause: error, details: { reason: 'no-gpu' } });
  }
  if (/Content Security Policy/i.test(failure.message)) {
    return new ThreadlineError('MODEL_LOAD_FAILED', `${said}. The page's Content-Security-Policy refuses what onnxruntime-web needs: transformer models need 'wasm-unsafe-eval' in script-src (and the WASM runtime's folder allowed by script-src and connect-src).`, { cause: error, details: { reason: 'csp' } });
  }
  const runtimeHint = wasmPaths && !isNode() && /backend|ort-wasm|\.wasm|\.mjs|WebAssembly/i.test(failure.message)
    ? ` Transformer models need onnxruntime-web's WASM runtime at ${wasmPaths.wasm} (copy ort-wasm-simd-threaded.asyncify.mjs and .wasm from node_modules/onnxruntime-web/dist/ there, or set embedder.wasmPaths).`
    : '';
  return new ThreadlineError('MODEL_LOAD_FAILED', `${said}.${runtimeHint}`, { cause: error });
}

/** Positions of `texts`, longest first (characters: a tokenizer pass only to sort would cost what it saves on short texts). */
export function lengthOrder(texts: readonly string[]): Uint32Array {
  return Uint32Array.from(texts.keys()).sort((a, b) => (texts[b] as string).length - (texts[a] as string).length || a - b);
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

/** A batch's target duration, and the first batch's size (before any has been timed). */
export const BATCH_TARGET_MS = 250;
const FIRST_BATCH = 8;

/**
 * The next batch's size: as many texts as fit BATCH_TARGET_MS at the last batch's time per text (texts
 * come longest first, so later ones cost less), at least 1, at most `max`. On WASM a batch of 2 long
 * chunks embeds them as fast as a batch of 32 (measured with bench/transformer-model.ts: 16 texts of
 * 200 words, 1.8–2.4 s at every batch size from 1 to 32); short sentences lose below about 8.
 */
export function nextBatchSize(texts: number, ms: number, max: number): number {
  if (!(ms > 0)) return max;
  return Math.max(1, Math.min(max, Math.floor((BATCH_TARGET_MS * texts) / ms)));
}

class TransformersEmbedder implements Embedder {
  dims = 0;
  readonly maxTokens: number;
  /** One model call at a time, whoever asks: callers take turns between batches. */
  private readonly turns = new Mutex();

  constructor(
    private readonly extractor: FeatureExtractionPipeline,
    readonly modelId: string,
    private readonly batchSize: number,
  ) {
    const max = (extractor.tokenizer as { model_max_length?: number }).model_max_length;
    this.maxTokens = typeof max === 'number' && Number.isFinite(max) && max > 0 ? max : 512;
  }

  async probeDims(): Promise<number> {
    const out = await this.turns.run(() => this.run(['probe']));
    this.dims = out.dims;
    return out.dims;
  }

  countTokens(text: string): number {
    return this.extractor.tokenizer.encode(text, { add_special_tokens: false }).length;
  }

  /**
   * Vectors in the order of `texts`, computed in batches of texts of similar length: a batch is padded to
   * its longest text and the model pays for every padded position, so batching a 300-token chunk with
   * 20-token ones costs about as much as 32 chunks of 300 (sentence-transformers sorts by length for the
   * same reason). Longest first, so a batch too large for the device fails at once, not at the end.
   * Padding is masked, so a text's vector does not depend on its batch.
   *
   * A batch is one stretch of this thread's time: onnxruntime-web computes it without letting the event
   * loop turn. So batches are sized to take about BATCH_TARGET_MS (`batchSize` at most), and between two
   * the thread handles what waits for it: an abort, or a search, whose query is embedded between two
   * batches of an add() instead of after all of them (with a transformer on WASM, one group of 256
   * Markdown chunks had kept a search waiting 12 s). Model calls from different callers never overlap.
   */
  async embed(texts: readonly string[], options: { signal?: AbortSignal } = {}): Promise<Float32Array> {
    const packed = new Float32Array(texts.length * this.dims);
    const order = lengthOrder(texts);
    let size = Math.min(this.batchSize, FIRST_BATCH);
    for (let start = 0; start < texts.length;) {
      throwIfAborted(options.signal);
      const slots = order.subarray(start, start + size);
      const { data, dims, ms } = await this.turns.run(async () => {
        const started = performance.now();
        return { ...(await this.run(Array.from(slots, (i) => texts[i] as string))), ms: performance.now() - started };
      }, options.signal);
      if (dims !== this.dims) throw new ThreadlineError('EMBEDDING_FAILED', `model returned ${dims} dims, expected ${this.dims}`);
      slots.forEach((slot, j) => packed.set(data.subarray(j * dims, (j + 1) * dims), slot * dims));
      start += slots.length;
      size = nextBatchSize(slots.length, ms, this.batchSize);
      if (start < texts.length) await nextTask();
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
