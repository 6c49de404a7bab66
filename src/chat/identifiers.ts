/**
 * Names as code writes them. Technical documentation calls its API by
 * identifiers ("onModelMismatch", "CORRUPT_INDEX", "getAll()"): each is one
 * name, however everyday its parts, and the condenser treats it as specific.
 */

/** camelCase or snake_case, as one word: "onIdle", "intervalCap", "CORRUPT_INDEX", "utf8_validate". */
const IDENTIFIER = /(?<![\p{L}\p{N}_])(?:[\p{L}\p{N}]+(?:_[\p{L}\p{N}]+)+|\p{Ll}[\p{Ll}\p{N}]*\p{Lu}[\p{L}\p{N}]*)(?![\p{L}\p{N}_])/gu;

/** A function as prose names it, with empty parentheses: "start()", "clear()". */
const NAMED_CALL = /(?<![\p{L}\p{N}_$])([\p{L}_$][\p{L}\p{N}_$]*)\(\)/gu;

/**
 * A function as code calls it, with its arguments: "semver.coerce('v2')", "queue.sizeBy({…})". Not a plural
 * written in parentheses ("item(s)").
 */
const CALL = /(?<![\p{L}\p{N}_$])([\p{L}_$][\p{L}\p{N}_$]*)\((?!e?s\))/gu;

/** The identifiers and the functions named with "()" in `text`, as written. */
export function namesInProse(text: string): string[] {
  return [...[...text.matchAll(IDENTIFIER)].map((m) => m[0]), ...[...text.matchAll(NAMED_CALL)].map((m) => m[1] ?? '')].filter(Boolean);
}

/**
 * The identifiers and called functions of an answer, as written, first mention first, each once: an answer
 * about an API names it in code ("Set throwOnTimeout: true.", "semver.coerce('v2') gives 2.0.0").
 */
export function namesInAnswer(text: string): string[] {
  const found = [...text.matchAll(IDENTIFIER), ...text.matchAll(CALL)].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  return [...new Set(found.map((m) => m[1] ?? m[0]))];
}
