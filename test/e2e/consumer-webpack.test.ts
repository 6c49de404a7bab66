/**
 * threadline in a webpack 5 app, as a consumer meets it: the packed package
 * installed into an empty app, the README's "Using it" example as its only code
 * (docs/examples/quick-start.ts: it has no type annotations, so it is plain
 * JavaScript too), webpack with nothing but an entry and an output folder, the
 * output on a plain static server, Chromium with every other origin blocked.
 * The README says its worker and model references are the shape webpack follows;
 * this is where that is checked (before, webpack refused to build the example:
 * a Node-only `import('node:fs/promises')` and onnxruntime-web's bare
 * `new URL('ort.webgpu.min.mjs', import.meta.url)` in threadline's chunks).
 */
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import webpack from 'webpack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStatic, type StaticServer } from '../../scripts/static-server.ts';
import { launch } from './browser';
import { confinedPage, du, EXAMPLE_ANSWERS, EXAMPLE_CONDENSED, exampleAnswers, exampleUnderStrictPolicy, installPacked, requireBuild, root } from './built';

const app = join(root, 'test-results/consumer-webpack');
let server: StaticServer | undefined;

/** webpack's own defaults (production mode, its own loaders only), run in the app's folder. */
function build(): Promise<webpack.Stats> {
  return new Promise((resolve, reject) => {
    webpack({ mode: 'production', context: app, entry: './src/main.js', output: { path: join(app, 'dist'), clean: true }, infrastructureLogging: { level: 'error' } }, (error, stats) => {
      if (error) return reject(error);
      if (!stats) return reject(new Error('webpack returned no stats'));
      if (stats.hasErrors()) return reject(new Error(stats.toString({ all: false, errors: true })));
      resolve(stats);
    });
  });
}

beforeAll(() => requireBuild());
afterAll(async () => server?.close());

describe('a webpack 5 app that installs the packed package and follows the README only', () => {
  it('builds with no configuration beyond entry and output, answers on the first visit and after a reload, fetches nothing from other origins', async () => {
    await installPacked(app);
    mkdirSync(join(app, 'src'));
    copyFileSync(join(root, 'docs/examples/quick-start.ts'), join(app, 'src/main.js'));
    await build();
    // The model's files are emitted (webpack names assets by their hash), as the workers are.
    const emitted = readdirSync(join(app, 'dist'));
    expect(emitted.filter((f) => f.endsWith('.safetensors'))).toHaveLength(1);
    writeFileSync(join(app, 'dist/index.html'), '<!doctype html>\n<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>app</title></head><body><script src="main.js"></script></body></html>\n');

    server = await serveStatic(join(app, 'dist'));
    const browser = await launch();
    try {
      const { context, foreign, page } = await confinedPage(browser, server.origin);
      const first = await exampleAnswers(page, `${server.origin}/`);
      const firstBytes = server.bytesSent();
      expect(first.answer, first.answer).toMatch(EXAMPLE_ANSWERS);
      // The follow-up is condensed: the condenser's code is in the app's bundle, no chunk of ours loaded at run time.
      expect(first.condensed.join('\n')).toMatch(EXAMPLE_CONDENSED);
      expect((await exampleAnswers(page, `${server.origin}/`)).answer).toMatch(EXAMPLE_ANSWERS);
      expect(foreign).toEqual([]);
      // Under a strict Content-Security-Policy with Trusted Types enforced, as the Vite build is (consumer-app.test.ts).
      const strict = await exampleUnderStrictPolicy(browser, join(app, 'dist'));
      expect(strict.answer).toMatch(EXAMPLE_ANSWERS);
      expect(strict.condensed.join('\n')).toMatch(EXAMPLE_CONDENSED);
      expect(strict.foreign).toEqual([]);
      console.log(`webpack app: dist ${(du(join(app, 'dist')) / 1e6).toFixed(1)} MB; first visit downloaded ${(firstBytes / 1e6).toFixed(2)} MB`);
      await context.close();
    } finally {
      await browser.close();
    }
  }, 400_000);
});
