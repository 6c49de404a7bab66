/**
 * The CLI's inputs → files: a file, a folder (walked, dot-files and
 * node_modules skipped), or a glob (`docs/**\/*.md`, quoted so the shell leaves
 * it alone; `*` and `?` stay within one path segment, `**` spans any number).
 * Symbolic links are followed, each folder read once (a link back up the tree,
 * `current -> .`, is no endless walk), and a link to nothing is left out.
 */
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

const WILDCARD = /[*?]/;

function walk(path: string, seen = new Set<string>()): string[] {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return [];
  if (!stat.isDirectory()) return stat.isFile() ? [path] : [];
  const real = realpathSync(path);
  if (seen.has(real)) return [];
  seen.add(real);
  return readdirSync(path).sort().flatMap((name) => (name.startsWith('.') || name === 'node_modules' ? [] : walk(join(path, name), seen)));
}

export function globToRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] ?? '';
    if (c === '*' && glob[i + 1] === '*') {
      // "**/" matches zero or more whole segments; a trailing "**" matches everything below.
      out += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

/** Files named by `input` (absolute paths, sorted); throws when a literal path does not exist. */
export function expandInput(input: string, cwd = process.cwd()): string[] {
  const normalized = input.split(sep).join('/');
  if (!WILDCARD.test(normalized)) {
    const path = resolve(cwd, input);
    if (!existsSync(path)) throw new Error(`${input}: no such file or folder`);
    return walk(path);
  }
  const segments = normalized.split('/');
  const firstWild = segments.findIndex((s) => WILDCARD.test(s));
  const base = resolve(cwd, segments.slice(0, firstWild).join('/') || '.');
  if (!existsSync(base)) return [];
  const pattern = globToRegExp(segments.slice(firstWild).join('/'));
  return walk(base).filter((file) => pattern.test(relative(base, file).split(sep).join('/')));
}
