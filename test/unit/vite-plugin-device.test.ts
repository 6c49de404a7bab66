/**
 * threadline/vite's `device` option, run in Node as Vite runs the plugin's build hook (a stand-in for Vite's
 * plugin context: the hook only emits the file). The whole plugin in a real Vite app: test/e2e/vite-plugin.test.ts.
 */
import { resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readPrebuiltHeader } from '../../src/prebuilt/format';
import { threadlineIndex } from '../../src/vite/threadline-index';

const root = resolve(import.meta.dirname, '../..');

async function build(options: Parameters<typeof threadlineIndex>[0]): Promise<Uint8Array> {
  const plugin = threadlineIndex(options);
  (plugin.configResolved as (c: { root: string }) => void)({ root });
  let source: Uint8Array | null = null;
  await (plugin.generateBundle as (this: unknown) => Promise<void>).call({ emitFile: (file: { source: Uint8Array }) => { source = file.source; } });
  if (!source) throw new Error('nothing emitted');
  return source;
}

afterEach(() => vi.restoreAllMocks());

describe("threadline/vite's device option", () => {
  it("with the offline (static) model, device 'webgpu' builds the index and says the model needs no GPU", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const bytes = await build({ include: 'docs/examples/static-site', device: 'webgpu' });
    expect(readPrebuiltHeader(bytes).header.modelId).toBe('threadline-glove-30k#int8');
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^threadline\/vite: device 'webgpu': threadline-glove-30k#int8 is a static model, embedded in plain code on the CPU/));
  });

  it('without it, builds quietly', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await build({ include: 'docs/examples/static-site' });
    expect(warn).not.toHaveBeenCalled();
  });
});
