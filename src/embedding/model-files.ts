/**
 * Where a model's files are and how they are read. A model is named by a hub
 * id (`minishlab/potion-base-8M`), a folder URL or path, or by explicit file
 * URLs (what a bundler produces for the built-in model: hashed names, no folder).
 * Every failure says which URL failed and what to do about it.
 */
import { ThreadlineError, toThreadlineError } from '../errors';
import type * as FsPromises from 'node:fs/promises';
import type { ProgressListener } from '../progress';
import { resolveModelSource } from './model-source';
import { readStream } from '../util/read-stream';
import { dataUrlBytes } from '../util/data-url';
import { labelledAsPage, startsLikePage } from '../util/served-page';
import { isNode } from '../util/runtime';

export interface ModelFiles {
  /** What the model is called in messages. */
  label: string;
  /** The JSON files; a model whose model.safetensors carries them (embedded-files.ts, the built-in model) may leave them out. */
  config?: string;
  tokenizer?: string;
  tokenizerConfig?: string;
  /** The static table (model.safetensors). */
  weights: string;
  /** Added to every load error: how to make this model reachable. */
  hint?: string;
}

/** A folder's files: every one named, since what the folder holds is known only once config.json is read. */
export type FolderFiles = ModelFiles & Required<Pick<ModelFiles, 'config' | 'tokenizer' | 'tokenizerConfig'>>;

const HUB = 'https://huggingface.co';

export function modelFiles(model: string, baseUrl?: string): FolderFiles {
  const source = resolveModelSource(model, baseUrl);
  const folder = source.localBase === null ? `${HUB}/${source.name}/resolve/main/` : `${source.localBase}${source.name}/`;
  const at = (file: string) => (isUrl(folder) ? new URL(file, folder).href : `${folder}${file}`);
  return {
    label: model,
    config: at('config.json'),
    tokenizer: at('tokenizer.json'),
    tokenizerConfig: at('tokenizer_config.json'),
    weights: at('model.safetensors'),
  };
}

function isUrl(ref: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(ref);
}


export interface ReadOptions {
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  /** A missing optional file reads as null instead of failing. */
  optional?: boolean;
  /** The file's name in progress events (a bundler may have inlined it as a data: URL). */
  name?: string;
}

/**
 * Node's fs/promises, without an import a bundler could see: this module is in every browser bundle, and an
 * `import('node:fs/promises')` there, however marked, made Vite 5 to 7 warn in every app's build that it had
 * "externalized" a Node module (a minifier puts any constant specifier back), and webpack cannot read node: URLs at all.
 * `process.getBuiltinModule` is Node 20.16's (package.json's engines).
 */
function nodeFs(): typeof FsPromises {
  const builtin = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  if (typeof builtin !== 'function') throw new ThreadlineError('MODEL_LOAD_FAILED', 'Reading a model from disk needs Node 20.16 or newer (process.getBuiltinModule).');
  return builtin('node:fs/promises') as typeof FsPromises;
}

/** Reads one file of a model, from the network or (in Node) the file system. */
export async function readModelFile(files: ModelFiles, url: string, options: ReadOptions = {}): Promise<ArrayBuffer | null> {
  // The hint (how to make the model reachable) is for a file that is not there; a network that failed says its own.
  const fail = (why: string, cause?: unknown, reason?: 'page' | 'network'): never => {
    const hint = files.hint && reason !== 'network' ? ` ${files.hint}` : '';
    throw new ThreadlineError('MODEL_LOAD_FAILED', `Could not load the embedding model "${files.label}": ${url} ${why}.${hint}`, {
      details: { url, ...(reason ? { reason } : {}) },
      ...(cause === undefined ? {} : { cause }),
    });
  };
  // Inlined by a bundler: read as it is, never fetched (a page's connect-src 'self' refuses data: URLs).
  if (/^data:/i.test(url)) {
    const bytes = dataUrlBytes(url);
    if (!bytes) return fail('is not a well-formed data: URL');
    return bytes.buffer as ArrayBuffer;
  }
  if (isNode() && !/^https?:/i.test(url)) {
    const { readFile } = nodeFs();
    try {
      const path = url.startsWith('file:') ? new URL(url) : url;
      const data = await readFile(path, { signal: options.signal });
      return data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
    } catch (error) {
      if (options.signal?.aborted) throw toThreadlineError(error, 'ABORTED', 'aborted');
      if ((error as { code?: string }).code === 'ENOENT' && options.optional) return null;
      return fail('could not be read', error);
    }
  }
  let response: Response;
  try {
    response = await fetch(url, { signal: options.signal ?? null });
  } catch (error) {
    if (options.signal?.aborted) throw new ThreadlineError('ABORTED', 'The model load was aborted', { cause: error });
    return fail('could not be fetched (offline, blocked, or a cross-origin file without CORS)', error, 'network');
  }
  if (!response.ok) {
    if (options.optional && response.status === 404) return null;
    return fail(`answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
  }
  // A static host answers a missing file with a page and status 200 (a single-page-app fallback, a custom 404 page):
  // said as missing, whether the page is labelled as one or, by a host that labels every file alike, only looks like one.
  const page = (): null => {
    if (options.optional) return null;
    return fail('answered with a web page, not the model file: the file is probably missing and the host serves a page in its place (a single-page-app fallback or a custom 404 page)', undefined, 'page');
  };
  if (labelledAsPage(response.headers)) {
    void response.body?.cancel().catch(() => undefined);
    return page();
  }
  const bytes = await readBody(response, url, files, options, fail);
  return startsLikePage(new Uint8Array(bytes, 0, Math.min(bytes.byteLength, 1024))) ? page() : bytes;
}

async function readBody(response: Response, url: string, files: ModelFiles, options: ReadOptions, fail: (why: string, cause?: unknown, reason?: 'network') => never): Promise<ArrayBuffer> {
  const total = Number(response.headers.get('content-length')) || 0;
  if (!response.body || !options.onProgress) {
    try {
      return await response.arrayBuffer();
    } catch (error) {
      if (options.signal?.aborted) throw new ThreadlineError('ABORTED', 'The model load was aborted', { cause: error });
      return fail('was cut off while downloading', error, 'network');
    }
  }
  const onProgress = options.onProgress;
  const file = options.name ?? url.slice(url.lastIndexOf('/') + 1);
  try {
    const bytes = await readStream(response.body, {
      onBytes: (loaded) => onProgress({ phase: 'model-download', model: files.label, file, loaded, total, fraction: total > 0 ? Math.min(1, loaded / total) : 0 }),
    });
    return bytes.buffer as ArrayBuffer;
  } catch (error) {
    if (options.signal?.aborted) throw new ThreadlineError('ABORTED', 'The model load was aborted', { cause: error });
    return fail('was cut off while downloading', error, 'network');
  }
}

/** Parses a JSON model file; a file that is not JSON fails naming its URL. */
export function parseModelJson(files: ModelFiles, url: string, data: ArrayBuffer): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(data));
  } catch (error) {
    throw new ThreadlineError('MODEL_LOAD_FAILED', `Could not load the embedding model "${files.label}": ${url} is not JSON.${files.hint ? ` ${files.hint}` : ''}`, { details: { url }, cause: error });
  }
}
