/**
 * The log follows the conversation: the new question goes to the top of the
 * scroller, so it and the start of its answer are in view as the answer
 * streams (scrolling to the bottom would push the question out). A reader
 * who scrolls during the turn is left where they are.
 * `scroller` is the scrolling log, or `document.scrollingElement` where the
 * page itself scrolls (the playground; a chat that is not in a fixed box).
 * Call the result after each streamed event; `stop()` when the turn ends.
 */
export function followTurn(scroller: Element, turn: HTMLElement): (() => void) & { stop(): void } {
  const root = scroller === document.scrollingElement;
  // The root scroller reports its scrolls on the window, and its viewport starts at 0.
  const events: EventTarget = root ? window : scroller;
  const top = () => (root ? 0 : scroller.getBoundingClientRect().top);
  // Scroll anchoring would move the scroller as the answer grows above a node lower down, which reads as
  // the reader's scroll and stops the following; it is off while a turn is followed.
  const style = (scroller as HTMLElement).style as CSSStyleDeclaration | undefined;
  const anchoring = style?.overflowAnchor ?? '';
  if (style) style.overflowAnchor = 'none';
  let expected = scroller.scrollTop;
  let reader = false;
  // A scroll that does not land where we put the log is the reader's.
  const onScroll = () => { if (Math.abs(scroller.scrollTop - expected) > 2) reader = true; };
  const align = () => {
    if (reader) return;
    scroller.scrollTop += turn.getBoundingClientRect().top - top();
    expected = scroller.scrollTop;
  };
  events.addEventListener('scroll', onScroll, { passive: true });
  align();
  return Object.assign(align, {
    stop: () => {
      events.removeEventListener('scroll', onScroll);
      if (style) style.overflowAnchor = anchoring;
    },
  });
}
