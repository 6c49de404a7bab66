import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Writes a folder through a temporary sibling and one rename, so a crash never leaves a half-written model that looks complete. */
export function writeFolder(out: string, files: Record<string, string | Uint8Array>): void {
  const tmp = `${out}.partial-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  for (const [name, data] of Object.entries(files)) {
    mkdirSync(dirname(join(tmp, name)), { recursive: true });
    writeFileSync(join(tmp, name), data);
  }
  rmSync(out, { recursive: true, force: true });
  mkdirSync(dirname(out), { recursive: true });
  renameSync(tmp, out);
}
