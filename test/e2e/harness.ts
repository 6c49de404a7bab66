/** Exposes the library to Playwright-driven pages: tests call it through page.evaluate. */
import * as threadline from '../../src/index';
import { SAMPLE_KB } from '../../demo/sample-kb';
import { auditStore } from '../browser/helpers';

declare global {
  interface Window { threadline: typeof threadline; sampleKb: typeof SAMPLE_KB; auditStore: typeof auditStore; harnessReady: boolean }
}

window.threadline = threadline;
window.sampleKb = SAMPLE_KB;
window.auditStore = auditStore;
window.harnessReady = true;
