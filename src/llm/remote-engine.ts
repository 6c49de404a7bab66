/**
 * The page's side of the LLM worker (llm-host.ts): an EngineLike whose
 * completions stream from the worker. Chunks the worker pushes are queued
 * until the adapter pulls them; an error in the worker ends the stream with
 * that error.
 */
import * as Comlink from 'comlink';
import type { ChatCompletionChunk, ChatCompletionRequestStreaming } from '@mlc-ai/web-llm';
import type { LlmHostPort } from './llm-host';
import type { EngineLike } from './webllm';

export function remoteEngine(host: Comlink.Remote<LlmHostPort>): EngineLike {
  return {
    chat: { completions: { create: (request) => Promise.resolve(stream(host, request)) } },
    interruptGenerate: () => host.interrupt(),
    unload: () => host.unload(),
  };
}

function stream(host: Comlink.Remote<LlmHostPort>, request: ChatCompletionRequestStreaming): AsyncIterable<ChatCompletionChunk> {
  const queue: ChatCompletionChunk[] = [];
  const state: { end: { error: unknown } | 'done' | null } = { end: null };
  let wake: (() => void) | null = null;
  const notify = () => { wake?.(); wake = null; };
  host.generate(request, Comlink.proxy((chunk: ChatCompletionChunk) => { queue.push(chunk); notify(); })).then(
    () => { state.end = 'done'; notify(); },
    (error: unknown) => { state.end = { error }; notify(); },
  );
  return (async function* chunks(): AsyncGenerator<ChatCompletionChunk> {
    for (;;) {
      const next = queue.shift();
      if (next) { yield next; continue; }
      if (state.end === 'done') return;
      if (state.end) throw state.end.error;
      await new Promise<void>((r) => { wake = r; });
    }
  })();
}
