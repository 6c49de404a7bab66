/**
 * FakeLlm: a scripted fake of the Llm interface, for tests only. It records
 * every prompt, tells condense calls from answer calls by their system
 * prompt, and replies from a script: text (streamed in word pieces), an Error
 * to throw, or pieces with a delay (to abort mid-stream).
 */
import { ThreadlineError } from '../../src/errors';
import type { ChatMessage, GenerateOptions, Llm } from '../../src/llm/llm';

export type FakeReply = string | Error | { pieces: string[]; delayMs?: number };
export type CallKind = 'condense' | 'answer' | 'summary';

export interface FakeScript {
  condense?: (lastMessage: string, call: number) => FakeReply;
  answer?: (lastMessage: string, call: number) => FakeReply;
  summary?: (lastMessage: string, call: number) => FakeReply;
}

export function callKind(messages: readonly ChatMessage[]): CallKind {
  const system = messages[0]?.content ?? '';
  if (system.startsWith('You rewrite')) return 'condense';
  if (system.startsWith('You keep a short running summary')) return 'summary';
  return 'answer';
}

export class FakeLlm implements Llm {
  readonly id = 'fake-scripted-llm';
  readonly contextWindow = 4096;
  readonly calls: { kind: CallKind; messages: ChatMessage[]; options: GenerateOptions }[] = [];

  constructor(private readonly script: FakeScript = {}) {}

  /** Word-ish token count: deterministic, roughly like a real tokenizer. */
  countTokens(text: string): number {
    return (text.match(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu) ?? []).length;
  }

  prompts(kind: CallKind): ChatMessage[][] {
    return this.calls.filter((c) => c.kind === kind).map((c) => c.messages);
  }

  async *stream(messages: readonly ChatMessage[], options: GenerateOptions = {}): AsyncIterable<string> {
    const kind = callKind(messages);
    this.calls.push({ kind, messages: [...messages], options });
    const last = messages.at(-1)?.content ?? '';
    const n = this.calls.filter((c) => c.kind === kind).length - 1;
    const reply = this.script[kind]?.(last, n) ?? (kind === 'answer' ? 'According to the passages, see [1].' : last);
    if (reply instanceof Error) throw reply;
    const pieces = typeof reply === 'string' ? reply.split(/(?<=\s)/) : reply.pieces;
    const delayMs = typeof reply === 'object' && !(reply instanceof Error) ? reply.delayMs ?? 0 : 0;
    for (const piece of pieces) {
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      if (options.signal?.aborted) throw new ThreadlineError('ABORTED', 'The generation was aborted.');
      yield piece;
    }
  }
}
