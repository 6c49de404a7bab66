/**
 * Loads the configured embedding model. A static model (the built-in offline
 * model, or any Model2Vec folder) runs in plain code (static-embedder.ts);
 * anything else is a transformer and loads transformers.js and onnxruntime-web,
 * imported only then, so pages using static models never download them.
 */
import { isThreadlineError, ThreadlineError } from '../errors';
import type { Embedder } from './embedder';
import { standIn } from './stand-in';
import { EMBEDDER_DEFAULTS, embedderOptionsProblem, type EmbedderOptions, type EmbedderRuntime } from './embedder-options';
import { carriesFiles } from './embedded-files';
import { modelFiles, parseModelJson, readModelFile, type FolderFiles, type ModelFiles } from './model-files';
import { readSafetensorsFile } from './safetensors';
import { modelIdentity, resolveModelSource } from './model-source';
import { bundledOfflineModel, OFFLINE_MODEL_ID, OFFLINE_MODEL_IDENTITY } from './offline-model';
import { isStaticConfig, StaticEmbedder, type StaticModelOptions } from './static-embedder';
import type * as TransformersEmbedder from './transformers-embedder';
import { isNode } from '../util/runtime';
import type { ProgressListener } from '../progress';

export { EMBEDDER_DEFAULTS };
export type { EmbedderDevice, EmbedderDtype, EmbedderOptions, EmbedderRuntime } from './embedder-options';

/** The bare id of the built-in model (not a folder that happens to be named like it). */
function isBuiltIn(model: string): boolean {
  return model.trim() === OFFLINE_MODEL_ID;
}

/** The manifest identity of a configuration, known without loading the model. */
export function embedderIdentity(options: EmbedderOptions = {}): string {
  const opts = { ...EMBEDDER_DEFAULTS, ...options };
  if (resolveModelSource(opts.model).name === OFFLINE_MODEL_ID) return OFFLINE_MODEL_IDENTITY;
  return modelIdentity(opts.model, opts.dtype);
}

/** How a static model reads text: the offline model (its identity says so) splits camelCase names; any other as its own folder says. */
function staticOptions(opts: Required<EmbedderOptions>): StaticModelOptions {
  return { splitCompounds: embedderIdentity(opts) === OFFLINE_MODEL_IDENTITY };
}

/**
 * Loads the configured model; if that fails and fallback is on, loads the
 * offline model instead and reports it.
 */
export async function loadWithFallback(options: EmbedderOptions, runtime: EmbedderRuntime = {}): Promise<Embedder> {
  try {
    return await loadEmbedder(options, runtime);
  } catch (error) {
    const wanted = options.model ?? EMBEDDER_DEFAULTS.model;
    // Options that are wrong are wrong for the stand-in too: said as they are, never papered over.
    if (isThreadlineError(error, 'INVALID_INPUT')) throw error;
    if ((options.fallback ?? EMBEDDER_DEFAULTS.fallback) === false || resolveModelSource(wanted).name === OFFLINE_MODEL_ID) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    runtime.onProgress?.({ phase: 'model-fallback', from: wanted, to: OFFLINE_MODEL_ID, reason });
    return standIn(await loadEmbedder({ model: options.offlineModel ?? EMBEDDER_DEFAULTS.offlineModel }, runtime), wanted, error);
  }
}

/** A load in flight or done, and everyone listening to its progress while it runs. */
interface SharedLoad { embedder: Promise<Embedder>; listeners: Set<ProgressListener>; settled: boolean }

const loads = new Map<string, SharedLoad>();

/**
 * Loads (once per model and options) and returns a ready embedder whose
 * `dims` is known. A caller that joins a load in flight (the page warmed the
 * worker before opening the index) hears its progress from then on.
 */
export function loadEmbedder(options: EmbedderOptions = {}, runtime: EmbedderRuntime = {}): Promise<Embedder> {
  const problem = embedderOptionsProblem(options);
  if (problem) return Promise.reject(problem);
  const opts = { ...EMBEDDER_DEFAULTS, ...options };
  const files = isBuiltIn(opts.model) ? (runtime.offlineFiles ?? bundledOfflineModel()) : null;
  // Everything a transformer embedder is made with (its batch size and runtime files too), so no caller gets one made for another.
  const key = `${files ? files.weights : opts.model}|${opts.device}|${opts.dtype}|${opts.batchSize}|${opts.wasmPaths}`;
  let load = loads.get(key);
  if (!load) {
    const listeners = new Set<ProgressListener>();
    const onProgress: ProgressListener = (p) => { for (const listener of listeners) listener(p); };
    const shared: SharedLoad = { listeners, settled: false, embedder: create(opts, files ?? modelFiles(opts.model, isNode() ? undefined : runtime.baseUrl), { ...runtime, onProgress }, files !== null) };
    load = shared;
    loads.set(key, shared);
    // Done or failed, nobody hears from it again; a failed load is forgotten so that a later call can retry (e.g. once back online).
    const settle = () => { shared.settled = true; listeners.clear(); };
    shared.embedder.then(settle, () => { settle(); if (loads.get(key) === shared) loads.delete(key); });
  }
  if (runtime.onProgress && !load.settled) load.listeners.add(runtime.onProgress);
  return load.embedder;
}


async function create(opts: Required<EmbedderOptions>, files: ModelFiles, runtime: EmbedderRuntime, knownStatic: boolean): Promise<Embedder> {
  if (runtime.notBefore) await runtime.notBefore;
  const started = performance.now();
  const read = { ...(runtime.onProgress ? { onProgress: runtime.onProgress } : {}) };
  // Each JSON file is parsed as soon as it arrives, while the table is still downloading.
  const readJson = (url: string, name: string, optional: boolean) =>
    readModelFile(files, url, { ...read, name, optional }).then((bytes) => (bytes ? parseModelJson(files, url, bytes) : null));
  const readWeights = () => readModelFile(files, files.weights, { ...read, name: 'model.safetensors' });
  const ready = (embedder: StaticEmbedder) => {
    runtime.onProgress?.({ phase: 'model-ready', model: opts.model, device: 'static', dims: embedder.dims, ms: performance.now() - started });
    return embedder;
  };
  // A static model's folder, read as separate files: the built-in model written without its embedded files, or a Model2Vec folder.
  const fromFolder = async (config: unknown, tokenizer: unknown, tokenizerConfig: unknown, weights: ArrayBuffer) =>
    ready(await StaticEmbedder.fromFiles({ config, tokenizer, ...(tokenizerConfig ? { tokenizerConfig } : {}), weights }, embedderIdentity(opts), staticOptions(opts)));
  if (knownStatic) {
    // The built-in model is one file: its model.safetensors carries the JSON files and the vocabulary (embedded-files.ts).
    const weights = await readWeights();
    if (!weights) throw new ThreadlineError('INTERNAL', 'a required model file read as missing');
    if (tableCarriesFiles(weights) || !files.config || !files.tokenizer) return ready(await StaticEmbedder.fromFiles({ weights }, embedderIdentity(opts), staticOptions(opts)));
    // A folder of the built-in model's name written without them (by hand, or by another tool): read as a folder.
    const [config, tokenizer, tokenizerConfig] = await Promise.all([
      readJson(files.config, 'config.json', false),
      readJson(files.tokenizer, 'tokenizer.json', false),
      files.tokenizerConfig ? readJson(files.tokenizerConfig, 'tokenizer_config.json', true) : null,
    ]);
    return fromFolder(config, tokenizer, tokenizerConfig, weights);
  }
  const folder = files as FolderFiles;
  const configBytes = await readModelFile(files, folder.config, { ...read, name: 'config.json' });
  const config = parseModelJson(files, folder.config, configBytes ?? new ArrayBuffer(0));
  if (!isStaticConfig(config)) {
    let transformers: typeof TransformersEmbedder;
    try {
      transformers = await import('./transformers-embedder');
    } catch (error) {
      throw new ThreadlineError('MODEL_LOAD_FAILED', `"${files.label}" is a transformer model, and transformers.js could not be loaded here (${error instanceof Error ? error.message : String(error)}). ${isNode() ? 'In Node, install @huggingface/transformers.' : 'A site copied with `threadline element` needs --with-transformers.'}`, { cause: error });
    }
    return transformers.loadTransformersEmbedder(opts, embedderIdentity(opts), runtime);
  }
  const [tokenizer, tokenizerConfig, weights] = await Promise.all([
    readJson(folder.tokenizer, 'tokenizer.json', false),
    readJson(folder.tokenizerConfig, 'tokenizer_config.json', true),
    readWeights(),
  ]);
  if (!weights) throw new ThreadlineError('INTERNAL', 'a required model file read as missing'); // only optional files read as null; a tokenizer.json of `null` fails in fromFiles
  return fromFolder(config, tokenizer, tokenizerConfig, weights);
}

/** Whether a table file carries its model's JSON files (their keys only: fromFiles parses them); a file that cannot be read says so in fromFiles, which reads it again. */
function tableCarriesFiles(weights: ArrayBuffer): boolean {
  try {
    return carriesFiles(readSafetensorsFile(weights).metadata);
  } catch {
    return true;
  }
}
