import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { chromiumArgs, chromiumPath } from './scripts/chromium.ts';
import { modelAssets } from './scripts/vite-model-assets.ts';
import { ortAssets } from './scripts/vite-ort-assets.ts';
import { isolationHeaders, ortConditions } from './vite.config.ts';

/** Two lanes: `unit` runs pure code in Node; `browser` runs in Debian's Chromium through playwright-core. */
export default defineConfig({
  publicDir: '.models',
  plugins: [ortAssets(), modelAssets()],
  resolve: { conditions: ortConditions },
  server: { headers: isolationHeaders },
  worker: { format: 'es' },
  optimizeDeps: { include: ['@huggingface/transformers', '@huggingface/tokenizers', 'comlink', 'idb', 'pdfjs-dist/legacy/build/pdf.mjs', 'pdfjs-dist/legacy/build/pdf.worker.mjs', 'mammoth'] },
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'unit', environment: 'node', include: ['test/unit/**/*.test.ts'], testTimeout: 60_000 },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          testTimeout: 60_000,
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({ launchOptions: { executablePath: chromiumPath(), args: chromiumArgs() } }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
});
