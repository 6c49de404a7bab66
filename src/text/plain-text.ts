/**
 * The text nearly every chunk is: ASCII, and the General Punctuation block's dashes, quotes, bullets and
 * marks (U+2010–U+2027, U+2030–U+205E; "›" joins every chunk's heading path). Those hold no letter, digit,
 * space, control or mark, change under no case mapping and have no canonical decomposition, so BM25
 * folding (tokens.ts) and the offline model's tokenizer (word-level-tokenizer.ts) read such text with one
 * test and a plain scan instead of a Unicode pass per character.
 */
export const GENERAL_PUNCTUATION_RANGES = '\\u2010-\\u2027\\u2030-\\u205e';

/** ASCII (controls included) and the General Punctuation above, and nothing else. */
export const PLAIN_TEXT = new RegExp(`^[\\u0000-\\u007f${GENERAL_PUNCTUATION_RANGES}]*$`);
