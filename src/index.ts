/**
 * threadline's public API for pages: the factory, its options and result types,
 * errors, and the seams (Llm, Embedder). Rendering is `threadline/render`,
 * the element `threadline/element`, and tooling that runs at build time or in
 * Node (index files, parsers, the embedder loader) `threadline/build`.
 * Every export is listed here explicitly.
 */
import { bundleTurnRules } from './chat/turn-rules-bundled';

// The condenser's code comes with the library: an app's bundler packs it, with no chunk of ours to load at run time.
bundleTurnRules();
export { createThreadline, THREADLINE_DEFAULTS } from './threadline';
export { deleteIndex } from './storage/delete-index';
export type { DeleteIndexOptions } from './storage/delete-index';
export type { Threadline, ThreadlineOptions } from './threadline';
export { RETRIEVER_METHODS } from './retriever';
export type { AddOptions, AddResult, CallOptions, IndexStats, LoadOptions, LoadResult, Query, Retriever, SearchOptions, TermStats, TermStatsOptions, WeightedTerm } from './retriever';
export type { DocumentFormat, ParsedDocument, Section, ThreadlineDocument } from './document';
export type { DocumentInfo, HybridWeights, SearchHit, SearchMode } from './retrieval/memory-index';
export type { MetadataValue, SearchFilter } from './retrieval/filter';
export { CHUNK_DEFAULTS } from './retrieval/chunker';
export type { ChunkOptions } from './retrieval/chunker';
export { DOCUMENT_LIMITS } from './ingest/validate';
export type { AddFailure } from './ingest/validate';
export { ThreadlineError, isThreadlineError } from './errors';
export { isRetryable } from './retryable';
export type { ThreadlineErrorCode, ThreadlineErrorOptions } from './errors';
export type { Progress, ProgressListener } from './progress';
export type { Embedder } from './embedding/embedder';
export { EMBEDDER_DEFAULTS } from './embedding/embedder-options';
export type { EmbedderDevice, EmbedderDtype, EmbedderOptions } from './embedding/embedder-options';
export { OFFLINE_MODEL_ID, OFFLINE_MODEL_DIMS, OFFLINE_MODEL_PATH } from './embedding/offline-model';
export { ChatSession, CHAT_DEFAULTS, MAX_QUESTION_CHARS } from './chat/session';
export { HEDGE_RAW_WEIGHT, hedgedFusion } from './retrieval/fusion';
export type { SessionRetriever } from './chat/session';
export type { AnswerMode, ChatOptions, CondenseMode, Turn, TurnEvent, TurnTimings } from './chat/types';
export type { Citation } from './chat/citations';
export type { ExtractivePassage, ExtractiveSentence } from './chat/extractive';
export { decide } from './chat/rules/gate';
export { passageLabel } from './chat/prompts';
export type { GateDecision, GateReason } from './chat/rules/gate';
export { MEMORY_DEFAULTS } from './chat/memory';
export type { MemoryOptions } from './chat/memory';
export type { PendingQuestion, SessionInfo } from './storage/session-store';
export { complete } from './llm/llm';
export type { ChatMessage, GenerateOptions, GenerationUsage, Llm } from './llm/llm';
export { WebLlm } from './llm/webllm';
export type { EngineFactory, EngineHandle, EngineLike, WebLlmOptions } from './llm/webllm';
export { webWorkerEngineFactory } from './llm/webllm-engine';
export type { LlmCacheBackend, WebLlmEngineOptions } from './llm/webllm-engine';
export { resolveLlm, isLlm } from './llm/resolve-llm';
export type { LlmOption, WebLlmConfig } from './llm/resolve-llm';
export { DEFAULT_MODELS, pickModels } from './llm/models';
export type { LlmModelOptions } from './llm/models';
export { checkWebGpu } from './llm/webgpu';
export type { WebGpuCapability } from './llm/webgpu';
