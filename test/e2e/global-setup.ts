import type { TestProject } from 'vitest/node';
import { startDevServer } from '../../scripts/dev-server.ts';

declare module 'vitest' {
  export interface ProvidedContext { origin: string }
}

/** One dev server for the harness-based e2e tests (built pages are served by scripts/static-server.ts). */
export default async function setup(project: TestProject) {
  const { server, origin } = await startDevServer(['test/e2e/harness.html']);
  project.provide('origin', origin);
  return async () => { await server.close(); };
}
