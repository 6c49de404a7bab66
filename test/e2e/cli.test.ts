import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { readPrebuiltHeader } from '../../src/prebuilt/format';
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
  });

  it('indexes a folder with the offline model and copies the standalone element', async () => {
    const out = join(root, 'test-results/cli/docs.tlix');
    const element = join(root, 'test-results/cli/element');
    rmSync(join(root, 'test-results/cli'), { recursive: true, force: true });
    expect((await run('index', 'docs', '-o', out)).code).toBe(0);
    const { header } = readPrebuiltHeader(new Uint8Array(readFileSync(out)));
    expect(header).toMatchObject({ modelId: 'threadline-glove-30k#fp32', dims: 100 });
    expect(header.docs).toBeGreaterThan(0);
    const globbed = join(root, 'test-results/cli/globbed.tlix');
    expect((await run('index', 'docs/**/*.html', '-o', globbed)).code).toBe(0);
    expect(readPrebuiltHeader(new Uint8Array(readFileSync(globbed))).header.docs).toBe(1);
    expect((await run('element', element)).code).toBe(0);
    for (const file of ['threadline-chat.js', 'threadline-glove-30k/onnx/model.onnx', 'ort/ort-wasm-simd-threaded.asyncify.wasm']) {
      expect(existsSync(join(element, file)) && statSync(join(element, file)).size > 0, file).toBe(true);
    }
  });
});
