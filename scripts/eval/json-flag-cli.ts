/**
 * The command line of the evaluation scripts that take nothing but an optional `--json FILE`
 * (`npm run eval:ablation`, `npm run eval:pooled`): runs `main` when `moduleFile` is the script node was
 * started with (not when a test imports it), and exits with the usage or the error's message on failure.
 */
import { resolve } from 'node:path';

export async function runWithJsonFlag(moduleFile: string, usage: string, main: (json?: string) => Promise<void>): Promise<void> {
  if (!process.argv[1] || resolve(process.argv[1]) !== resolve(moduleFile)) return;
  const args = process.argv.slice(2);
  try {
    if (args.length !== 0 && !(args.length === 2 && args[0] === '--json')) throw new Error(usage);
    await main(args[1]);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
