/**
 * A VitePress site (VitePress 1, which builds with Vite 5: the bundler generation
 * most site generators still use) as its author meets threadline: the packed
 * package, the README's plugin line in `.vitepress/config.mjs`, the element
 * imported by the theme (top level, so its server render imports it in Node too),
 * and `<threadline-chat>` on the home page. Before, its build failed three ways:
 * Vite 5 builds workers as IIFE and cannot split them ("UMD and IIFE output formats
 * are not supported for code-splitting builds"), it cannot read a worker's options
 * that are not a literal (the LLM worker's name), and a root-relative `baseUrl`
 * was an "Invalid URL"; and its server render threw "HTMLElement is not defined".
 * It also warned that a Node module in threadline's worker had been "externalized".
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SAMPLE_KB } from '../../demo/sample-kb';
import { serveStatic } from '../../scripts/static-server.ts';
import { launch } from './browser';
import { askElementAt, installPacked, requireBuild, root, startViteDev } from './built';

const run = promisify(execFile);
/** Pinned: the last VitePress on Vite 5. */
const VITEPRESS = 'vitepress@1.6.4';

describe('threadline in a VitePress site (Vite 5)', () => {
  it('vitepress build succeeds with the plugin and the element; the built site answers, citing the built page, and so does vitepress dev', async () => {
    requireBuild();
    const app = join(root, 'test-results/vitepress-app');
    await installPacked(app, [VITEPRESS]);
    mkdirSync(join(app, 'docs/guide'), { recursive: true });
    mkdirSync(join(app, 'docs/.vitepress/theme'), { recursive: true });
    for (const doc of SAMPLE_KB.slice(0, 3)) writeFileSync(join(app, `docs/guide/${doc.id}.md`), doc.markdown);
    writeFileSync(join(app, 'docs/.vitepress/config.mjs'), [
      "import { defineConfig } from 'vitepress';",
      "import { threadlineIndex } from 'threadline/vite';",
      'export default defineConfig({',
      "  title: 'Lumen help',",
      "  vue: { template: { compilerOptions: { isCustomElement: (tag) => tag === 'threadline-chat' } } },",
      "  vite: { plugins: [threadlineIndex({ include: 'guide', baseUrl: '/guide/' })] },",
      '});',
    ].join('\n'));
    writeFileSync(join(app, 'docs/.vitepress/theme/index.js'), "import DefaultTheme from 'vitepress/theme';\nimport 'threadline/element';\nexport default DefaultTheme;\n");
    writeFileSync(join(app, 'docs/index.md'), '# Ask the help pages\n\n<threadline-chat index="/site.tlix"></threadline-chat>\n');
    const built = await run(join(app, 'node_modules/.bin/vitepress'), ['build', 'docs'], { cwd: app, timeout: 240_000 });
    // No warning about threadline either: an import('node:fs/promises') in the worker made Vite 5 warn that it had "externalized" it.
    expect(`${built.stdout}${built.stderr}`).not.toMatch(/externalized for browser compatibility/);

    const server = await serveStatic(join(app, 'docs/.vitepress/dist'));
    const browser = await launch();
    /** Opens the site's home page at `origin`, asks, and checks the answer and its citation. */
    const chatAt = async (origin: string) => {
      const { context, page, foreign, answer } = await askElementAt(browser, origin, 3, "what's the refund window?");
      expect(answer).toMatch(/refund window|30 days/);
      expect(await page.locator('threadline-chat .tl-passage-link').first().getAttribute('href')).toBe(`${origin}/guide/refunds.html`);
      expect(foreign).toEqual([]);
      await context.close();
    };
    try {
      await chatAt(server.origin);
      // Dev: `vitepress dev`, where Vite 5's dependency optimizer had bundled threadline without its worker (WORKER_CRASHED).
      const dev = await startViteDev(app, ['vitepress', 'dev', 'docs']);
      try {
        await chatAt(new URL(dev.url).origin);
      } finally {
        dev.stop();
      }
    } finally {
      await browser.close();
      await server.close();
    }
  }, 400_000);
});
