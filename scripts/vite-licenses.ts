/**
 * The licences of the code threadline bundles (pdf.js, mammoth, DOMPurify,
 * idb, comlink, the tokenizer…): most require their notice to travel with
 * any copy, and a minifier keeps few of them. One plugin instance is shared
 * by the page build and its worker builds (`licenses.plugin`), records every
 * bundled package, and `licenses.write(file)` writes them once all builds
 * are done: name, version, licence and the licence file's text.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { Plugin } from 'vite';

export function bundledLicenses(): { plugin: () => Plugin; write: (file: string) => number } {
  const packages = new Set<string>();
  const record = (id: string) => {
    const at = id.lastIndexOf(`${sep}node_modules${sep}`);
    if (at < 0) return;
    const rest = id.slice(at + 14).split(sep);
    const name = rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1] ?? ''}` : rest[0];
    if (name) packages.add(join(id.slice(0, at + 14), name));
  };
  return {
    plugin: () => ({
      name: 'threadline-licenses',
      apply: 'build',
      moduleParsed(info) { record(info.id.split('?')[0] ?? ''); },
    }),
    write(file) {
      const sections = [...packages].sort().flatMap((dir) => {
        const pkgFile = join(dir, 'package.json');
        if (!existsSync(pkgFile)) return [];
        const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { name?: string; version?: string; license?: string };
        const licenseFile = readdirSync(dir).find((f) => /^(licen[cs]e|copying|notice)(\.|$)/i.test(f));
        const text = licenseFile ? readFileSync(join(dir, licenseFile), 'utf8').trim() : `(no licence file in the package; its package.json says ${pkg.license ?? 'nothing'})`;
        return [`${pkg.name ?? dir}@${pkg.version ?? '?'} (${pkg.license ?? 'unknown'})\n\n${text}`];
      });
      writeFileSync(file, `Code of these packages is bundled into threadline's files.\n\n${sections.join(`\n\n${'-'.repeat(72)}\n\n`)}\n`);
      return sections.length;
    },
  };
}
