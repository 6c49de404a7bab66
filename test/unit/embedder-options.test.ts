import { describe, expect, it } from 'vitest';
import { assertEmbedderOptions, embedderOptionsProblem } from '../../src/embedding/embedder-options';
import { loadEmbedder, loadWithFallback } from '../../src/embedding/load-embedder';

describe('embedder options are checked before anything loads', () => {
  it('takes every documented value', () => {
    for (const options of [{}, { model: 'Xenova/all-MiniLM-L6-v2', device: 'webgpu', dtype: 'q8', batchSize: 1 }, { device: 'cpu', dtype: 'auto', batchSize: 4096, fallback: false }, { fallback: 'offline', offlineModel: '/models/glove/', wasmPaths: '' }] as const) {
      expect(embedderOptionsProblem(options)).toBeNull();
    }
  });

  it.each([
    [{ batchSize: 0 }, /embedder\.batchSize must be a whole number from 1 to 4096, got 0/],
    [{ batchSize: Number.NaN }, /batchSize .* got NaN/],
    [{ batchSize: 2.5 }, /batchSize .* got 2\.5/],
    [{ batchSize: 1e9 }, /batchSize .* got 1000000000/],
    [{ device: 'gpu' }, /embedder\.device must be one of 'auto', 'wasm', 'webgpu', 'cpu', got "gpu"/],
    [{ dtype: 'f32' }, /embedder\.dtype must be one of 'auto', 'fp32'.*got "f32"/],
    [{ model: '' }, /embedder\.model must be a hub id or a model folder's URL, got ""/],
    [{ model: '   ' }, /embedder\.model/],
    [{ model: 42 }, /embedder\.model .* got 42/],
    [{ offlineModel: null }, /embedder\.offlineModel .* got null/],
    [{ fallback: true }, /embedder\.fallback must be 'offline' or false, got true/],
    [{ wasmPaths: ['/ort/'] }, /embedder\.wasmPaths .* got an array/],
    [{ model: () => 'x' }, /embedder\.model .* got a function$/],
    [{ model: 'x'.repeat(500).replace(/^/, '\n') , device: 'no' }, /embedder\.device/],
  ])('%o is INVALID_INPUT naming the option and what it takes', (options, message) => {
    const problem = embedderOptionsProblem(options);
    expect(problem).toMatchObject({ name: 'ThreadlineError', code: 'INVALID_INPUT' });
    expect(problem?.message).toMatch(message);
    expect(() => assertEmbedderOptions(options)).toThrow(message);
  });

  it('the embedder itself must be an object of options', () => {
    for (const options of [null, 'Xenova/all-MiniLM-L6-v2', ['x'], 3]) expect(embedderOptionsProblem(options)?.message).toMatch(/^embedder must be an object of options, got /);
  });

  it('quotes a long string in part, not whole', () => {
    expect(embedderOptionsProblem({ dtype: 'q'.repeat(10_000) })?.message.length).toBeLessThan(300);
  });

  it('loadEmbedder() refuses them before loading anything, and loadWithFallback() never lets the offline model stand in for them', async () => {
    // Before: a batch size of 0 loaded the model and failed at the first embed ("text array must be non-empty").
    await expect(loadEmbedder({ model: '/no/such/folder/', batchSize: 0 })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/batchSize/) as string });
    await expect(loadWithFallback({ model: '/no/such/folder/', dtype: 'f32' as never })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/dtype/) as string });
  });
});
