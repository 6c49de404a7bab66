/**
 * The language-model seam. threadline's WebLLM adapter implements it; tests
 * plug a scripted fake in here (named as a fake). Everything the conversation
 * engine needs from a model goes through these few members.
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface GenerateOptions {
  /** @default 0 for condensation; the adapter's default for answers */
  temperature?: number;
  /** Upper bound on generated tokens. */
  maxTokens?: number;
  signal?: AbortSignal;
  /** What the call is for; an adapter may route condensation to a smaller model. @default 'answer' */
  purpose?: 'answer' | 'condense' | 'summary';
}

/** Token accounting of one generation, when the engine reports it. */
export interface GenerationUsage {
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens actually prefilled (not served from a reused KV cache). */
  prefillTokens?: number;
}

export interface Llm {
  /** Model id, for traces. */
  readonly id: string;
  /** Streams the assistant's reply, piece by piece. Rejects with ABORTED when the signal fires. */
  stream(messages: readonly ChatMessage[], options?: GenerateOptions): AsyncIterable<string>;
  /** Counts tokens with the model's tokenizer, when one is loaded. */
  countTokens?(text: string): number;
  /** Context window in tokens. */
  readonly contextWindow?: number;
  /** Usage of the last finished generation, when known. */
  lastUsage?(): GenerationUsage | undefined;
}

/** Collects a whole reply (condensation, summaries). */
export async function complete(llm: Llm, messages: readonly ChatMessage[], options: GenerateOptions = {}): Promise<string> {
  let text = '';
  for await (const piece of llm.stream(messages, options)) text += piece;
  return text;
}
