/** Exposes the library to Playwright-driven pages: tests call it through page.evaluate. */
import * as root from '../../src/index';
import * as render from '../../src/render';
import { SAMPLE_KB } from '../../demo/sample-kb';
import { auditStore } from '../browser/helpers';

declare global {
  interface Window { threadline: typeof root & typeof render; sampleKb: typeof SAMPLE_KB; auditStore: typeof auditStore; harnessReady: boolean }
}

window.threadline = { ...root, ...render };
window.sampleKb = SAMPLE_KB;
window.auditStore = auditStore;
window.harnessReady = true;
