/**
 * Tells other tabs (and their workers) that an index changed, with the
 * generation it reached, over a BroadcastChannel named after the index.
 */
export interface ChangeFeed {
  publish(generation: number): void;
  close(): void;
}

export function openChangeFeed(name: string, onChange: (generation: number) => void): ChangeFeed {
  if (typeof BroadcastChannel !== 'function') return { publish() {}, close() {} };
  const channel = new BroadcastChannel(`threadline:${name}`);
  channel.onmessage = (event: MessageEvent<unknown>) => {
    const generation = (event.data as { generation?: unknown } | null)?.generation;
    if (typeof generation === 'number') onChange(generation);
  };
  return {
    publish: (generation) => channel.postMessage({ generation }),
    close: () => channel.close(),
  };
}
