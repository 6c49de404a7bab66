import { afterEach, describe, expect, it, vi } from 'vitest';
import { readModelFile, type ModelFiles } from '../../src/embedding/model-files';
import { dataUrlBytes } from '../../src/util/data-url';

const text = (bytes: Uint8Array | ArrayBuffer | null) => new TextDecoder().decode(bytes ?? new Uint8Array(0));

describe('a model file a bundler inlined as a data: URL', () => {
  afterEach(() => { vi.unstubAllGlobals(); });

  it('is decoded from base64 or percent-encoding; a malformed one is null', () => {
    const json = '{"model_type":"model2vec","é":1}';
    const base64 = `data:application/json;base64,${Buffer.from(json).toString('base64')}`;
    expect(text(dataUrlBytes(base64))).toBe(json);
    expect(text(dataUrlBytes(`data:application/json,${encodeURIComponent(json)}`))).toBe(json);
    expect(text(dataUrlBytes('data:,'))).toBe('');
    expect(dataUrlBytes('data:application/json;base64,@@@')).toBeNull();
    expect(dataUrlBytes('data:text/plain,%E0%A4%A')).toBeNull();
    expect(dataUrlBytes('data:no-comma')).toBeNull();
  });

  it('is read without fetch, which a page\'s connect-src \'self\' refuses for data: URLs (a Vite app under a strict policy could not load its model)', async () => {
    const fetched = vi.fn(() => Promise.reject(new TypeError('Refused to connect: connect-src')));
    vi.stubGlobal('fetch', fetched);
    const config = `data:application/json;base64,${Buffer.from('{"normalize":true}').toString('base64')}`;
    const files: ModelFiles = { label: 'threadline-glove-30k', config, tokenizer: 't', tokenizerConfig: 'tc', weights: 'w' };
    expect(text(await readModelFile(files, config))).toBe('{"normalize":true}');
    expect(fetched).not.toHaveBeenCalled();
    await expect(readModelFile(files, 'data:application/json;base64,@@@')).rejects.toMatchObject({ code: 'MODEL_LOAD_FAILED', message: expect.stringMatching(/is not a well-formed data: URL/) as string });
  });
});
