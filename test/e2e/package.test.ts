import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { readPrebuiltHeader } from '../../src/prebuilt/format';
import { installPacked, requireBuild, root } from './built';

const run = promisify(execFile);

beforeAll(() => requireBuild());

describe('the published package (npm pack, installed into an empty project)', () => {
  it('gives a working `npx threadline` and importable entry points', async () => {
    const dir = join(root, 'test-results/package');
    await installPacked(dir);
    mkdirSync(join(dir, 'docs'));
    writeFileSync(join(dir, 'docs/refunds.md'), '# Refunds\n\n## Window\nReturns within 30 days.\n');
    await run('npx', ['threadline', 'index', 'docs', '-o', 'public/site.tlix'], { cwd: dir, timeout: 60_000 });
    await run('npx', ['threadline', 'element', 'public/threadline'], { cwd: dir, timeout: 60_000 });
    expect(readPrebuiltHeader(new Uint8Array(readFileSync(join(dir, 'public/site.tlix')))).header).toMatchObject({ docs: 1, modelId: 'threadline-glove-30k#int8' });
    for (const file of ['threadline-chat.js', 'threadline-glove-30k/model.safetensors']) expect(existsSync(join(dir, 'public/threadline', file)), file).toBe(true);
    expect(readdirSync(join(dir, 'public/threadline')).some((f) => /^retrieval\.worker-.*\.js$/.test(f))).toBe(true);
    const imported = await run(process.execPath, ['-e', "Promise.all([import('threadline'), import('threadline/render'), import('threadline/build')]).then(([m, r, b]) => console.log(typeof m.createThreadline, typeof r.renderMarkdown, typeof b.buildPrebuiltIndex))"], { cwd: dir, timeout: 60_000 });
    expect(imported.stdout.trim()).toBe('function function function');
  }, 300_000);
});
