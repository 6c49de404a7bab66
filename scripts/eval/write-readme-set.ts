/**
 * Writes build/eval-readmes/, build/eval-readmes-2/ and build/eval-readmes-3/: evaluation sets in
 * the format of shared/eval/README.md over another kind of corpus than the
 * others, the documentation a site author would put behind the chat box
 * (readme-corpus.ts). The first set's conversations (readme-set-1.ts) were
 * written by hand on 2026-11-24 (session 17) as a developer would ask, with
 * human rewrites and gold sections, and measured once before any rule was
 * changed; the second set's (readme-set-2.ts) in session 18 and the third's
 * (readme-set-3.ts) in session 19, held out in the same way (figures in the
 * README's *Quality* section).
 *
 * `npx tsx scripts/eval/write-readme-set.ts && npm run eval -- --data build/eval-readmes` (or `build/eval-readmes-2`, `build/eval-readmes-3`)
 */
import { writeReadmeSet } from './readme-corpus';
import { FIRST } from './readme-set-1';
import { SECOND } from './readme-set-2';
import { THIRD } from './readme-set-3';

for (const set of [FIRST, SECOND, THIRD]) writeReadmeSet(set);
