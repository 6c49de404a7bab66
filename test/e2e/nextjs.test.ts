/**
 * A Next.js site (Next 16, whose default bundler is Turbopack) as its author meets
 * threadline: the packed package, the index built with `npx threadline index` into
 * `public/`, and `<threadline-chat>` in a `'use client'` component that imports
 * `threadline/element` (which Next also prerenders, in Node). Before, Turbopack
 * failed the build on onnxruntime-web's Node-only `new URL('ort.webgpu.min.mjs', …)`
 * ("Module not found"), and prerendering threw "HTMLElement is not defined".
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SAMPLE_KB } from '../../demo/sample-kb';
import { serveStatic } from '../../scripts/static-server.ts';
import { launch } from './browser';
import { askElementAt, installPacked, requireBuild, root } from './built';

const run = promisify(execFile);
/** Pinned: Next 16 builds with Turbopack by default. */
const NEXT = ['next@16.4.6', 'react@19.3.1', 'react-dom@19.3.1'];

describe('threadline in a Next.js site (Next 16, Turbopack)', () => {
  it('next build (static export) succeeds with the element in a client component; the exported site answers', async () => {
    requireBuild();
    const app = join(root, 'test-results/nextjs-app');
    await installPacked(app, NEXT);
    mkdirSync(join(app, 'app'), { recursive: true });
    mkdirSync(join(app, 'docs'), { recursive: true });
    for (const doc of SAMPLE_KB) writeFileSync(join(app, `docs/${doc.id}.md`), doc.markdown);
    await run('npx', ['threadline', 'index', 'docs', '-o', 'public/site.tlix'], { cwd: app, timeout: 60_000 });
    writeFileSync(join(app, 'next.config.mjs'), "export default { output: 'export' };\n");
    writeFileSync(join(app, 'app/layout.js'), 'export default function RootLayout({ children }) {\n  return (<html lang="en"><body>{children}</body></html>);\n}\n');
    writeFileSync(join(app, 'app/chat.js'), "'use client';\nimport 'threadline/element';\n\nexport default function Chat() {\n  return <threadline-chat index=\"/site.tlix\"></threadline-chat>;\n}\n");
    writeFileSync(join(app, 'app/page.js'), "import Chat from './chat';\n\nexport default function Page() {\n  return (<main><h1>Ask the help pages</h1><Chat /></main>);\n}\n");
    // Telemetry off: it would call a host this machine cannot reach.
    await run(join(app, 'node_modules/.bin/next'), ['build'], { cwd: app, timeout: 300_000, env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });

    const server = await serveStatic(join(app, 'out'));
    const browser = await launch();
    try {
      const { context, foreign, answer } = await askElementAt(browser, server.origin, SAMPLE_KB.length, "what's the refund window?");
      expect(answer).toMatch(/30 days/);
      expect(foreign).toEqual([]);
      await context.close();
    } finally {
      await browser.close();
      await server.close();
    }
  }, 600_000);
});
