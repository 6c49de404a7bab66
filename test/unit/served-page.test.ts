import { afterEach, describe, expect, it, vi } from 'vitest';
import { readModelFile, type FolderFiles } from '../../src/embedding/model-files';
import { labelledAsPage, startsLikePage } from '../../src/util/served-page';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('a page served in place of a missing file', () => {
  it('is told by its label, in any case and with parameters', () => {
    expect(labelledAsPage(new Headers({ 'content-type': 'text/html; charset=utf-8' }))).toBe(true);
    expect(labelledAsPage(new Headers({ 'content-type': 'TEXT/HTML' }))).toBe(true);
    expect(labelledAsPage(new Headers({ 'content-type': 'application/xhtml+xml' }))).toBe(true);
    expect(labelledAsPage(new Headers({ 'content-type': 'application/json' }))).toBe(false);
    expect(labelledAsPage(new Headers({ 'content-type': 'application/octet-stream' }))).toBe(false);
    expect(labelledAsPage(new Headers())).toBe(false);
  });

  it('is told by how it starts: a doctype, <html>, a comment or an XML declaration, after a byte order mark and whitespace', () => {
    for (const page of ['<!DOCTYPE html><html>', '<!doctype html>', '\uFEFF \n\t<html lang="en">', '<html>', '<head><title>x', '<!-- generated -->', '<?xml version="1.0"?><Error>', '<body>', '<meta charset="utf-8">']) {
      expect(startsLikePage(bytes(page)), page).toBe(true);
    }
  });

  it('is not a JSON file, a TLIX index, a lone "<" or a binary file whose first byte is "<"', () => {
    for (const file of ['{"model_type":"model2vec"}', '[1,2]', 'TLIX\u0001', '', '   ', '<', '<b>bold</b>', '<htmlx>', 'x<html>']) {
      expect(startsLikePage(bytes(file)), file).toBe(false);
    }
    // A safetensors file starts with its header's length, little-endian: one of 316 bytes (a writer that does not pad it) starts with the byte of "<".
    const table = new Uint8Array([0x3c, 0x01, 0, 0, 0, 0, 0, 0, ...bytes('{"e":{"dtype":"F32"')]);
    expect(startsLikePage(table)).toBe(false);
  });
});

describe('reading a model file the host answers with a page (status 200)', () => {
  afterEach(() => { vi.unstubAllGlobals(); });
  const files: FolderFiles = { label: 'site-model', config: 'https://site.example/m/config.json', tokenizer: 'https://site.example/m/tokenizer.json', tokenizerConfig: 'https://site.example/m/tokenizer_config.json', weights: 'https://site.example/m/model.safetensors' };
  const serve = (type: string) => vi.stubGlobal('fetch', () => Promise.resolve(new Response('\n<!doctype html><html><body>Docs home</body></html>', { status: 200, headers: { 'content-type': type } })));

  it.each(['text/html; charset=utf-8', 'application/octet-stream'])('labelled %s: a required file fails with MODEL_LOAD_FAILED naming its URL as missing, not as "not JSON"', async (type) => {
    serve(type);
    const error = await readModelFile(files, files.config).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'MODEL_LOAD_FAILED', details: { url: files.config, reason: 'page' } });
    expect((error as Error).message).toMatch(/config\.json answered with a web page, not the model file: the file is probably missing/);
  });

  it.each(['text/html', 'application/octet-stream'])('labelled %s: an optional file reads as absent, as a 404 does', async (type) => {
    serve(type);
    await expect(readModelFile(files, files.tokenizerConfig, { optional: true })).resolves.toBeNull();
  });

  it('a file that is not there gets the model\'s deployment hint; a network that failed (offline, blocked) gets reason "network" and no hint', async () => {
    const hinted = { ...files, hint: 'Copy it with `npx threadline model <folder>`.' };
    vi.stubGlobal('fetch', () => Promise.resolve(new Response('gone', { status: 404 })));
    await expect(readModelFile(hinted, hinted.config)).rejects.toMatchObject({ code: 'MODEL_LOAD_FAILED', message: expect.stringMatching(/answered HTTP 404\. Copy it with/) as string });
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    const offline = await readModelFile(hinted, hinted.config).catch((e: unknown) => e);
    expect(offline).toMatchObject({ code: 'MODEL_LOAD_FAILED', details: { url: hinted.config, reason: 'network' } });
    expect((offline as Error).message).toMatch(/config\.json could not be fetched \(offline, blocked, or a cross-origin file without CORS\)\.$/);
  });

  it('the file itself, labelled as a binary file, is read as it is', async () => {
    const json = '{"model_type":"model2vec"}';
    vi.stubGlobal('fetch', () => Promise.resolve(new Response(json, { status: 200, headers: { 'content-type': 'application/octet-stream' } })));
    const read = await readModelFile(files, files.config);
    expect(new TextDecoder().decode(read ?? new ArrayBuffer(0))).toBe(json);
  });
});
