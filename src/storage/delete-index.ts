/**
 * Deletes an index name's stored data without opening it: the way back when
 * an index cannot be opened at all, and the "forget everything" of a privacy
 * page. Open connections of other tabs close themselves (they give way to a
 * version change), so the deletion is not blocked by them.
 */
import { deleteDB } from 'idb';
import { ThreadlineError } from '../errors';
import { databaseName } from './schema';
import { storageError } from './storage-errors';

export interface DeleteIndexOptions {
  /** Also delete the stored conversations of this name. @default false */
  sessions?: boolean;
}

export async function deleteIndex(name: string, options: DeleteIndexOptions = {}): Promise<void> {
  if (typeof name !== 'string' || name.trim() === '' || name.length > 200) throw new ThreadlineError('INVALID_INPUT', 'name must be a non-empty string of at most 200 characters');
  try {
    await deleteDB(databaseName(name));
    if (options.sessions) await deleteDB(`${databaseName(name)}:sessions`);
  } catch (error) {
    throw storageError(error, `Could not delete the index "${name}"`);
  }
}
