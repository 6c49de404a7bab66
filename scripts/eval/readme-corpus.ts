/**
 * An evaluation set over installed packages' README files: one passage per
 * section, read from node_modules at run time (nothing of them is copied into
 * this repository; their versions are the lockfile's), with conversations
 * written by hand. Writing one fails if a gold section is gone (a package
 * changed) or two sections would share an id.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseMarkdown } from '../../src/ingest/markdown';

const ROOT = resolve(import.meta.dirname, '../..');

type Kind = 'first' | 'standalone' | 'followup';
export const turn = (user: string, rewrite: string, gold: string[], kind: Kind, assistant: string) => ({ user, rewrite, gold, kind, assistant });

export interface ReadmeSet {
  /** Under build/. */
  folder: string;
  /** Of conversation and turn ids. */
  prefix: string;
  /** [id prefix of its passages, package path in node_modules, title]. */
  packages: [id: string, path: string, title: string][];
  conversations: [id: string, turns: ReturnType<typeof turn>[]][];
}

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/**
 * One passage per section with text, its id the package and the slug of its heading; a heading a package
 * repeats (mammoth's "Underline" under the library and under the style-map matchers) also gets its parent's.
 */
function passages(packages: ReadmeSet['packages']): { id: string; text: string; source: string }[] {
  return packages.flatMap(([id, path, title]) => {
    // Packages name the file README.md, readme.md or Readme.md.
    const file = readdirSync(resolve(ROOT, 'node_modules', path)).find((name) => /^readme\.md$/i.test(name));
    if (!file) throw new Error(`no README in node_modules/${path}`);
    const doc = parseMarkdown(readFileSync(resolve(ROOT, 'node_modules', path, file), 'utf8'));
    const seen = new Set<string>();
    return doc.sections.flatMap((section) => {
      const body = doc.text.slice(section.start, section.end).trim();
      if (!body) return [];
      const own = `${id}/${slug(section.headingPath.at(-1) ?? '')}`;
      const key = seen.has(own) ? `${id}/${slug(section.headingPath.slice(-2).join(' '))}` : own;
      seen.add(key);
      return [{ id: key, text: `${[title, ...section.headingPath].join(' › ')}. ${body}`, source: `${path}/${file}` }];
    });
  });
}

export function writeReadmeSet(set: ReadmeSet): void {
  const corpus = passages(set.packages);
  const ids = new Set(corpus.map((p) => p.id));
  // Two sections of one README under the same headings would share an id, and a gold id would name either.
  if (ids.size !== corpus.length) throw new Error(`two sections share an id: ${corpus.map((p) => p.id).filter((id, i, all) => all.indexOf(id) !== i).join(', ')}`);
  const missing = set.conversations.flatMap(([, turns]) => turns.flatMap((t) => t.gold)).filter((g) => !ids.has(g));
  if (missing.length) throw new Error(`gold passages not in the installed READMEs (a package changed?): ${missing.join(', ')}`);
  const dir = resolve(ROOT, 'build', set.folder);
  mkdirSync(dir, { recursive: true });
  writeFileSync(resolve(dir, 'corpus.jsonl'), `${corpus.map((p) => JSON.stringify(p)).join('\n')}\n`);
  writeFileSync(resolve(dir, 'conversations.jsonl'), `${set.conversations.map(([id, turns]) => JSON.stringify({ id: `${set.prefix}-${id}`, turns: turns.map((t, i) => ({ id: `${set.prefix}-${id}-${i + 1}`, ...t })) })).join('\n')}\n`);
  console.log(`${dir}: ${corpus.length} passages, ${set.conversations.length} conversations, ${set.conversations.reduce((n, [, t]) => n + t.length, 0)} turns`);
}
