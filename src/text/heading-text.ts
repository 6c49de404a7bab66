/**
 * The text of an ATX heading ("## Setup ##") once its opening #s are read:
 * the rest of the line without its closing run of #s (one after a space: "C#"
 * keeps its #). By hand, not as part of the opening pattern: a lazy
 * "(.*?)\s*#*\s*$" backtracks over a run of spaces at every position of it
 * ("# a", 4,000 spaces, "b" took 18 s).
 */
export function headingText(rest: string): string {
  const text = rest.trim();
  const closing = /(?:^|[ \t])#+$/.exec(text);
  return closing ? text.slice(0, closing.index).trim() : text;
}
