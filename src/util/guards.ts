/** Type guards for data read back from storage or received from a caller, which may have been tampered with. */

export const isText = (v: unknown): v is string => typeof v === 'string';

/** A non-negative integer: a count, a size, a key. */
export const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

/** A non-negative integer a double holds exactly: a chunk key handed back by a page or a stored conversation. */
export const isSafeCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
