import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEmbedder } from '../../src/embedding/load-embedder';
import { readSafetensors, readSafetensorsFile, writeSafetensors } from '../../src/embedding/safetensors';
import { StaticEmbedder } from '../../src/embedding/static-embedder';
import { BATCH_TARGET_MS, lengthOrder, nextBatchSize } from '../../src/embedding/transformers-embedder';

const MODELS = resolve(import.meta.dirname, '../../.models');
const TEXTS = [
  'How long do I have to return something?', 'what about damaged items?', '', 'qqqzzx ### !!!',
  'Café naïve RÉSUMÉ façade', 'e-mail, co-operate; U.S.A. 3.14 — “quoted” (parens)', '中文 和 English mixed',
  `${'word '.repeat(700)}refund`, // longer than the 512-token limit: both paths truncate the same way
  'The quick brown fox jumps over the lazy dog. '.repeat(12),
];

function row(v: Float32Array, i: number, dims: number) {
  return v.subarray(i * dims, (i + 1) * dims);
}

describe('static embedder (no ONNX Runtime)', () => {
  it('reproduces the ONNX Runtime path of the same table: max abs difference ≤ 1e-5, same token counts (real onnxruntime-node)', async () => {
    const ort = await loadEmbedder({ model: `${MODELS}/threadline-glove-30k-onnx/`, dtype: 'fp32' });
    const fp16 = await loadEmbedder({ model: `${MODELS}/threadline-glove-30k-fp16/` });
    expect(fp16).toBeInstanceOf(StaticEmbedder);
    expect(ort).not.toBeInstanceOf(StaticEmbedder);
    const [a, b] = [await ort.embed(TEXTS), await fp16.embed(TEXTS)];
    let max = 0;
    for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs((a[i] ?? 0) - (b[i] ?? 0)));
    expect(max).toBeLessThanOrEqual(1e-5);
    expect(TEXTS.map((t) => fp16.countTokens(t))).toEqual(TEXTS.map((t) => ort.countTokens(t)));
    expect(fp16.maxTokens).toBe(ort.maxTokens);
  });

  it('a transformer embedder batches texts of similar length together and returns vectors in the caller\'s order (batches of 2, real onnxruntime-node)', async () => {
    const ort = await loadEmbedder({ model: `${MODELS}/threadline-glove-30k-onnx/`, dtype: 'fp32', batchSize: 2 });
    const fp16 = await loadEmbedder({ model: `${MODELS}/threadline-glove-30k-fp16/` });
    expect(ort).not.toBe(await loadEmbedder({ model: `${MODELS}/threadline-glove-30k-onnx/`, dtype: 'fp32' })); // another batch size is another embedder
    const texts = [...TEXTS, 'refund', 'what about damaged items?'];
    const [a, b] = [await ort.embed(texts), await fp16.embed(texts)];
    let max = 0;
    for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs((a[i] ?? 0) - (b[i] ?? 0)));
    expect(max).toBeLessThanOrEqual(1e-5);
    expect(Array.from(lengthOrder(['bb', 'a', 'ccc', 'dd', '']))).toEqual([2, 0, 3, 1, 4]); // longest first; equal lengths keep their order
  });

  it('sizes a transformer\'s batches to take about BATCH_TARGET_MS, between 1 text and the configured batch size', () => {
    expect(nextBatchSize(8, BATCH_TARGET_MS / 4, 32)).toBe(32); // fast: the configured size
    expect(nextBatchSize(8, BATCH_TARGET_MS, 32)).toBe(8);
    expect(nextBatchSize(2, BATCH_TARGET_MS * 4, 32)).toBe(1); // 2 s a text: one at a time
    expect(nextBatchSize(4, 0, 16)).toBe(16); // an untimed batch says nothing
  });

  it('the shipped int8 table stays within cosine 0.9999 of the fp16 table', async () => {
    const fp16 = await loadEmbedder({ model: `${MODELS}/threadline-glove-30k-fp16/` });
    const int8 = await loadEmbedder({ model: `${MODELS}/threadline-glove-30k/` });
    const [a, b] = [await fp16.embed(TEXTS), await int8.embed(TEXTS)];
    for (let t = 0; t < TEXTS.length; t++) {
      const x = row(a, t, 100), y = row(b, t, 100);
      const dot = x.reduce((s, v, i) => s + v * (y[i] ?? 0), 0);
      if (x.some((v) => v !== 0)) expect(dot).toBeGreaterThan(0.9999);
      else expect(y.every((v) => v === 0)).toBe(true);
    }
    expect(int8.modelId).toBe('threadline-glove-30k#int8-v2');
  });

  it('reads a Model2Vec folder with token weights, a row mapping and normalize: false (a model written by this test)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'm2v-'));
    const vocab = { '[UNK]': 0, alpha: 1, beta: 2, gamma: 3 };
    writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify({
      version: '1.0', truncation: null, padding: null, added_tokens: [], normalizer: { type: 'Lowercase' },
      pre_tokenizer: { type: 'Whitespace' }, post_processor: null, decoder: null, model: { type: 'WordLevel', vocab, unk_token: '[UNK]' },
    }));
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ model_type: 'model2vec', normalize: false, hidden_dim: 2 }));
    // Two rows shared by four tokens: gamma maps to alpha's row, with its own weight.
    const embeddings = new Float32Array([0, 0, 1, 2, 3, 4]);
    writeFileSync(join(dir, 'model.safetensors'), writeSafetensors({
      embeddings: { dtype: 'F32', shape: [3, 2], bytes: new Uint8Array(embeddings.buffer) },
      mappings: { dtype: 'I32', shape: [4], bytes: new Uint8Array(new Int32Array([0, 1, 2, 1]).buffer) },
      weights: { dtype: 'F32', shape: [3], bytes: new Uint8Array(new Float32Array([1, 1, 0.5]).buffer) },
    }));
    const e = await loadEmbedder({ model: `${dir}/` });
    expect(e.dims).toBe(2);
    const v = await e.embed(['Alpha beta unknownword', 'gamma', 'zzz']);
    // alpha = [1,2], beta = 0.5 × [3,4]; the unknown word is dropped, the mean is over two tokens.
    expect([...row(v, 0, 2)]).toEqual([(1 + 1.5) / 2, (2 + 2) / 2]);
    expect([...row(v, 1, 2)]).toEqual([1, 2]);
    expect([...row(v, 2, 2)]).toEqual([0, 0]);
    expect(e.modelId.startsWith('m2v-')).toBe(true);
  });

  it('refuses hostile or broken model files with MODEL_LOAD_FAILED naming the problem, never reading out of bounds', async () => {
    const tokenizer = JSON.parse(readFileSync(`${MODELS}/threadline-glove-30k/tokenizer.json`, 'utf8')) as unknown;
    const good = new Uint8Array(readFileSync(`${MODELS}/threadline-glove-30k/model.safetensors`));
    const build = (weights: Uint8Array) => () => StaticEmbedder.fromFiles({ config: { model_type: 'model2vec' }, tokenizer, weights: weights.slice().buffer }, 'x');
    const header = (json: string, tail = 0) => {
      const bytes = new TextEncoder().encode(json);
      const out = new Uint8Array(8 + bytes.length + tail);
      new DataView(out.buffer).setUint32(0, bytes.length, true);
      out.set(bytes, 8);
      return out;
    };
    const cases: [string, Uint8Array, RegExp][] = [
      ['empty', new Uint8Array(0), /too short/],
      ['truncated', good.subarray(0, 1000), /do not hold|does not fit/],
      ['huge header length', (() => { const b = good.slice(); new DataView(b.buffer).setUint32(0, 0xffffffff, true); return b; })(), /header length/],
      ['not JSON', header('{"embeddings": nope}'), /not valid UTF-8 JSON/],
      ['offsets past the end', header('{"embeddings":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]}}', 8), /do not hold/],
      ['overlapping tensors', header('{"embeddings":{"dtype":"F32","shape":[1,2],"data_offsets":[0,8]},"weights":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}', 8), /overlaps/],
      ['unknown dtype', header('{"embeddings":{"dtype":"Q4","shape":[1,1],"data_offsets":[0,1]}}', 1), /unsupported dtype/],
      ['negative shape', header('{"embeddings":{"dtype":"F32","shape":[-1,2],"data_offsets":[0,0]}}'), /shape/],
      ['no embeddings', writeSafetensors({ other: { dtype: 'F32', shape: [1], bytes: new Uint8Array(4) } }), /no 2-D "embeddings"/],
      ['too few rows for the tokenizer', writeSafetensors({ embeddings: { dtype: 'F32', shape: [10, 2], bytes: new Uint8Array(80) } }), /only 10 rows/],
      ['NaN in the table', writeSafetensors({ embeddings: { dtype: 'F32', shape: [30002, 1], bytes: new Uint8Array(new Float32Array(30002).fill(NaN).buffer) } }), /non-finite/],
      ['mapping out of range', writeSafetensors({
        embeddings: { dtype: 'F32', shape: [2, 1], bytes: new Uint8Array(8) },
        mappings: { dtype: 'I32', shape: [1], bytes: new Uint8Array(new Int32Array([7]).buffer) },
      }), /outside the embeddings/],
    ];
    for (const [name, bytes, message] of cases) {
      let caught: unknown;
      try { await build(bytes)(); } catch (error) { caught = error; }
      expect(caught, name).toMatchObject({ code: 'MODEL_LOAD_FAILED' });
      expect((caught as Error).message, name).toMatch(message);
    }
    expect(readSafetensors(good.slice().buffer).get('embeddings')?.dtype).toBe('I8');
  });

  it('the built-in model loads from model.safetensors alone (its JSON files and vocabulary inside): the vectors and token counts of the folder read with tokenizer.json', async () => {
    const folder = `${MODELS}/threadline-glove-30k`;
    // Only the table is named; the JSON files' URLs point nowhere, so a read of any of them would fail the load.
    const offlineFiles = { label: 'threadline-glove-30k', weights: `${folder}/model.safetensors`, config: '/nowhere/config.json', tokenizer: '/nowhere/tokenizer.json' };
    const events: string[] = [];
    const single = await loadEmbedder({}, { offlineFiles, onProgress: (p) => { if (p.phase === 'model-download') events.push(p.file); } });
    const fromFolder = await loadEmbedder({ model: `${folder}/` });
    expect(single === fromFolder).toBe(false); // not.toBe would print both embedders, 3 MB tables included, even when it passes
    expect(single.modelId).toBe(fromFolder.modelId);
    expect(await single.embed(TEXTS)).toEqual(await fromFolder.embed(TEXTS));
    for (const text of TEXTS) expect(single.countTokens(text)).toBe(fromFolder.countTokens(text));
    expect(events.every((file) => file === 'model.safetensors')).toBe(true);
  });

  it('refuses a table whose embedded files are broken with MODEL_LOAD_FAILED naming the problem', async () => {
    const good = readSafetensorsFile(readFileSync(`${MODELS}/threadline-glove-30k/model.safetensors`).buffer);
    const tensors = Object.fromEntries([...good.tensors].map(([name, t]) => [name, { dtype: t.dtype, shape: t.shape, bytes: t.bytes }]));
    const noVocab = Object.fromEntries(Object.entries(tensors).filter(([name]) => !name.startsWith('vocab.')));
    const cases: [string, Uint8Array, RegExp][] = [
      ['config not JSON', writeSafetensors(tensors, { ...good.metadata, 'threadline.config': '{nope' }), /"threadline.config" is not JSON/],
      ['not a static model', writeSafetensors(tensors, { ...good.metadata, 'threadline.config': '{"model_type":"bert"}' }), /not a static model/],
      ['no vocabulary tensors', writeSafetensors(noVocab, { ...good.metadata }), /no vocabulary/],
      ['no embedded files at all', writeSafetensors(noVocab), /no config.json/],
      ['a vocabulary of the wrong shape', writeSafetensors({ ...tensors, 'vocab.slots': { dtype: 'U16', shape: [3], bytes: new Uint8Array(6) } }, { ...good.metadata }), /power of two/],
    ];
    for (const [name, bytes, message] of cases) {
      const caught = await StaticEmbedder.fromFiles({ weights: bytes.slice().buffer }, 'x').catch((e: unknown) => e);
      expect(caught, name).toMatchObject({ code: 'MODEL_LOAD_FAILED' });
      expect((caught as Error).message, name).toMatch(message);
    }
  });

  it('a caller that joins a load in flight shares it and hears its progress; one that comes after it settled adds no listener', async () => {
    const folder = `${resolve(MODELS, 'threadline-glove-30k')}/`;
    const options = { model: folder, dtype: 'fp32' as const }; // a key no other test loads
    const first = loadEmbedder(options); // no listener: the page's warm-up
    const heard: string[] = [];
    const second = loadEmbedder(options, { onProgress: (p) => heard.push(p.phase) });
    expect(await second).toBe(await first);
    expect(heard).toEqual(['model-ready']);
    const late: string[] = [];
    expect(await loadEmbedder(options, { onProgress: (p) => late.push(p.phase) })).toBe(await first);
    expect(late).toEqual([]);
  });

  it("in Node, device 'webgpu' runs the model on onnxruntime-node's WebGPU: the CPU's vectors where a GPU adapter exists, else MODEL_LOAD_FAILED 'no-gpu' (real onnxruntime-node)", async () => {
    const model = `${MODELS}/threadline-glove-30k-onnx/`;
    const devices: string[] = []; // a batch size no other test uses: a load of its own, whose progress this test hears
    const cpu = await loadEmbedder({ model, dtype: 'fp32', device: 'auto', batchSize: 3 }, { onProgress: (p) => { if (p.phase === 'model-ready') devices.push(p.device); } });
    const outcome = await loadEmbedder({ model, dtype: 'fp32', device: 'webgpu', batchSize: 3 }, { onProgress: (p) => { if (p.phase === 'model-ready') devices.push(p.device); } })
      .then((gpu) => gpu, (error: unknown) => error);
    if (outcome instanceof Error) {
      // No adapter here (CI has no GPU and no Vulkan): said as such, never a silent CPU run.
      expect(outcome).toMatchObject({ name: 'ThreadlineError', code: 'MODEL_LOAD_FAILED', details: { reason: 'no-gpu' } });
      expect(outcome.message).toMatch(/on WebGPU: no GPU adapter here.*Vulkan.*device 'cpu'/s);
      expect(devices).toEqual(['cpu']); // 'auto' in Node stays on the CPU
    } else {
      expect(devices).toEqual(['cpu', 'webgpu']);
      const [a, b] = [await cpu.embed(TEXTS), await (outcome as Awaited<ReturnType<typeof loadEmbedder>>).embed(TEXTS)];
      for (let i = 0; i < a.length; i++) expect(Math.abs((a[i] ?? 0) - (b[i] ?? 0))).toBeLessThanOrEqual(1e-4);
    }
  });

  it('a missing folder fails with MODEL_LOAD_FAILED naming the file it looked for', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'nomodel-')), 'absent');
    mkdirSync(dir);
    await expect(loadEmbedder({ model: `${dir}/` })).rejects.toMatchObject({ code: 'MODEL_LOAD_FAILED', message: expect.stringContaining(`${dir}/config.json`) as string });
  });
});

describe('model file locations', () => {
  it('a hub id reads from the hub, a folder URL or page-relative path from that folder', async () => {
    const { modelFiles } = await import('../../src/embedding/model-files');
    expect(modelFiles('minishlab/potion-base-8M')).toMatchObject({
      config: 'https://huggingface.co/minishlab/potion-base-8M/resolve/main/config.json',
      weights: 'https://huggingface.co/minishlab/potion-base-8M/resolve/main/model.safetensors',
    });
    expect(modelFiles('./models/potion/', 'https://example.com/docs/page.html').tokenizer).toBe('https://example.com/docs/models/potion/tokenizer.json');
    expect(modelFiles('https://cdn.example.com/m/glove/').config).toBe('https://cdn.example.com/m/glove/config.json');
  });
});
