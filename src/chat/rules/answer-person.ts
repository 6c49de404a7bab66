/**
 * The person an answer is about. "Who are the greatest catchers of all time?" then "What was he known for?":
 * no user turn names a person, so "he" means the one the answer talked about (Johnny Bench). Prose names a
 * person in full, then again by the last name alone ("Bench was Rookie of the Year in 1968"), so the person an
 * answer is about is the two-word name it mentions most, counting those mentions by the last name alone.
 */
import { nameRuns } from './name-runs';
import { NO_PERSON_HEADS } from './word-lists';

/** At most this many answers back, newest first: a person named longer ago is no longer what "he" means. */
export const ANSWERS_READ = 3;

/**
 * The most mentioned person of the newest of the last ANSWERS_READ answers that names one in full and again by
 * the last name alone: a name said once in passing is not what the answer is about, and a name never shortened
 * ("Major League Baseball") is no person's.
 */
export function answerPerson(answers: readonly string[]): string | undefined {
  for (const answer of answers.slice(-ANSWERS_READ).reverse()) {
    const person = mostMentioned(answer);
    if (person) return person;
  }
  return undefined;
}

function mostMentioned(answer: string): string | undefined {
  const full = new Map<string, number>();
  const alone = new Map<string, number>();
  for (const { words } of nameRuns(answer)) {
    if (words.length === 1) alone.set(words[0] as string, (alone.get(words[0] as string) ?? 0) + 1);
    // A run of up to four words ("Fame Johnny Bench", after "Hall of"): its last two are the person's names.
    else if (words.length <= 4) {
      const key = words.slice(-2).join(' ');
      full.set(key, (full.get(key) ?? 0) + 1);
    }
  }
  let best: { name: string; score: number } | undefined;
  // Maps iterate in insertion order: on a tie, the name mentioned first wins.
  for (const [key, count] of full) {
    const last = key.split(' ')[1] as string;
    const again = alone.get(last) ?? 0;
    if (again === 0 || NO_PERSON_HEADS.has(last.toLowerCase())) continue;
    if (!best || count + again > best.score) best = { name: key, score: count + again };
  }
  return best?.name;
}
