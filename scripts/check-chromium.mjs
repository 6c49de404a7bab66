// Fails fast, in one line, when the browser tests have no Chromium to run in.
import { existsSync } from 'node:fs';
const path = process.env.CHROME_PATH ?? '/usr/bin/chromium';
if (!existsSync(path)) {
  console.error(`No Chromium at ${path}: install it (Debian: sudo apt-get install chromium) or set CHROME_PATH.`);
  process.exit(1);
}
