/** Driving the built playground as a visitor does, for the tests that open it (playground.test.ts, a11y.test.ts). */
import type { Page } from 'playwright-core';

/** Waits until the playground says it is ready; throws with its status when it failed to start instead. */
export async function ready(page: Page): Promise<void> {
  await page.waitForFunction(() => /^Ready\./.test(document.querySelector('#status')?.textContent ?? '') || document.querySelector('#status')?.getAttribute('data-state') === 'error', undefined, { timeout: 60_000 });
  const status = await page.locator('#status').textContent();
  if (!status?.startsWith('Ready.')) throw new Error(`playground did not start: ${status}`);
}

/** Asks `question` in the question box and waits for its answer's closing line. */
export async function ask(page: Page, question: string): Promise<void> {
  const before = await page.locator('.tl-turn').count();
  await page.fill('#question', question);
  await page.press('#question', 'Enter');
  await page.locator('.tl-turn').nth(before).locator('.tl-mode:not([hidden])').waitFor({ timeout: 30_000 });
}
