/**
 * threadline/vite's `device` option, run in Node as Vite runs the plugin's build hook (a stand-in for Vite's
 * plugin context: the hook only emits the file). The whole plugin in a real Vite app: test/e2e/vite-plugin.test.ts.
 */
import { resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readPrebuiltHeader } from '../../src/prebuilt/format';
import { deviceNotes } from '../../src/cli/index-files';
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
    expect(readPrebuiltHeader(bytes).header.modelId).toBe('threadline-glove-30k#int8-v2');
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^threadline\/vite: device 'webgpu': threadline-glove-30k#int8-v2 is a static model, embedded in plain code on the CPU/));
  });

  it('without it, builds quietly', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await build({ include: 'docs/examples/static-site' });
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('deviceNotes: what device webgpu did not do as asked, said by threadline index and the plugin', () => {
  const cli = (name: string, value: string) => `--${name} ${value}`;
  it('a static model needs no GPU; quantized weights were slower on one; anything else says nothing', () => {
    expect(deviceNotes({ device: 'webgpu' }, { modelId: 'threadline-glove-30k#int8-v2', staticModel: true }, cli)).toEqual([expect.stringMatching(/^--device webgpu: threadline-glove-30k#int8-v2 is a static model/)]);
    expect(deviceNotes({ device: 'webgpu', dtype: 'q8' }, { modelId: 'm#q8', staticModel: false }, cli)).toEqual([expect.stringMatching(/^--device webgpu with --dtype q8: quantized weights ran slower on WebGPU than on the CPU .*0\.41×/)]);
    expect(deviceNotes({ device: 'webgpu', dtype: 'fp32' }, { modelId: 'm#fp32', staticModel: false }, cli)).toEqual([]);
    expect(deviceNotes({ device: 'webgpu' }, { modelId: 'm#auto', staticModel: false }, cli)).toEqual([]);
    expect(deviceNotes({ device: 'cpu', dtype: 'q8' }, { modelId: 'm#q8', staticModel: false }, cli)).toEqual([]);
    expect(deviceNotes({ dtype: 'q8' }, { modelId: 'threadline-glove-30k#int8-v2', staticModel: true }, cli)).toEqual([]);
  });
});

describe("threadline/vite's options, as an untyped vite.config.js may write them", () => {
  it('says which option is wrong when Vite loads the config (a TypeError from inside the plugin, or a failure after the build, before)', () => {
    const make = (options: unknown) => () => threadlineIndex(options as Parameters<typeof threadlineIndex>[0]);
    expect(make(undefined)).toThrow("threadline/vite: threadlineIndex takes options: threadlineIndex({ include: 'docs' })");
    for (const include of [undefined, 42, '', [], ['docs', 7]]) expect(make({ include })).toThrow('threadline/vite: include must name the pages to index');
    for (const fileName of ['../site.tlix', 'a/../../b.tlix', '', 'search//site.tlix', 7]) expect(make({ include: 'docs', fileName })).toThrow('threadline/vite: fileName must be a path inside the build');
    expect(make({ include: 'docs', dtype: 'f32' })).toThrow('threadline/vite: dtype must be one of auto, fp32');
    expect(make({ include: 'docs', device: 'gpu' })).toThrow("threadline/vite: device must be 'cpu' or 'webgpu'");
    expect(make({ include: 'docs', baseUrl: 'javascript:alert(1)' })).toThrow('threadline/vite: baseUrl javascript:alert(1) is neither an absolute http(s) URL');
    // What was valid stays valid: a leading slash, a folder in the name, a list.
    expect(make({ include: ['docs', 'guide/*.md'], fileName: '/search/site.tlix', baseUrl: '/docs/', dtype: 'q8', device: 'cpu' })).not.toThrow();
  });
});
