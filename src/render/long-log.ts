/**
 * A log of many turns lets the turns out of view skip layout (`content-visibility: auto` under `.tl-long` in the
 * element's style): every question forces a layout of the log (the follow-scroll, the form scrolled into view),
 * whose cost grew with it (600 turns in one page: 30–37 ms a question, 21–25 ms with it). Only past LONG_LOG
 * turns: on a short log the rendering it defers cost the first question after a reload about 5 ms.
 */
export const LONG_LOG = 100;

export function markLongLog(log: Element): void {
  log.classList.toggle('tl-long', log.childElementCount > LONG_LOG);
}
