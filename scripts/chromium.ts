/** Where Chromium is and how it is started, shared by the browser tests, the bench and the e2e tests. */
import { existsSync } from 'node:fs';

export function chromiumPath(): string {
  return process.env.CHROME_PATH ?? '/usr/bin/chromium';
}

/**
 * Headless flags verified on these machines: no sandbox (root), no GPU process,
 * and no background network traffic (the network is closed; without these,
 * Chromium retries connections to its own services).
 */
export function chromiumArgs({ webgpu = false }: { webgpu?: boolean } = {}): string[] {
  const args = [
    '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
  ];
  if (webgpu) args.push('--enable-unsafe-webgpu');
  return args;
}

export function hasChromium(): boolean {
  return existsSync(chromiumPath());
}
