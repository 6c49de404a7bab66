/**
 * The retrieval contract: one interface, two implementations. `RetrievalEngine`
 * runs it in-process (Node, the CLI, tests, and inside the worker);
 * `wrapRetriever` gives the page the same interface over a worker, with every
 * method carried alike (envelope, signal, abort, crash race). A caller cannot
 * tell which one it holds. Adding an operation means adding it here (and its
 * arity to RETRIEVER_METHODS) and implementing it in the engine.
 */
import type { ThreadlineDocument } from './document';
import type { AddFailure } from './ingest/validate';
import type { ProgressListener } from './progress';
import type { SearchFilter } from './retrieval/filter';
import type { DocumentInfo, SearchHit, SearchMode } from './retrieval/memory-index';

/** A lexical term (as the user wrote it; stemmed by the index) with its weight. */
export interface WeightedTerm {
  term: string;
  /** Multiplies the term's BM25 contribution; the query's own words weigh 1. */
  weight: number;
}

/**
 * What a search looks for. `text` is embedded for the dense side and its words
 * weigh 1 on the lexical side; `terms` add weighted words to the lexical side
 * only (history words below the turn's own); `hedge` also ranks another text
 * (the question as typed; from the condenser, the previous question with a
 * pronoun's turn, or an ellipsis's fragment) and fuses the two rankings in the
 * worker, the hedge's at `hedgeWeight`.
 */
export interface Query {
  text: string;
  terms?: readonly WeightedTerm[];
  hedge?: string;
  /** Weight of the hedge's ranking in the fusion, the main ranking's being 1: more than 0, at most 1. Only with `hedge`. @default 0.5 */
  hedgeWeight?: number;
  /**
   * Documents the conversation is reading (the previous answer's main
   * source): in hybrid search their chunks gain `weight` standard deviations
   * of the fused scores (a conversation tends to stay in a document while it
   * moves across its sections), except the chunks in `except` (the passage the
   * answer just quoted, which competes on its own evidence alone).
   */
  context?: { docIds: readonly string[]; weight: number; except?: readonly number[] };
}

/** Every long call takes a signal; calls that report progress take a listener. */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface TermStatsOptions extends CallOptions {
  /** Also read how the chunks write each word (TermStats' `form`): a few chunks per word, so asked for only when needed. @default false */
  forms?: boolean;
}

export interface AddOptions extends CallOptions {
  onProgress?: ProgressListener;
  /**
   * Leave out unusable documents (reported in `AddResult.failed`) instead of
   * refusing the whole batch with INVALID_INPUT. @default false
   */
  skipInvalid?: boolean;
}

export interface SearchOptions extends CallOptions {
  /** @default 5 */
  k?: number;
  /** @default 'hybrid' */
  mode?: SearchMode;
  filter?: SearchFilter;
  /**
   * What a hybrid search does while the embedding model is still loading (a first visit downloads it): `'wait'`
   * for it, or `'lexical'`: rank by words alone at once, each hit marked `lexicalOnly` (chat sessions do, so a
   * visitor on a slow connection is answered before the model arrives). A model that failed to load is loaded
   * again and waited for either way, so its error is reported. @default 'wait'
   */
  modelPending?: 'wait' | 'lexical';
}

export interface AddResult {
  /** Documents whose chunks were (re)written. */
  added: number;
  /** Documents skipped because their content hash was unchanged. */
  unchanged: number;
  /** Chunks written. */
  chunks: number;
  /** Ids of documents that had no text to index (stored with zero chunks). */
  empty: string[];
  /** Documents left out as unusable (only with `skipInvalid`; otherwise the call fails). */
  failed: AddFailure[];
}

export interface LoadOptions extends CallOptions {
  /** Download progress (`index-download` events). */
  onProgress?: ProgressListener;
  /**
   * Follow HTTP redirects when fetching the file. Off by default: a redirect
   * could send the request to another origin, and zero egress must not depend
   * on the host's configuration; point `load` at the file's final URL.
   * @default false
   */
  followRedirects?: boolean;
  /**
   * When this name already holds an index loaded from another file (another
   * URL, its query and fragment aside) or documents added with `add()`:
   * `'replace'` it, or fail with `NAME_IN_USE` and leave it as it is. The
   * element uses `'error'` to keep pages with different index files on one
   * origin apart. An empty index, and one loaded before the source was
   * recorded, is replaced either way.
   * @default 'replace'
   */
  onOtherSource?: 'replace' | 'error';
}

export interface LoadResult {
  /** False when the same file was already loaded (a no-op). */
  loaded: boolean;
  docs: number;
  chunks: number;
}

export interface IndexStats {
  name: string;
  modelId: string;
  dims: number;
  docs: number;
  chunks: number;
  generation: number;
  shards: number;
  vectorBytes: number;
  /** Chunk texts embedded by this engine since it started (0 after a pure reload). */
  embeddedChunks: number;
  /** Queries embedded by this engine since it started. */
  embeddedQueries: number;
  /** Documents removed because their stored records were damaged (see the `repair` progress event); absent when none. */
  repairedDocs?: string[];
  /** The prebuilt index file the index was loaded from (its URL without query or fragment); absent when none was, or not recorded. */
  source?: string;
}

/**
 * How much each word can say on its own in this index: its best single-word
 * BM25 score over the chunks (as Historical Query Expansion scores history
 * words), and the reference it is compared with.
 */
export interface TermStats {
  /**
   * One entry per input word, in order: the word's index term (stem), its
   * importance, and with `forms: true` its `form`: the way the chunks write
   * the word inside their sentences when that is not lower case (a name:
   * "Netflix", "US"), absent otherwise.
   */
  terms: { word: string; term: string; importance: number; form?: string }[];
  /** The importance of a word found once in one chunk of average length: the index's "very specific". */
  reference: number;
  /** Chunks in the index. */
  chunks: number;
}

export interface Retriever {
  /** Chunks, embeds and stores documents; unchanged ones are skipped, changed ones replaced atomically. */
  add(docs: readonly ThreadlineDocument[], options?: AddOptions): Promise<AddResult>;
  /**
   * Loads a prebuilt index file (`threadline index …`): fetched once, verified
   * (format, hash, model), then it replaces this index atomically; the same
   * file again is a no-op. A corrupt or mismatched file fails with
   * CORRUPT_INDEX or MODEL_MISMATCH and leaves the stored index unchanged.
   */
  load(url: string, options?: LoadOptions): Promise<LoadResult>;
  /** Removes documents by id; returns the number of chunks removed. */
  remove(ids: readonly string[], options?: CallOptions): Promise<number>;
  /** Removes every document of this name. */
  clear(options?: CallOptions): Promise<void>;
  search(query: string | Query, options?: SearchOptions): Promise<SearchHit[]>;
  /** Importance of words in this index (see TermStats). */
  termStats(words: readonly string[], options?: TermStatsOptions): Promise<TermStats>;
  stats(options?: CallOptions): Promise<IndexStats>;
  /** The stored documents (id, title, url, chunk count), sorted by id. */
  documents(options?: CallOptions): Promise<DocumentInfo[]>;
  /** Embeds texts with the index's model (packed rows, normalized). */
  embed(texts: readonly string[], options?: CallOptions): Promise<Float32Array>;
}

/**
 * Each method's count of data arguments before its options: the transport
 * splits calls with it, so a call that omits its options is carried the same.
 */
export const RETRIEVER_METHODS = Object.freeze({
  add: 1, load: 1, remove: 1, clear: 0, search: 1, termStats: 1, stats: 0, documents: 0, embed: 1,
} as const satisfies Record<keyof Retriever, number>);

export type RetrieverMethod = keyof typeof RETRIEVER_METHODS;
