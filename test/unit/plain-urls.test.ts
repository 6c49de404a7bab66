import { describe, expect, it } from 'vitest';
import { plainUrls } from '../../scripts/vite-plain-urls.ts';

describe('plainUrls (library build output, rewritten for the app\'s bundler)', () => {
  it('turns Vite\'s nested and prefixed shapes into new URL(\'./file\', import.meta.url)', () => {
    expect(plainUrls('new URL(/* @vite-ignore */ new URL(`retrieval.worker-x.js`, import.meta.url).href, "" + import.meta.url)')).toBe('new URL("./retrieval.worker-x.js", import.meta.url)');
    expect(plainUrls('new URL(\'./threadline-glove-30k/config.json\', \'\' + import.meta.url)')).toBe('new URL("./threadline-glove-30k/config.json", import.meta.url)');
  });

  it('writes a bare name, which is no file threadline ships, in a shape no bundler follows (webpack, Parcel and Turbopack failed the build on it)', () => {
    const out = plainUrls('qe?new URL(new URL(`ort.webgpu.min.mjs`,import.meta.url).href,Ke).href:x');
    expect(out).toBe('qe?new URL(new URL(["ort", "webgpu", "min", "mjs"].join("."), import.meta.url).href,Ke).href:x');
    // The same name at run time.
    const parts = /new URL\((\[[^\]]*\])\.join\("\."\), import\.meta\.url\)/.exec(out)?.[1] ?? '[]';
    expect((JSON.parse(parts) as string[]).join('.')).toBe('ort.webgpu.min.mjs');
    expect(out).not.toMatch(/new URL\(\s*(["'`])[^"'`]*\1\s*,\s*import\.meta\.url\s*\)/); // the pattern bundlers follow
    expect(plainUrls(out)).toBe(out);
  });

  it('leaves relative references, absolute URLs and expressions as they are', () => {
    for (const code of ['new URL("./a.js", import.meta.url)', 'new URL("https://example.com/a", import.meta.url)', 'new URL(name, import.meta.url)', 'new URL(`${base}/a`, import.meta.url)']) expect(plainUrls(code)).toBe(code);
  });
});
