import 'fake-indexeddb/auto';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAMPLE_KB } from '../../demo/sample-kb';
import { ChatSession } from '../../src/chat/session';
import { embedderIdentity, loadEmbedder } from '../../src/embedding/load-embedder';
import { ThreadlineError } from '../../src/errors';
import { mapInitProgress } from '../../src/llm/init-progress';
import { complete } from '../../src/llm/llm';
import { mapLlmError } from '../../src/llm/llm-errors';
import { DEFAULT_MODELS, pickModels } from '../../src/llm/models';
import { checkWebGpu } from '../../src/llm/webgpu';
import { WebLlm } from '../../src/llm/webllm';
import type { Progress } from '../../src/progress';
import { SessionStore } from '../../src/storage/session-store';
import { RetrievalEngine } from '../../src/worker/retrieval-engine';
import { fakeEngineFactory, type FakeEngineScript } from '../fakes/fake-mlc-engine';

const user = (content: string) => [{ role: 'user' as const, content }];

function adapter(script: FakeEngineScript = {}, condenser: string | null = 'small-model') {
  const fake = fakeEngineFactory(script);
  const progress: Progress[] = [];
  const llm = new WebLlm(fake.factory, { answerModel: 'big-model', condenserModel: condenser, onProgress: (p) => progress.push(p) });
  return { llm, fake, progress };
}

describe('WebLlm adapter over the fake web-llm engine (FakeMlcEngine)', () => {
  it('streams, records usage and maps init progress', async () => {
    const { llm, fake, progress } = adapter({ reply: () => 'Refunds take five days [1].' });
    expect(await complete(llm, user('how long?'))).toBe('Refunds take five days [1].');
    expect(llm.lastUsage()).toMatchObject({ completionTokens: 5 });
    expect(fake.engines).toHaveLength(1);
    expect(progress.filter((p) => p.phase === 'llm-load').map((p) => p.phase === 'llm-load' && [p.stage, p.fraction, p.loadedMB])).toEqual([
      ['download', 0.1, 120], ['cache', 0.5, 600], ['compile', 0.9, undefined], ['ready', 1, undefined],
    ]);
    expect(progress.at(-1)).toMatchObject({ phase: 'llm-status', status: 'ready' });
  });

  it('routes condensation to the condenser model and answers to the answer model', async () => {
    const { llm, fake } = adapter();
    await complete(llm, user('q'), { purpose: 'condense' });
    await complete(llm, user('q'), { purpose: 'answer' });
    await complete(llm, user('q'));
    expect(fake.engines[0]?.requests.map((r) => r.model)).toEqual(['small-model', 'big-model', 'big-model']);
    expect(fake.engines[0]?.models).toEqual(['big-model', 'small-model']);
  });

  it('abort mid-stream rejects with ABORTED, and the next request produces output', async () => {
    const { llm } = adapter({ reply: (_r, call) => (call === 0 ? 'one two three four five six seven eight nine ten' : 'fresh answer'), delayMs: 5 });
    const controller = new AbortController();
    const pieces: string[] = [];
    const run = (async () => { for await (const p of llm.stream(user('q'), { signal: controller.signal })) { pieces.push(p); if (pieces.length === 2) controller.abort(); } })();
    await expect(run).rejects.toMatchObject({ code: 'ABORTED' });
    expect(pieces.length).toBeLessThan(10);
    expect(await complete(llm, user('again'))).toBe('fresh answer');
  });

  it('two concurrent requests: aborting one never cancels the other', async () => {
    const { llm } = adapter({ reply: (r) => `${r.messages.at(-1)?.content ?? ''} done`, delayMs: 5 });
    // Abort the queued one: the running one completes.
    const queued = new AbortController();
    const a = complete(llm, user('alpha beta gamma'));
    const b = complete(llm, user('second'), { signal: queued.signal });
    queued.abort();
    await expect(b).rejects.toMatchObject({ code: 'ABORTED' });
    expect(await a).toBe('alpha beta gamma done');
    // Abort the running one: the queued one still produces its full output.
    const running = new AbortController();
    const c = complete(llm, user('one two three four five six'), { signal: running.signal });
    const d = complete(llm, user('waiting request'));
    setTimeout(() => running.abort(), 12);
    await expect(c).rejects.toMatchObject({ code: 'ABORTED' });
    expect(await d).toBe('waiting request done');
  });

  it('maps string rejections, device loss and out-of-memory; a lost device reloads on the next call', async () => {
    let fail: unknown = 'Error: Device was lost. This can happen due to insufficient memory or other GPU constraints.';
    const { llm, fake, progress } = adapter({ reply: () => (fail ? { reject: fail } : 'back again') });
    await expect(complete(llm, user('q'))).rejects.toMatchObject({ code: 'GPU_DEVICE_LOST' });
    expect(progress.at(-1)).toMatchObject({ phase: 'llm-status', status: 'lost' });
    fail = undefined;
    expect(await complete(llm, user('q'))).toBe('back again');
    expect(fake.engines).toHaveLength(2);
    expect(mapLlmError('Error: Out of memory when allocating 2GB', 'x').code).toBe('OUT_OF_MEMORY');
    expect(mapLlmError('some unknown failure', 'x')).toMatchObject({ code: 'LLM_FAILED', message: 'x: some unknown failure' });
    // A download the browser refused or could not make: what to check, the page's connect-src included.
    for (const refused of [new TypeError('Failed to fetch'), 'TypeError: NetworkError when attempting to fetch resource.', new TypeError('Load failed')]) {
      expect(mapLlmError(refused, 'Could not load Qwen')).toMatchObject({ code: 'MODEL_LOAD_FAILED', message: expect.stringMatching(/^Could not load Qwen: .*\. The model's files could not be downloaded: offline, or refused \(a Content-Security-Policy's connect-src must allow/) as string });
    }
    expect(mapLlmError(new Error('Failed to fetch'), 'x').code).toBe('MODEL_LOAD_FAILED');
  });

  it('a dead engine worker rejects the running request with WORKER_CRASHED; the next call starts a new engine', async () => {
    const { llm, fake } = adapter({ reply: () => 'a b c d e f g h i j k l m n o p', delayMs: 10 });
    const pieces: string[] = [];
    const run = (async () => { for await (const p of llm.stream(user('q'))) { pieces.push(p); if (pieces.length === 2) fake.kill(0, new ThreadlineError('WORKER_CRASHED', 'worker died')); } })();
    await expect(run).rejects.toMatchObject({ code: 'WORKER_CRASHED' });
    expect(await complete(llm, user('q'))).toBe('a b c d e f g h i j k l m n o p');
    expect(fake.engines).toHaveLength(2);
  });

  it('picks f16 or f32 defaults from shader-f16, and honours explicit models', () => {
    expect(pickModels({}, true)).toEqual({ answer: DEFAULT_MODELS.f16.answer, condense: DEFAULT_MODELS.f16.condense });
    expect(pickModels({}, false)).toEqual({ answer: DEFAULT_MODELS.f32.answer, condense: DEFAULT_MODELS.f32.condense });
    expect(pickModels({ model: 'Llama-3.2-1B-Instruct-q4f16_1-MLC' }, true)).toEqual({ answer: 'Llama-3.2-1B-Instruct-q4f16_1-MLC', condense: null });
    expect(pickModels({ condenserModel: false }, true).condense).toBeNull();
    expect(mapInitProgress('m', { progress: NaN, timeElapsed: 0, text: '' })).toMatchObject({ stage: 'download', fraction: 0 });
  });

  it('the capability check refuses before any download, with a reason', async () => {
    await expect(checkWebGpu(undefined)).rejects.toMatchObject({ code: 'WEBGPU_UNAVAILABLE', details: { reason: 'no-navigator-gpu' } });
    await expect(checkWebGpu({ requestAdapter: () => Promise.resolve(null) })).rejects.toMatchObject({ details: { reason: 'no-adapter' } });
    const small = { features: [], limits: { maxBufferSize: 1 << 20, maxStorageBufferBindingSize: 1 << 20 } };
    await expect(checkWebGpu({ requestAdapter: () => Promise.resolve(small) })).rejects.toMatchObject({ details: { reason: 'limits' } });
    const good = { features: new Set(['shader-f16', 'timestamp-query']), limits: { maxBufferSize: 2 ** 31, maxStorageBufferBindingSize: 2 ** 30 } };
    expect(await checkWebGpu({ requestAdapter: () => Promise.resolve(good) })).toMatchObject({ shaderF16: true, features: ['shader-f16', 'timestamp-query'] });
  });
});

describe('KV-cache-friendly prompt layout (prefill tokens from the fake engine\'s web-llm rule)', () => {
  it('a 10-turn conversation prefills far fewer tokens with the stable layout and a separate condenser', async () => {
    const model = resolve(import.meta.dirname, '../../.models/threadline-glove-30k') + '/';
    const engine = await RetrievalEngine.open({ name: 'kv-kb', modelId: embedderIdentity({ model }), chunking: {}, int8: false, weights: { dense: 1, lexical: 1 }, onModelMismatch: 'error' }, () => loadEmbedder({ model }));
    await engine.add(SAMPLE_KB.map((d) => ({ id: d.id, title: d.title, text: d.markdown, format: 'markdown' as const })));
    const questions = ["what's the refund window?", 'what about damaged items?', 'and how long does that refund take?', 'What does the Plus plan cost?',
      'does it include offline mode?', 'what about the Pro plan?', 'how do I track my order?', 'and international orders?', 'how does sync work?', 'what about conflicts?'];
    const script: FakeEngineScript = {
      reply: (r) => (r.messages[0]?.content.startsWith('You rewrite') ? `${/Last message: (.*)\n/.exec(r.messages.at(-1)?.content ?? '')?.[1] ?? ''}` : 'The passages say this is covered, see [1] and [2].'),
    };
    async function measure(layout: 'kv-stable' | 'compact', condenser: string | null) {
      const fake = fakeEngineFactory(script);
      const llm = new WebLlm(fake.factory, { answerModel: 'answer-model', condenserModel: condenser });
      const chat = await ChatSession.open(await SessionStore.open(`kv-${layout}-${condenser ?? 'none'}`), engine, llm, { promptLayout: layout, condense: 'llm' });
      const perTurn: number[] = [];
      for (const q of questions) {
        const before = fake.engines[0]?.requests.length ?? 0;
        for await (const event of chat.ask(q)) void event; // drain the turn
        const reqs = fake.engines[0]?.requests.slice(before) ?? [];
        perTurn.push(reqs.filter((r) => r.model === 'answer-model').reduce((n, r) => n + r.prefill, 0));
      }
      return perTurn;
    }
    const naive = await measure('compact', null);
    const stable = await measure('kv-stable', 'condenser-model');
    const sameModel = await measure('kv-stable', null);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    console.log(`answer-model prefill tokens per turn\n  compact layout, condense with the answer model: ${naive.join(' ')} (total ${sum(naive)})\n  stable layout, condense with the answer model:  ${sameModel.join(' ')} (total ${sum(sameModel)})\n  stable layout + separate condenser model:       ${stable.join(' ')} (total ${sum(stable)})`);
    expect(sum(stable)).toBeLessThan(sum(naive) * 0.7);
    expect(stable.slice(1).some((p, i) => p < (naive[i + 1] ?? 0))).toBe(true);
    engine.close();
  });
});

describe('token counting with the loaded model\'s tokenizer', () => {
  it('reads tokenizer.json from the model folder (web-llm\'s layout) and counts exactly once loaded', async () => {
    const { readFileSync } = await import('node:fs');
    const { loadModelTokenizer, modelFileUrl } = await import('../../src/llm/llm-tokenizer');
    expect(modelFileUrl('https://huggingface.co/mlc-ai/Qwen2.5-0.5B-Instruct-q4f16_1-MLC', 'tokenizer.json')).toBe('https://huggingface.co/mlc-ai/Qwen2.5-0.5B-Instruct-q4f16_1-MLC/resolve/main/tokenizer.json');
    // Any Hugging Face tokenizer.json works; the offline model's WordLevel one stands in for an LLM's here.
    const folder = resolve(import.meta.dirname, '../../.models/threadline-glove-30k');
    const served: string[] = [];
    const fetcher = (url: string) => {
      served.push(url);
      const file = url.endsWith('tokenizer_config.json') ? 'tokenizer_config.json' : 'tokenizer.json';
      return Promise.resolve(new Response(readFileSync(resolve(folder, file))));
    };
    const count = await loadModelTokenizer('https://models.example/llm', fetcher);
    expect(count('Hello, world!')).toBe(4);
    expect(served).toContain('https://models.example/llm/resolve/main/tokenizer.json');

    const fake = fakeEngineFactory();
    const asked: string[] = [];
    const llm = new WebLlm(fake.factory, { answerModel: 'm', condenserModel: null, tokenizer: (url) => { asked.push(url); return Promise.resolve(count); } });
    expect(llm.countTokens('Hello, world!')).toBe(4); // estimate: 13 characters / 4, rounded up
    await llm.load();
    for (let i = 0; i < 20 && !llm.tokenizerLoaded; i++) await new Promise((r) => setTimeout(r, 5));
    expect(llm.tokenizerLoaded).toBe(true);
    expect(asked).toEqual(['https://models.example/m']); // the engine's record for the answer model
    expect(llm.countTokens('refund refund refund refund refund refund refund')).toBe(7);
  });
});
