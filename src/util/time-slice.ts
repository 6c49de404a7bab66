/**
 * Long synchronous work in a worker (parsing, chunking and tokenizing a large
 * document), cut into stretches of about SLICE_MS: between two, the event loop
 * turns, so a search or an abort from the page is handled within a stretch,
 * not after the whole document. `due()` says a stretch is over; `next()` lets
 * the loop turn, then throws ABORTED if the signal fired meanwhile.
 */
import { throwIfAborted } from '../errors';
import { nextTask } from './next-task';

/** Long enough that the turns cost nothing measurable (a task is a few microseconds), short enough to go unnoticed. */
export const SLICE_MS = 20;

export class TimeSlice {
  private started = performance.now();

  constructor(private readonly signal?: AbortSignal, private readonly budgetMs = SLICE_MS) {}

  due(): boolean {
    return performance.now() - this.started >= this.budgetMs;
  }

  async next(): Promise<void> {
    await nextTask();
    throwIfAborted(this.signal);
    this.started = performance.now();
  }
}

/** Runs a generator of work steps to its end (the synchronous driver: its pauses are ignored). */
export function runSteps<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Runs a generator of work steps to its end, letting the event loop turn whenever a stretch of `slice` is over. */
export async function runStepsSliced<T>(steps: Generator<void, T>, slice: TimeSlice): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (slice.due()) await slice.next();
  }
}
