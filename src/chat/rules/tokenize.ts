/** Words with their positions, as every English rule reads a message: lower-cased, typographic apostrophes folded. */
export interface Token { word: string; index: number }

export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.replace(/[’`]/g, "'").matchAll(/[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu)) out.push({ word: m[0].toLowerCase(), index: m.index });
  return out;
}
