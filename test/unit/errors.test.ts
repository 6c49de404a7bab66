import { describe, expect, it } from 'vitest';
import { ThreadlineError, isThreadlineError, toThreadlineError } from '../../src/errors';
import type * as Errors from '../../src/errors';

describe('ThreadlineError across copies of the module', () => {
  it('an error made by another copy of errors.ts (the CLI\'s bundle calling the package\'s threadline/build) is still a ThreadlineError', async () => {
    // A query makes the module loader evaluate the file a second time: a second class, as a second bundle would have.
    const secondCopy: string = '../../src/errors.ts?second-copy';
    const other = (await import(/* @vite-ignore */ secondCopy)) as typeof Errors;
    expect(other.ThreadlineError).not.toBe(ThreadlineError);
    const foreign = new other.ThreadlineError('UNREADABLE_DOCUMENT', 'no text layer', { details: { reason: 'no-text' } });
    expect(foreign).toBeInstanceOf(ThreadlineError);
    expect(isThreadlineError(foreign, 'UNREADABLE_DOCUMENT')).toBe(true);
    expect(toThreadlineError(foreign, 'INTERNAL')).toBe(foreign); // passes through, code and details kept
    expect(new ThreadlineError('ABORTED', 'x')).toBeInstanceOf(other.ThreadlineError);
  });

  it('other errors, look-alikes and non-objects are not ThreadlineErrors', () => {
    const lookAlike = Object.assign(new Error('x'), { name: 'ThreadlineError', code: 'ABORTED', details: {} });
    for (const value of [lookAlike, new Error('x'), 'ThreadlineError', null, undefined, 42, {}]) expect(value instanceof ThreadlineError).toBe(false);
    expect(toThreadlineError(lookAlike, 'INTERNAL')).not.toBe(lookAlike);
  });
});
