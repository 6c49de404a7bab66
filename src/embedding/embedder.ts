/**
 * The embedding seam. The retrieval worker uses a transformers.js embedder;
 * tests may plug a deterministic fake in here (and say so in their names).
 */
export interface Embedder {
  /** Identity recorded in the index manifest; a different id means incompatible vectors. */
  readonly modelId: string;
  /** Length of each vector. */
  readonly dims: number;
  /**
   * Embeds texts into one packed, row-major Float32Array of `texts.length × dims`,
   * each row L2-normalized (a text with no known token gives a zero row).
   */
  embed(texts: readonly string[], options?: { signal?: AbortSignal }): Promise<Float32Array>;
  /** Token count under the model's own tokenizer, without special tokens. */
  countTokens(text: string): number;
  /** Longest input in tokens the model reads; longer inputs are truncated. */
  readonly maxTokens: number;
}
