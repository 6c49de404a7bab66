/**
 * threadline as a consumer meets it: `npm pack`, an empty Vite app that installs
 * the tarball and Vite and nothing else, the README's "Using it" example as its
 * only code (docs/examples/quick-start.ts, which a test keeps identical to the
 * README), `vite build`, `dist/` on a plain static server, Chromium with every
 * other origin blocked; then the same app under `vite` (dev server). Prints what the goals table in the README reports:
 * install size, deploy size, bytes a first visitor downloads until the first
 * answer, and the time to it on the first visit and after a reload.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStatic, type StaticServer } from '../../scripts/static-server.ts';
import { launch } from './browser';
import { confineTo, installPacked, requireBuild, root, startViteDev, viteSpec, du, confinedPage, EXAMPLE_ANSWERS, EXAMPLE_CONDENSED, exampleAnswers, exampleUnderStrictPolicy } from './built';

const run = promisify(execFile);
const app = join(root, 'test-results/consumer-app');
let server: StaticServer | undefined;

beforeAll(() => requireBuild());
afterAll(async () => server?.close());

describe('a Vite app that installs the packed package and follows the README only', () => {
  it('builds, answers on the first visit and after a reload, fetches nothing from other origins', async () => {
    await installPacked(app, [viteSpec()]);
    mkdirSync(join(app, 'src'));
    expect(readdirSync(join(app, 'node_modules')).filter((d) => /onnxruntime|@huggingface|@mlc-ai/.test(d))).toEqual([]);
    copyFileSync(join(root, 'docs/examples/quick-start.ts'), join(app, 'src/main.ts'));
    writeFileSync(join(app, 'index.html'), '<!doctype html>\n<html><head><meta charset="utf-8"><title>app</title></head><body><script type="module" src="/src/main.ts"></script></body></html>\n');
    await run(join(app, 'node_modules/.bin/vite'), ['build'], { cwd: app, timeout: 120_000 });

    server = await serveStatic(join(app, 'dist'));
    const browser = await launch();
    try {
      const { context, foreign, page } = await confinedPage(browser, server.origin);
      const first = await exampleAnswers(page, `${server.origin}/`);
      const firstBytes = server.bytesSent(); // everything the server sent the first visitor (uncompressed)
      // The README's two turns: the window, then the follow-up, condensed, finds the damaged-items clause.
      expect(first.answer, first.answer).toMatch(EXAMPLE_ANSWERS);
      // The follow-up is condensed: the condenser's code is in the app's bundle, no chunk of ours loaded at run time.
      expect(first.condensed.join('\n')).toMatch(EXAMPLE_CONDENSED);
      const again = await exampleAnswers(page, `${server.origin}/`);
      expect(foreign).toEqual([]);
      // The same build on a host that sends a strict Content-Security-Policy with Trusted Types enforced: the workers the
      // bundler emitted start through threadline's own policy, and the model files it inlined as data: URLs are read
      // without a fetch, which connect-src 'self' refuses (before: MODEL_LOAD_FAILED "…config.json … could not be fetched").
      const strict = await exampleUnderStrictPolicy(browser, join(app, 'dist'));
      expect(strict.answer).toMatch(EXAMPLE_ANSWERS);
      expect(strict.condensed.join('\n')).toMatch(EXAMPLE_CONDENSED);
      expect(strict.foreign).toEqual([]);
      const installed = du(join(app, 'node_modules'));
      // The same app under Vite's dev server (`npx vite`), again with no configuration.
      const { url, stop } = await startViteDev(app);
      try {
        const devContext = await browser.newContext();
        const devForeign = await confineTo(devContext, new URL(url).origin);
        expect((await exampleAnswers(await devContext.newPage(), url)).answer).toMatch(/damaged on arrival/);
        expect(devForeign).toEqual([]);
        await devContext.close();
      } finally {
        stop();
      }
      console.log(`consumer app: node_modules ${(installed / 1e6).toFixed(1)} MB (threadline ${(du(join(app, 'node_modules/threadline')) / 1e6).toFixed(1)} MB); dist ${(du(join(app, 'dist')) / 1e6).toFixed(1)} MB; first visit downloaded ${(firstBytes / 1e6).toFixed(2)} MB; first answer ${first.ms} ms, after a reload ${again.ms} ms`);
      await context.close();
    } finally {
      await browser.close();
    }
  }, 400_000);
});
