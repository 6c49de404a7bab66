import 'fake-indexeddb/auto';
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_KB } from '../../demo/sample-kb';
import { embedderIdentity, loadEmbedder } from '../../src/embedding/load-embedder';
import { createThreadline } from '../../src/index';
import { buildPrebuiltIndex } from '../../src/prebuilt/build';
import { RetrievalEngine } from '../../src/worker/retrieval-engine';

const MODEL = resolve(import.meta.dirname, '../../.models/threadline-glove-30k') + '/';
let server: Server;
let origin = '';
let file: Uint8Array;
const hits: string[] = [];

beforeAll(async () => {
  const embedder = await loadEmbedder({ model: MODEL });
  file = await buildPrebuiltIndex(SAMPLE_KB.map((d) => ({ id: d.id, title: d.title, text: d.markdown, format: 'markdown' as const })), embedder);
  // One loopback server plays both the site and "another origin" (a redirect target path).
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/moved.tlix') { res.writeHead(302, { location: '/elsewhere/site.tlix' }); res.end(); return; }
    if (req.url === '/site.tlix' || req.url === '/elsewhere/site.tlix') { res.writeHead(200, { 'content-type': 'application/octet-stream' }); res.end(Buffer.from(file)); return; }
    res.writeHead(404); res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const open = (name: string) => RetrievalEngine.open({ name, modelId: embedderIdentity({ model: MODEL }), chunking: {}, int8: false, weights: { dense: 1, lexical: 1 }, onModelMismatch: 'error' }, () => loadEmbedder({ model: MODEL }));

describe('load() and redirects', () => {
  it('does not follow a redirect unless asked, so the request never reaches where the host points it', async () => {
    const engine = await open('redirect-a');
    hits.length = 0;
    await expect(engine.load(`${origin}/moved.tlix`)).rejects.toMatchObject({ code: 'MODEL_LOAD_FAILED', details: { redirected: true } });
    expect(hits).toEqual(['/moved.tlix']);
    expect((await engine.stats()).docs).toBe(0);
    engine.close();
  });

  it('follows it when the caller allows it, and loads a direct URL as before', async () => {
    const engine = await open('redirect-b');
    expect(await engine.load(`${origin}/moved.tlix`, { followRedirects: true })).toMatchObject({ loaded: true, docs: SAMPLE_KB.length });
    const other = await open('redirect-c');
    expect(await other.load(`${origin}/site.tlix`)).toMatchObject({ loaded: true });
    engine.close();
    other.close();
  });
});

describe('secure context', () => {
  it('over plain http on another host, createThreadline fails typed, before starting anything', async () => {
    const g = globalThis as { isSecureContext?: boolean };
    const before = g.isSecureContext;
    g.isSecureContext = false;
    try {
      await expect(createThreadline({ name: 'insecure' })).rejects.toMatchObject({ code: 'INSECURE_CONTEXT' });
    } finally {
      if (before === undefined) delete g.isSecureContext; else g.isSecureContext = before;
    }
  });
});
