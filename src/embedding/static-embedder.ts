/**
 * Static embedding models without ONNX Runtime: tokenize, look up each token's
 * row, average, normalize. This is all the offline model computes (its ONNX
 * graph is a Gather and a mean), and it is what Model2Vec models ("potion")
 * compute, so both load from the same folder layout: `config.json`,
 * `tokenizer.json` and `model.safetensors` holding `embeddings` [vocab × dims]
 * (F32, F16 or I8), optionally `weights` [vocab] (a scale per token: Model2Vec's
 * token weights, and the per-row scales of an int8 table) and `mappings`
 * [vocab] (token id → row). Tokenization is `@huggingface/tokenizers`, the
 * same code transformers.js runs, so token counts and chunk boundaries match,
 * or for word-level vocabularies (the offline model's) a fast path that gives
 * the same ids without copying the vocabulary (word-level-tokenizer.ts).
 */
import { TimeSlice } from '../util/time-slice';
import { splitCompounds } from './compound-words';
import { ThreadlineError, throwIfAborted } from '../errors';
import type { Embedder } from './embedder';
import { embeddedFiles, type EmbeddedFiles } from './embedded-files';
import { readSafetensorsFile, toFloat32, type Tensor } from './safetensors';
import { readVocabTable, type VocabTable } from './vocab-table';
import { tokenIds, wordLevelTokenIds, type TokenIds } from './word-level-tokenizer';

export interface StaticModelFiles {
  /** config.json; absent: the one model.safetensors carries (embedded-files.ts). */
  config?: unknown;
  /** tokenizer.json; absent: the one model.safetensors carries, with its vocabulary as tensors (vocab-table.ts). */
  tokenizer?: unknown;
  /** tokenizer_config.json, when the folder has one (its `model_max_length` caps the input). */
  tokenizerConfig?: unknown;
  weights: ArrayBuffer;
}

/** True when a folder's config.json describes a static model this embedder runs. */
export function isStaticConfig(config: unknown): boolean {
  return !!config && typeof config === 'object' && (config as { model_type?: unknown }).model_type === 'model2vec';
}

export interface StaticModelOptions {
  /**
   * Read a camelCase name the vocabulary lacks as its words (compound-words.ts). The offline model's
   * loader sets it: its vectors and identity are made that way. Other static models keep their own. @default false
   */
  splitCompounds?: boolean;
}

const DEFAULT_MAX_TOKENS = 512;
/** Characters read per token at most: bounds tokenizer work on huge inputs without changing any realistic result. */
const CHARS_PER_TOKEN_CAP = 64;

export class StaticEmbedder implements Embedder {
  readonly dims: number;
  readonly maxTokens: number;
  private readonly unkId: number | undefined;

  private constructor(
    readonly modelId: string,
    private readonly tokenizer: TokenIds,
    /** The rows as stored: an int8 table stays int8 (a quarter of the memory), scaled per row as it is read. */
    private readonly table: Float32Array | Int8Array,
    /** Each row's multiplier (Model2Vec token weights, or an int8 table's scales), or null for 1. */
    private readonly scale: Float32Array | null,
    dims: number,
    private readonly rowOf: Int32Array | null,
    private readonly normalize: boolean,
    maxTokens: number,
    private readonly splitsCompounds: boolean,
  ) {
    this.dims = dims;
    this.maxTokens = maxTokens;
    this.unkId = tokenizer.unkId;
  }

  /** Whether the vocabulary has `word` as one token (the tokenizer lower-cases it first). */
  private readonly knows = (word: string): boolean => {
    const ids = this.tokenizer.encode(word);
    return ids.length === 1 && ids[0] !== undefined && ids[0] !== this.unkId;
  };

  /** Builds the embedder from a folder's files; any inconsistency is MODEL_LOAD_FAILED naming the problem. */
  static async fromFiles(files: StaticModelFiles, modelId: string, options: StaticModelOptions = {}): Promise<StaticEmbedder> {
    const fail = (why: string): never => { throw new ThreadlineError('MODEL_LOAD_FAILED', `Static model "${modelId}": ${why}`); };
    let tensors: Map<string, Tensor>;
    let embedded: EmbeddedFiles | null;
    let table: VocabTable | null;
    try {
      const file = readSafetensorsFile(files.weights);
      tensors = file.tensors;
      embedded = embeddedFiles(file.metadata);
      table = readVocabTable(tensors);
    } catch (error) {
      return fail(`model.safetensors is unreadable (${error instanceof Error ? error.message : String(error)})`);
    }
    // A file given beside the table wins over the copy inside it (a Model2Vec folder's own tokenizer.json).
    const config = files.config !== undefined ? files.config : embedded?.config;
    const tokenizerJson = files.tokenizer !== undefined ? files.tokenizer : embedded?.tokenizer;
    const tokenizerConfig = files.tokenizerConfig ?? embedded?.tokenizerConfig;
    if (files.config === undefined && !isStaticConfig(config)) return fail(embedded ? 'the config.json inside model.safetensors is not a static model\'s' : 'there is no config.json, and model.safetensors carries none');
    const embeddings = tensors.get('embeddings') ?? tensors.get('0');
    if (!embeddings || embeddings.shape.length !== 2) return fail('model.safetensors has no 2-D "embeddings" tensor');
    if (!['F32', 'F16', 'I8'].includes(embeddings.dtype)) return fail(`embeddings of dtype ${embeddings.dtype} are not supported (F32, F16, I8)`);
    const [rows = 0, dims = 0] = embeddings.shape;
    if (rows < 1 || dims < 1 || dims > 4096) return fail(`embeddings shape ${rows} × ${dims} is not usable`);
    let tokenizer: TokenIds;
    try {
      if (!tokenizerJson || typeof tokenizerJson !== 'object') throw new Error(tokenizerJson === undefined ? 'there is none, and model.safetensors carries none' : 'not a JSON object');
      const vocab = (tokenizerJson as { model?: { vocab?: unknown } }).model?.vocab;
      if (vocab === undefined && table) {
        tokenizer = wordLevelTokenIds(tokenizerJson, tokenizerConfig ?? {}, table) ?? (() => { throw new Error('its vocabulary is in model.safetensors, which only a word-level tokenizer with BERT normalization can use'); })();
      } else if (vocab === undefined && embedded && tokenizerJson === embedded.tokenizer) {
        throw new Error('the one model.safetensors carries has no vocabulary, and the file has no vocabulary tensors');
      } else {
        tokenizer = await tokenIds(tokenizerJson, tokenizerConfig ?? {});
      }
    } catch (error) {
      return fail(`tokenizer.json is unusable (${error instanceof Error ? error.message : String(error)})`);
    }
    const vocab = tokenizer.vocabSize;
    const mappings = tensors.get('mappings');
    let rowOf: Int32Array | null = null;
    if (mappings) {
      const map = toFloat32(mappings);
      if (mappings.shape.length !== 1 || !['I32', 'I64'].includes(mappings.dtype)) return fail('"mappings" must be a 1-D integer tensor');
      rowOf = Int32Array.from(map);
      if (rowOf.some((r) => r < 0 || r >= rows)) return fail('"mappings" points outside the embeddings');
    } else if (rows < vocab) {
      return fail(`the tokenizer has ${vocab} tokens but the table only ${rows} rows`);
    }
    const rowTable = embeddings.dtype === 'I8' ? new Int8Array(embeddings.bytes.buffer, embeddings.bytes.byteOffset, rows * dims) : toFloat32(embeddings);
    const weights = tensors.get('weights');
    let scale: Float32Array | null = null;
    if (weights) {
      if (weights.shape.length !== 1 || !['F32', 'F16'].includes(weights.dtype) || weights.shape[0] !== rows) {
        return fail(`"weights" must be a 1-D float tensor of ${rows} values`);
      }
      scale = toFloat32(weights);
      if (!allFinite(scale)) return fail('the weights hold non-finite values');
    }
    if (rowTable instanceof Float32Array && !allFinite(rowTable)) return fail('the embeddings hold non-finite values');
    const maxLength = (tokenizerConfig as { model_max_length?: unknown } | undefined)?.model_max_length;
    const maxTokens = typeof maxLength === 'number' && Number.isFinite(maxLength) && maxLength > 0 ? Math.min(maxLength, 1 << 20) : DEFAULT_MAX_TOKENS;
    return new StaticEmbedder(modelId, tokenizer, rowTable, scale, dims, rowOf, (config as { normalize?: unknown } | null | undefined)?.normalize !== false, maxTokens, options.splitCompounds === true);
  }

  /**
   * Of the text as written: the chunker's budget (256 tokens by default) is a length, and the names split
   * when embedding add a token per extra word, within the model's 512-token input.
   */
  countTokens(text: string): number {
    return this.tokenizer.count(text);
  }

  /**
   * A stretch of about SLICE_MS at a time (time-slice.ts): a group of thousands of long chunks takes
   * half a second here, which a search or an abort would otherwise wait out.
   */
  async embed(texts: readonly string[], options: { signal?: AbortSignal } = {}): Promise<Float32Array> {
    const out = new Float32Array(texts.length * this.dims);
    const slice = new TimeSlice(options.signal);
    for (let t = 0; t < texts.length; t++) {
      if (t % 64 === 0) throwIfAborted(options.signal);
      if (slice.due()) await slice.next();
      this.embedInto(texts[t] ?? '', out, t * this.dims);
    }
    return out;
  }

  private ids(text: string): (number | undefined)[] {
    return this.tokenizer.encode(text);
  }

  private embedInto(text: string, out: Float32Array, at: number): void {
    if (typeof text !== 'string') throw new ThreadlineError('EMBEDDING_FAILED', 'only strings can be embedded');
    const capped = text.length > this.maxTokens * CHARS_PER_TOKEN_CAP ? text.slice(0, this.maxTokens * CHARS_PER_TOKEN_CAP) : text;
    const read = this.splitsCompounds ? splitCompounds(capped, this.knows) : capped;
    const ids = this.ids(read).slice(0, this.maxTokens); // truncate first, as the transformer pipeline does
    const { dims, table, rowOf, scale } = this;
    let count = 0;
    for (const id of ids) {
      if (id === this.unkId) continue; // unknown words carry no meaning (Model2Vec drops them too)
      if (id === undefined) continue;
      const row = rowOf ? rowOf[id] : id;
      if (row === undefined || row < 0 || row * dims >= table.length) continue;
      const base = row * dims;
      const w = scale ? (scale[row] ?? 0) : 1;
      for (let d = 0; d < dims; d++) out[at + d] = (out[at + d] ?? 0) + (table[base + d] ?? 0) * w;
      count++;
    }
    if (count === 0) return;
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += (out[at + d] ?? 0) ** 2;
    const factor = this.normalize ? (norm > 0 ? 1 / Math.sqrt(norm) : 0) : 1 / count;
    for (let d = 0; d < dims; d++) out[at + d] = (out[at + d] ?? 0) * factor;
  }
}

function allFinite(values: Float32Array): boolean {
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i])) return false;
  return true;
}
