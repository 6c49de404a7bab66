/** The Web Locks API where the runtime has it (browsers, workers); undefined in Node. Declared once here. */
export interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T> | T): Promise<T>;
  query(): Promise<{ held?: { name?: string }[] }>;
}

export function lockManager(): LockManagerLike | undefined {
  return (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks;
}
