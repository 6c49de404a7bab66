import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { readPrebuiltHeader } from '../../src/prebuilt/format';
import { writeDocx } from '../fixtures/docx-writer';
import { section, writePdf } from '../fixtures/pdf-writer';
import { CLI, requireBuild, root } from './built';

const run = async (...args: string[]) => promisify(execFile)(process.execPath, [CLI, ...args], { cwd: root, timeout: 120_000 })
  .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }), (error: { code?: number; stdout: string; stderr: string }) => ({ code: error.code ?? -1, stdout: error.stdout, stderr: error.stderr }));

beforeAll(() => requireBuild());

describe('the compiled `threadline` bin (dist/cli/threadline.js)', () => {
  it('is the package bin, runnable by node without tsx', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string>; files: string[] };
    expect(pkg.bin.threadline).toBe('dist/cli/threadline.js');
    expect(readFileSync(CLI, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(readFileSync(CLI, 'utf8')).not.toMatch(/from ["']tsx|\.ts["']/);
  });

  it('prints usage, and refuses bad invocations with exit codes 2 (usage) and 1 (failure)', async () => {
    expect(await run('--help')).toMatchObject({ code: 0, stdout: expect.stringContaining('threadline index') as string });
    expect(await run('frobnicate')).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown command frobnicate') as string });
    expect(await run('index', 'docs')).toMatchObject({ code: 2, stderr: expect.stringContaining('-o <file.tlix>') as string });
    expect(await run('index', 'no/such/folder', '-o', 'test-results/x.tlix')).toMatchObject({ code: 1, stderr: expect.stringContaining('no such file or folder') as string });
    expect(await run('index', 'docs', '-o', 'test-results/x.tlix', '--dtype', 'f32')).toMatchObject({ code: 2, stderr: expect.stringContaining('--dtype must be one of auto, fp32') as string });
    expect(await run('index', 'docs', '-o', 'test-results/x.tlix', '--device', 'gpu')).toMatchObject({ code: 2, stderr: expect.stringContaining('--device must be cpu or webgpu') as string });
    // A folder given as the output, and a file given as the target folder, are said so before any work (they were
    // Node's EISDIR after the whole build, and mkdir's EEXIST / ENOTDIR).
    mkdirSync(join(root, 'test-results'), { recursive: true });
    expect(await run('index', 'docs/examples', '-o', 'test-results')).toMatchObject({ code: 2, stderr: expect.stringContaining('-o test-results is a folder; name the index file (test-results/site.tlix)') as string });
    expect(await run('element', 'package.json')).toMatchObject({ code: 2, stderr: expect.stringContaining('element writes into a folder, and package.json is a file') as string });
    expect(await run('model', 'package.json')).toMatchObject({ code: 2, stderr: expect.stringContaining('model writes into a folder, and package.json is a file') as string });
  });

  it('--device webgpu embeds on a GPU, or, with no GPU adapter, fails with exit code 1 saying so and writes no file', async () => {
    const out = join(root, 'test-results/cli-device/docs.tlix');
    rmSync(join(root, 'test-results/cli-device'), { recursive: true, force: true });
    const result = await run('index', 'docs/examples', '-o', out, '--model', join(root, '.models/threadline-glove-30k-onnx/'), '--dtype', 'fp32', '--device', 'webgpu');
    if (result.code === 0) expect(readPrebuiltHeader(new Uint8Array(readFileSync(out))).header.modelId).toBe('threadline-glove-30k-onnx#fp32');
    else {
      expect(result).toMatchObject({ code: 1, stderr: expect.stringMatching(/on WebGPU: no GPU adapter here/) as string });
      expect(existsSync(out)).toBe(false);
    }
    // The offline model is static: it needs no GPU, and says so rather than seeming to use one.
    const offline = await run('index', 'docs/examples', '-o', out, '--device', 'webgpu');
    expect(offline).toMatchObject({ code: 0, stderr: expect.stringContaining('--device webgpu: threadline-glove-30k#int8-v2 is a static model, embedded in plain code on the CPU') as string });
  });

  it('--dtype pins a transformer model\'s weights, and the index records it (a page configures the same)', async () => {
    const out = join(root, 'test-results/cli-dtype/docs.tlix');
    const result = await run('index', 'docs/examples', '-o', out, '--model', join(root, '.models/threadline-glove-30k-onnx/'), '--dtype', 'fp32');
    expect(result.code).toBe(0);
    expect(readPrebuiltHeader(new Uint8Array(readFileSync(out))).header.modelId).toBe('threadline-glove-30k-onnx#fp32');
  });

  it('indexes a folder with the offline model and copies the standalone element', async () => {
    const out = join(root, 'test-results/cli/docs.tlix');
    const element = join(root, 'test-results/cli/element');
    rmSync(join(root, 'test-results/cli'), { recursive: true, force: true });
    expect((await run('index', 'docs', '-o', out)).code).toBe(0);
    const { header } = readPrebuiltHeader(new Uint8Array(readFileSync(out)));
    expect(header).toMatchObject({ modelId: 'threadline-glove-30k#int8-v2', dims: 100 });
    expect(header.docs).toBeGreaterThan(0);
    const globbed = join(root, 'test-results/cli/globbed.tlix');
    expect((await run('index', 'docs/**/*.html', '-o', globbed)).code).toBe(0);
    expect(readPrebuiltHeader(new Uint8Array(readFileSync(globbed))).header.docs).toBe(1);
    const copied = await run('element', element);
    expect(copied.code).toBe(0);
    expect(copied.stdout).toMatch(/files, \d+\.\d\d MB \(without web-llm/);
    for (const file of ['threadline-chat.js', 'threadline-glove-30k/model.safetensors']) {
      expect(existsSync(join(element, file)) && statSync(join(element, file)).size > 0, file).toBe(true);
    }
    // The table carries the model's JSON files and vocabulary, so the element loads, and copies, only it.
    expect(readdirSync(join(element, 'threadline-glove-30k'))).toEqual(['model.safetensors']);
    expect(readdirSync(element).some((f) => /^retrieval\.worker-.*\.js$/.test(f))).toBe(true);
    // Nothing the default element does not use: no web-llm, no transformers.js, no WASM runtime, no document readers.
    expect(readdirSync(element).filter((f) => /web-llm|llm\.worker|transformers|^ort$|^pdf|^docx|^documents\.worker/.test(f))).toEqual([]);
    // The notices of the bundled code go with it.
    const notices = readFileSync(join(element, 'THIRD_PARTY_LICENSES.txt'), 'utf8');
    for (const pkg of ['pdfjs-dist@', 'mammoth@', 'dompurify@', 'idb@', 'comlink@']) expect(notices).toContain(pkg);
    const withLlm = join(root, 'test-results/cli/element-llm');
    expect((await run('element', withLlm, '--with-llm')).code).toBe(0);
    expect(readdirSync(withLlm).filter((f) => /^(web-llm|llm\.worker)-.*\.js$/.test(f)).length).toBeGreaterThanOrEqual(2);
  });

  it('copies just the offline model, which loads as a static model', async () => {
    const folder = join(root, 'test-results/cli/model');
    const copied = await run('model', folder);
    expect(copied).toMatchObject({ code: 0, stdout: expect.stringMatching(/offline model copied \(3\.\d\d MB\)/) as string });
    expect(readdirSync(join(folder, 'threadline-glove-30k')).sort()).toEqual(['config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json']);
    const { loadEmbedder } = await import('../../src/embedding/load-embedder');
    expect((await loadEmbedder({ model: `${folder}/threadline-glove-30k/` })).modelId).toBe('threadline-glove-30k#int8-v2');
  });

  it('titles documents from their first heading or <title>, and links them under --base-url', async () => {
    const docs = join(root, 'test-results/cli/titled');
    mkdirSync(join(docs, 'guide'), { recursive: true });
    writeFileSync(join(docs, 'guide/install.md'), '---\nlayout: page\n---\n\nSome intro.\n\n## Installing Harbor\n\nRun the installer.\n');
    writeFileSync(join(docs, 'faq.html'), '<html><head><title>FAQ &amp; help</title></head><body><h1>Questions</h1><p>Ask away.</p></body></html>');
    writeFileSync(join(docs, 'notes.txt'), 'Plain notes without a heading.');
    const out = join(root, 'test-results/cli/titled.tlix');
    expect((await run('index', docs, '-o', out, '--base-url', 'https://example.com/docs/')).code).toBe(0);
    const { decodePrebuilt } = await import('../../src/prebuilt/format');
    const { docs: indexed } = await decodePrebuilt(new Uint8Array(readFileSync(out)));
    expect(indexed.map((d) => [d.id, d.title, d.url]).sort()).toEqual([
      ['faq.html', 'FAQ & help', 'https://example.com/docs/faq.html'],
      ['guide/install.md', 'Installing Harbor', 'https://example.com/docs/guide/install.html'],
      ['notes.txt', 'notes', 'https://example.com/docs/notes.html'],
    ]);
    expect(await run('index', docs, '-o', out, '--base-url', 'not a url')).toMatchObject({ code: 2, stderr: expect.stringContaining('neither an absolute http(s) URL') as string });
    // Only http(s): "javascript:" was taken, and the build then failed with "Invalid URL".
    expect(await run('index', docs, '-o', out, '--base-url', 'javascript:alert(1)')).toMatchObject({ code: 2, stderr: expect.stringContaining('javascript:alert(1) is neither an absolute http(s) URL') as string });
    expect(await run('index', '--help')).toMatchObject({ code: 0, stdout: expect.stringContaining('--base-url') as string });
  });

  it('reads PDF and Word files (cited by page), and skips one it cannot read with a warning, building the rest', async () => {
    const docs = join(root, 'test-results/cli/files');
    rmSync(docs, { recursive: true, force: true });
    mkdirSync(docs, { recursive: true });
    writeFileSync(join(docs, 'manual.pdf'), writePdf({
      pages: [{ lines: section('Installing Harbor', ['Run the installer.']) }, { lines: section('Backups', ['Harbor copies your library every night.']) }],
      outline: [{ title: 'Installation', page: 1 }, { title: 'Backups', page: 2 }],
    }));
    writeFileSync(join(docs, 'returns.docx'), writeDocx([{ heading: 1, text: 'Returns' }, { text: 'Return any item within 30 days.' }]));
    writeFileSync(join(docs, 'scan.pdf'), writePdf({ pages: [{ image: true }] }));
    const out = join(root, 'test-results/cli/files.tlix');
    const result = await run('index', docs, '-o', out, '--base-url', 'https://example.com/files/');
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/skipped scan\.pdf: .*no text layer/);
    const { decodePrebuilt } = await import('../../src/prebuilt/format');
    const decoded = await decodePrebuilt(new Uint8Array(readFileSync(out)));
    expect(decoded.docs.map((d) => [d.id, d.title, d.url]).sort()).toEqual([
      ['manual.pdf', 'manual.pdf', 'https://example.com/files/manual.pdf'],
      ['returns.docx', 'Returns', 'https://example.com/files/returns.docx'], // its first heading
    ]);
    expect(decoded.chunks.filter((c) => c.docId === 'manual.pdf').map((c) => [c.page, c.headingPath])).toEqual([[1, ['Installation']], [2, ['Backups']]]);
  });
});
