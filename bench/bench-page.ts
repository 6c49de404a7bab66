/**
 * bench/bench.html in headless Chromium behind the vite dev server, for
 * bench/run.ts and bench/ingest.ts: `open()` (re)loads the page and waits
 * until its benchmarks are ready, `otherTab()` opens a second one; `close()`
 * stops the browser and the server.
 */
import { chromium, type Page } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../scripts/chromium.ts';
import { startDevServer } from '../scripts/dev-server.ts';

export interface BenchPage {
  page: Page;
  /** The browser's version, for the report. */
  version: string;
  open: () => Promise<void>;
  /** Another tab on the same page, ready. */
  otherTab: () => Promise<Page>;
  close: () => Promise<void>;
}

export async function benchPage(): Promise<BenchPage> {
  // The peer libraries bench.worker.ts imports, bundled up front: one discovered late makes vite reload the page mid-run.
  const { server, origin } = await startDevServer(['bench/bench.html'], {
    cache: 'bench',
    include: ['@orama/orama', '@langchain/classic/vectorstores/memory', '@langchain/core/documents', 'hnswlib-wasm', 'client-vector-search'],
  });
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs() });
  const page = await browser.newPage();
  page.setDefaultTimeout(600_000);
  const load = async (tab: Page) => {
    await tab.goto(`${origin}/bench/bench.html`);
    await tab.waitForFunction(() => window.benchReady === true);
  };
  return {
    page,
    version: browser.version(),
    open: () => load(page),
    otherTab: async () => {
      const tab = await browser.newPage();
      tab.setDefaultTimeout(600_000);
      await load(tab);
      return tab;
    },
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}
