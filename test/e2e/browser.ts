/** Launches Debian's Chromium through playwright-core for the e2e tests. */
import { chromium, type Browser, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.ts';

export function launch(options: { webgpu?: boolean } = {}): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs(options), headless: true });
}

export const origin = (): string => inject('origin');

/** Opens the harness page and waits until the library is on window. */
export async function openHarness(browser: Browser, context = browser.contexts()[0]): Promise<Page> {
  const ctx = context ?? (await browser.newContext());
  const page = await ctx.newPage();
  await page.goto(`${origin()}/test/e2e/harness.html`);
  await page.waitForFunction(() => window.harnessReady === true);
  return page;
}
