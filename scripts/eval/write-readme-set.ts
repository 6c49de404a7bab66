/**
 * Writes build/eval-readmes/ and build/eval-readmes-2/ to -21/: evaluation sets in
 * the format of shared/eval/README.md over another kind of corpus than the
 * others, the documentation a site author would put behind the chat box
 * (readme-corpus.ts). The first set's conversations (readme-set-1.ts) were
 * written by hand on 2026-11-24 (session 17) as a developer would ask, with
 * human rewrites and gold sections, and measured once before any rule was
 * changed; the second set's (readme-set-2.ts) in session 18, the third's
 * (readme-set-3.ts) in session 19, the fourth's (readme-set-4.ts) in
 * session 20, the fifth's (readme-set-5.ts) in session 21 the sixth's (readme-set-6.ts) and the seventh's (readme-set-7.ts) in session 22
 * the eighth's (readme-set-8.ts) in session 23, the ninth's (readme-set-9.ts) in session 24, the tenth's (readme-set-10.ts) in session 25, the eleventh's (readme-set-11.ts) in session 26, the twelfth's (readme-set-12.ts) in session 27, the thirteenth's (readme-set-13.ts) in session 28, the fourteenth's (readme-set-14.ts) in session 38, the fifteenth's (readme-set-15.ts) in session 40, the sixteenth's (readme-set-16.ts) in session 41 the seventeenth's (readme-set-17.ts) in session 43, the eighteenth's (readme-set-18.ts) in session 44, the nineteenth's (readme-set-19.ts) in session 45, the twentieth's (readme-set-20.ts) in session 48 and the twenty-first's (readme-set-21.ts) in session 49,
 * held out in the same way (figures in the
 * README's *Quality* section).
 *
 * `npx tsx scripts/eval/write-readme-set.ts && npm run eval -- --data build/eval-readmes` (or `build/eval-readmes-2` to `-21`)
 */
import { writeReadmeSet } from './readme-corpus';
import { FIRST } from './readme-set-1';
import { SECOND } from './readme-set-2';
import { THIRD } from './readme-set-3';
import { FOURTH } from './readme-set-4';
import { FIFTH } from './readme-set-5';
import { SIXTH } from './readme-set-6';
import { SEVENTH } from './readme-set-7';
import { EIGHTH } from './readme-set-8';
import { NINTH } from './readme-set-9';
import { TENTH } from './readme-set-10';
import { ELEVENTH } from './readme-set-11';
import { TWELFTH } from './readme-set-12';
import { THIRTEENTH } from './readme-set-13';
import { FOURTEENTH } from './readme-set-14';
import { FIFTEENTH } from './readme-set-15';
import { SIXTEENTH } from './readme-set-16';
import { SEVENTEENTH } from './readme-set-17';
import { EIGHTEENTH } from './readme-set-18';
import { NINETEENTH } from './readme-set-19';
import { TWENTIETH } from './readme-set-20';
import { TWENTY_FIRST } from './readme-set-21';

for (const set of [FIRST, SECOND, THIRD, FOURTH, FIFTH, SIXTH, SEVENTH, EIGHTH, NINTH, TENTH, ELEVENTH, TWELFTH, THIRTEENTH, FOURTEENTH, FIFTEENTH, SIXTEENTH, SEVENTEENTH, EIGHTEENTH, NINETEENTH, TWENTIETH, TWENTY_FIRST]) writeReadmeSet(set);
