/**
 * The log follows the conversation: the new question goes to the top of the
 * log, so it and the start of its answer are in view as the answer streams
 * (scrolling to the bottom would push the question out). A reader who
 * scrolls the log during the turn is left where they are.
 * Call the result after each streamed event; `stop()` when the turn ends.
 */
export function followTurn(log: HTMLElement, turn: HTMLElement): (() => void) & { stop(): void } {
  let expected = log.scrollTop;
  let reader = false;
  // A scroll that does not land where we put the log is the reader's.
  const onScroll = () => { if (Math.abs(log.scrollTop - expected) > 2) reader = true; };
  const align = () => {
    if (reader) return;
    log.scrollTop += turn.getBoundingClientRect().top - log.getBoundingClientRect().top;
    expected = log.scrollTop;
  };
  log.addEventListener('scroll', onScroll, { passive: true });
  align();
  return Object.assign(align, { stop: () => log.removeEventListener('scroll', onScroll) });
}
