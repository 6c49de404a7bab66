/**
 * `threadline/vite` as a site author meets it: the packed package and Vite in an
 * empty app, one line of plugin config, pages in docs/. `vite build` writes the
 * index next to the site; the page loads it and answers from it; `vite` (dev)
 * serves it too.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { readPrebuiltHeader } from '../../src/prebuilt/format';
import { serveStatic } from '../../scripts/static-server.ts';
import { launch } from './browser';
import { confineTo, installPacked, requireBuild, root, startViteDev, viteSpec } from './built';

const run = promisify(execFile);

describe('threadline/vite: the index built with the site', () => {
  it('vite build emits site.tlix from docs/, titled and linked; the page loads it and answers; vite dev serves it', async () => {
    requireBuild();
    const app = join(root, 'test-results/vite-plugin-app');
    await installPacked(app, [viteSpec()]);
    mkdirSync(join(app, 'docs/guide'), { recursive: true });
    writeFileSync(join(app, 'docs/refunds.md'), '# Refund policy\n\n## Window\nReturns are accepted within 30 days of delivery.\n');
    writeFileSync(join(app, 'docs/guide/install.md'), '# Installing\n\nRun the installer, then sign in.\n');
    // The README's configuration, verbatim.
    const config = "import { threadlineIndex } from 'threadline/vite';\nexport default { plugins: [threadlineIndex({ include: 'docs', baseUrl: 'https://example.com/' })] };\n";
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toContain(`// vite.config.js\n${config}`);
    writeFileSync(join(app, 'vite.config.js'), config);
    writeFileSync(join(app, 'index.html'), '<!doctype html><meta charset="utf-8"><script type="module" src="/main.js"></script>\n');
    writeFileSync(join(app, 'main.js'), [
      "import { createThreadline } from 'threadline';",
      "const tl = await createThreadline({ name: 'plugin-app' });",
      "const loaded = await tl.load('./site.tlix');",
      "const [hit] = await tl.search('how long is the refund window?', { k: 1 });",
      'console.log(`loaded ${loaded.docs}: ${hit?.title} ${hit?.url}`);',
    ].join('\n'));

    await run(join(app, 'node_modules/.bin/vite'), ['build'], { cwd: app, timeout: 120_000 });
    const file = join(app, 'dist/site.tlix');
    expect(existsSync(file)).toBe(true);
    expect(readPrebuiltHeader(new Uint8Array(readFileSync(file))).header).toMatchObject({ docs: 2, modelId: 'threadline-glove-30k#int8-v2' });

    const server = await serveStatic(join(app, 'dist'));
    const browser = await launch();
    try {
      const context = await browser.newContext();
      const foreign = await confineTo(context, server.origin);
      const page = await context.newPage();
      const logged = new Promise<string>((resolve) => page.on('console', (m) => { if (m.text().startsWith('loaded ')) resolve(m.text()); }));
      await page.goto(`${server.origin}/`);
      expect(await logged).toBe('loaded 2: Refund policy https://example.com/refunds.html');
      expect(foreign).toEqual([]);
      await context.close();
    } finally {
      await browser.close();
      await server.close();
    }

    // Dev: the same file, served by the plugin.
    const { url, stop } = await startViteDev(app);
    try {
      const response = await fetch(new URL('site.tlix', url));
      expect(response.status).toBe(200);
      expect(readPrebuiltHeader(new Uint8Array(await response.arrayBuffer())).header.docs).toBe(2);
    } finally {
      stop();
    }
  }, 400_000);
});
