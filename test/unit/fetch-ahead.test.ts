import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EmbedderRuntime } from '../../src/embedding/embedder-options';
import type { Progress } from '../../src/progress';
import { MAX_INDEX_BYTES } from '../../src/prebuilt/format';
import { fetchAhead, fetchPrebuilt } from '../../src/worker/fetch-prebuilt';
import { listenForWarm } from '../../src/worker/warm';

const calls: string[] = [];
function serve(status = 200, body = new Uint8Array([1, 2, 3])) {
  vi.stubGlobal('fetch', (url: string) => {
    calls.push(url);
    return Promise.resolve(new Response(status === 200 ? body : 'no', { status }));
  });
}

afterEach(() => { calls.length = 0; vi.unstubAllGlobals(); });

describe('index files fetched ahead (the warm-up message)', () => {
  it('the first load() of the URL takes the response fetched ahead; the next one fetches again', async () => {
    serve();
    fetchAhead('https://site.example/a.tlix');
    expect(calls).toEqual(['https://site.example/a.tlix']);
    expect([...await fetchPrebuilt('https://site.example/a.tlix')]).toEqual([1, 2, 3]);
    expect(calls).toHaveLength(1);
    await fetchPrebuilt('https://site.example/a.tlix');
    expect(calls).toHaveLength(2);
  });

  it('a load() that follows redirects, or of another URL, does not take it', async () => {
    serve();
    fetchAhead('https://site.example/b.tlix');
    await fetchPrebuilt('https://site.example/b.tlix', undefined, true);
    await fetchPrebuilt('https://site.example/other.tlix');
    expect(calls).toEqual(['https://site.example/b.tlix', 'https://site.example/b.tlix', 'https://site.example/other.tlix']);
  });

  it('a failure fetched ahead is the load()\'s failure, typed; an abort while waiting is ABORTED', async () => {
    serve(503);
    fetchAhead('https://site.example/c.tlix');
    await expect(fetchPrebuilt('https://site.example/c.tlix')).rejects.toMatchObject({ code: 'MODEL_LOAD_FAILED', message: expect.stringContaining('HTTP 503') as string });
    serve();
    fetchAhead('https://site.example/d.tlix');
    await expect(fetchPrebuilt('https://site.example/d.tlix', AbortSignal.abort())).rejects.toMatchObject({ code: 'ABORTED' });
  });

  it('the warm message fetches only absolute http(s) URLs, at most four, and ignores other messages', () => {
    serve();
    let handler: ((event: Event) => void) | undefined;
    listenForWarm({ addEventListener: (_type: string, h: EventListenerOrEventListenerObject) => { handler = h as (event: Event) => void; } }, {});
    const send = (data: unknown) => handler?.({ data } as MessageEvent);
    send({ type: 'something-else', prefetch: ['https://site.example/x.tlix'] });
    send({ type: 'threadline-warm', embedder: null, prefetch: ['javascript:alert(1)', '/relative.tlix', 42, 'https://site.example/1.tlix', 'http://site.example/2.tlix', 'https://site.example/3.tlix', 'https://site.example/4.tlix', 'https://site.example/5.tlix'] });
    expect(calls).toEqual(['https://site.example/1.tlix', 'http://site.example/2.tlix', 'https://site.example/3.tlix', 'https://site.example/4.tlix']);
  });
});

describe('the model after the index (the warm-up message)', () => {
  it('with index files to fetch ahead, the model\'s file is fetched only once they are in; without, at once', async () => {
    const model = new Uint8Array(readFileSync(resolve(import.meta.dirname, '../../.models/threadline-glove-30k/model.safetensors')));
    let release!: () => void;
    const held = new Promise<void>((ok) => { release = ok; });
    vi.stubGlobal('fetch', async (url: string) => {
      calls.push(url);
      if (url.endsWith('.tlix')) { await held; return new Response(new Uint8Array([1, 2, 3])); }
      return new Response(model);
    });
    const warm = (runtime: EmbedderRuntime, prefetch: string[]) => {
      let handler: ((event: Event) => void) | undefined;
      listenForWarm({ addEventListener: (_type: string, h: EventListenerOrEventListenerObject) => { handler = h as (event: Event) => void; } }, runtime);
      handler?.({ data: { type: 'threadline-warm', embedder: {}, prefetch } } as MessageEvent);
    };
    const weights = 'https://site.example/m/model.safetensors';
    const ready: string[] = [];
    warm({ offlineFiles: { label: 'threadline-glove-30k', weights }, onProgress: (p) => { if (p.phase === 'model-ready') ready.push(p.model); } }, ['https://site.example/held.tlix']);
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toEqual(['https://site.example/held.tlix']);
    release();
    await vi.waitFor(() => expect(ready).toHaveLength(1));
    expect(calls).toEqual(['https://site.example/held.tlix', weights]);
    // No index to fetch ahead: the model at once (another file, so another load).
    calls.length = 0;
    const other = 'https://site.example/n/model.safetensors';
    warm({ offlineFiles: { label: 'threadline-glove-30k', weights: other } }, []);
    await vi.waitFor(() => expect(calls).toEqual([other]));
  });
});

describe('the model after the index, bounded', () => {
  afterEach(() => { vi.useRealTimers(); });
  it('an index download that stalls keeps the model waiting at most 10 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    vi.stubGlobal('fetch', (url: string) => {
      calls.push(url);
      return url.endsWith('.tlix') ? new Promise<Response>(() => undefined) : Promise.reject(new Error('no model here'));
    });
    let handler: ((event: Event) => void) | undefined;
    listenForWarm({ addEventListener: (_type: string, h: EventListenerOrEventListenerObject) => { handler = h as (event: Event) => void; } }, { offlineFiles: { label: 'threadline-glove-30k', weights: 'https://site.example/stall/model.safetensors' } });
    handler?.({ data: { type: 'threadline-warm', embedder: {}, prefetch: ['https://site.example/stalled.tlix'] } } as MessageEvent);
    await vi.advanceTimersByTimeAsync(9_000);
    expect(calls).toEqual(['https://site.example/stalled.tlix']);
    await vi.advanceTimersByTimeAsync(1_500);
    expect(calls).toEqual(['https://site.example/stalled.tlix', 'https://site.example/stall/model.safetensors']);
  });
});

/** A response whose body arrives in `parts` (each the same view, so a gigabyte costs no memory); records a cancel. */
function streamed(part: Uint8Array, parts: number, length?: number, onPull?: (n: number) => void) {
  const state = { cancelled: false, pulled: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled === parts) return controller.close();
      state.pulled++;
      onPull?.(state.pulled);
      controller.enqueue(part);
    },
    cancel() { state.cancelled = true; },
  });
  vi.stubGlobal('fetch', (url: string) => {
    calls.push(url);
    return Promise.resolve(new Response(body, { status: 200, headers: length === undefined ? {} : { 'content-length': String(length) } }));
  });
  return state;
}

describe('index download: progress, size limit, abort', () => {
  it('reports index-download progress up to the whole file, also for a file fetched ahead', async () => {
    streamed(new Uint8Array(1000).fill(7), 5, 5000);
    const events: Progress[] = [];
    const bytes = await fetchPrebuilt('https://site.example/p.tlix', undefined, false, (p) => events.push(p));
    expect(bytes.byteLength).toBe(5000);
    expect(bytes.every((b) => b === 7)).toBe(true);
    expect(events.at(-1)).toEqual({ phase: 'index-download', url: 'https://site.example/p.tlix', loaded: 5000, total: 5000, fraction: 1 });
    streamed(new Uint8Array(10), 3);
    fetchAhead('https://site.example/q.tlix');
    const ahead: Progress[] = [];
    await fetchPrebuilt('https://site.example/q.tlix', undefined, false, (p) => ahead.push(p));
    // No content-length: the size so far, and fraction 0 (unknown).
    expect(ahead.at(-1)).toEqual({ phase: 'index-download', url: 'https://site.example/q.tlix', loaded: 30, total: 0, fraction: 0 });
  });

  it.each([
    ['labelled text/html (a single-page-app fallback)', 'text/html; charset=utf-8', '<!doctype html><html><body>Docs</body></html>'],
    ['labelled as a binary file (a host that labels every file alike)', 'application/octet-stream', '\uFEFF \n<html lang="en"><head><title>Not found</title>'],
  ])('a missing file answered with status 200 and a page, %s: MODEL_LOAD_FAILED naming the URL and the likely cause, not a corrupt index', async (_label, type, page) => {
    // Before: CORRUPT_INDEX "it does not start with the TLIX signature", which sent site authors to rebuild a file never deployed.
    vi.stubGlobal('fetch', () => Promise.resolve(new Response(page, { status: 200, headers: { 'content-type': type } })));
    const error = await fetchPrebuilt('https://site.example/docs/site.tlix').then(() => { throw new Error('expected a rejection'); }, (e: unknown) => e as { code: string; message: string; details: unknown });
    expect(error).toMatchObject({ code: 'MODEL_LOAD_FAILED', details: { url: 'https://site.example/docs/site.tlix', reason: 'page' } });
    expect(error.message).toMatch(/site\.tlix answered with a web page, not an index file: the file is probably missing/);
  });

  it('a file that says it is over the limit is refused before its body is read (CORRUPT_INDEX, too-large)', async () => {
    const state = streamed(new Uint8Array(10), 1, MAX_INDEX_BYTES + 1);
    await expect(fetchPrebuilt('https://site.example/big.tlix')).rejects.toMatchObject({ code: 'CORRUPT_INDEX', details: { reason: 'too-large' } });
    expect(state.pulled).toBeLessThanOrEqual(1);
  });

  it('a file that does not say its size is cut off once it passes the limit, not read to the end', async () => {
    const part = new Uint8Array(64 * 2 ** 20);
    const state = streamed(part, 1_000);
    await expect(fetchPrebuilt('https://site.example/endless.tlix')).rejects.toMatchObject({ code: 'CORRUPT_INDEX', details: { reason: 'too-large' } });
    expect(state.pulled).toBeLessThan(20);
    expect(state.cancelled).toBe(true);
  });

  it('an abort while the body arrives stops reading it: ABORTED', async () => {
    const controller = new AbortController();
    const state = streamed(new Uint8Array(1000), 1_000, 1_000_000, (n) => { if (n === 3) controller.abort(); });
    await expect(fetchPrebuilt('https://site.example/slow.tlix', controller.signal)).rejects.toMatchObject({ code: 'ABORTED' });
    expect(state.pulled).toBeLessThan(10);
    expect(state.cancelled).toBe(true);
  });
});
