import { afterEach, describe, expect, it, vi } from 'vitest';
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
