/**
 * The page half of the transport: the Retriever interface over a worker. It
 * starts the worker, carries every method alike (data arguments, options
 * without the signal and listener, an operation id whose abort is forwarded),
 * unwraps envelopes into ThreadlineErrors, and notices a dead worker: a worker
 * that dies (crash, out of memory, terminate) releases its alive lock, so
 * every pending call rejects with WORKER_CRASHED at once, and the next call
 * starts a fresh worker that re-hydrates from IndexedDB.
 */
import * as Comlink from 'comlink';
import { ThreadlineError, throwIfAborted } from '../errors';
import type { ProgressListener } from '../progress';
import { RETRIEVER_METHODS, type Retriever, type RetrieverMethod } from '../retriever';
import { fromWire, type RetrievalPort, type WorkerInit } from '../worker/protocol';
import { STAGED, stagedParts } from '../worker/staged-documents';
import { raced } from '../util/abort';
import { pageListener } from '../util/page-listener';
import { watchWorker } from './worker-watch';

export interface RemoteRetriever extends Retriever {
  /** Starts the worker (if needed) and waits until its index is loaded. */
  start(): Promise<void>;
  /** Terminates the worker; later calls fail with DISPOSED. */
  dispose(): void;
}

interface Connection {
  worker: Worker;
  remote: Comlink.Remote<RetrievalPort>;
  ready: Promise<void>;
  /** Rejects when the worker dies or is disposed; never resolves. */
  dead: Promise<never>;
  /** Rejects `dead`, failing every pending call with `error`. */
  fail(error: ThreadlineError): void;
}

let nextOp = 1;

/** A structured-clone failure means the input held something that is not data. */
function asCloneError(error: unknown): unknown {
  if (typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'DataCloneError') {
    return new ThreadlineError('INVALID_INPUT', `The input cannot be sent to the worker: ${(error as Error).message}`, { cause: error });
  }
  return error;
}

export function wrapRetriever(makeWorker: () => Worker, init: Omit<WorkerInit, 'aliveLock'>, onProgress?: ProgressListener): RemoteRetriever {
  let connection: Connection | null = null;
  let disposed = false;

  const kill = (error: ThreadlineError) => {
    const current = connection;
    connection = null;
    if (!current) return;
    void current.remote.close().catch(() => undefined);
    current.remote[Comlink.releaseProxy]();
    current.worker.terminate();
    current.fail(error);
  };

  const connect = (): Connection => {
    if (disposed) throw new ThreadlineError('DISPOSED', 'This threadline instance was disposed.');
    if (connection) return connection;
    const worker = makeWorker();
    const remote = Comlink.wrap<RetrievalPort>(worker);
    const aliveLock = `threadline-worker-alive:${crypto.randomUUID()}`;
    let die!: (error: ThreadlineError) => void;
    const dead = new Promise<never>((_, reject) => { die = reject; });
    dead.catch(() => undefined); // observed through invoke(); never an unhandled rejection
    const made: Connection = { worker, remote, dead, ready: Promise.resolve(), fail: die };
    // Death is noticed through the worker's alive lock (taken in init) or an uncaught error.
    watchWorker(worker, aliveLock, 'retrieval').catch((error: ThreadlineError) => {
      if (connection !== made) return;
      connection = null;
      worker.terminate();
      die(error);
    });
    made.ready = (async () => {
      const result = await Promise.race([remote.init({ ...init, aliveLock }, pageListener(onProgress)), dead]);
      if (!result.ok) {
        if (connection === made) { connection = null; worker.terminate(); }
        throw fromWire(result.error);
      }
    })();
    made.ready.catch(() => undefined);
    connection = made;
    return made;
  };

  const invoke = async (method: RetrieverMethod, args: unknown[]): Promise<unknown> => {
    const arity = RETRIEVER_METHODS[method];
    const { signal, onProgress: listener, ...options } = (args[arity] ?? {}) as { signal?: AbortSignal; onProgress?: ProgressListener };
    throwIfAborted(signal);
    const opId = nextOp++;
    const current = connect();
    const onAbort = () => { void current.remote.abort(opId); };
    signal?.addEventListener('abort', onAbort, { once: true });
    let staging = false;
    try {
      // Starting the worker (hydrating a large index) can take a while: an abort meanwhile is honoured at once.
      await raced(Promise.race([current.ready, current.dead]), signal);
      let data = args.slice(0, arity);
      // A large add() or embed() goes ahead in parts, so that no one message blocks the page (staged-documents.ts).
      const parts = method === 'add' || method === 'embed' ? stagedParts(data[0]) : null;
      if (parts) {
        staging = true;
        for (const part of parts) {
          throwIfAborted(signal);
          await Promise.race([current.remote.stage(opId, part), current.dead]).catch((error: unknown) => { throw asCloneError(error); });
        }
        throwIfAborted(signal);
        data = [STAGED];
      }
      const call = current.remote.invoke(method, [...data, options], opId, pageListener(listener));
      const result = await Promise.race([call, current.dead]).catch((error: unknown) => { throw asCloneError(error); });
      if (!result.ok) throw fromWire(result.error);
      return result.value;
    } catch (error) {
      // Parts sent ahead stay in the worker until their call ends there; a call that never got there (a part or the
      // call itself that cannot be cloned) would leave them for good: the worker drops them on an abort.
      if (staging) void current.remote.abort(opId).catch(() => undefined);
      throw error;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  };

  const methods = Object.fromEntries((Object.keys(RETRIEVER_METHODS) as RetrieverMethod[])
    .map((method) => [method, (...args: unknown[]) => invoke(method, args)])) as unknown as Retriever;
  return {
    ...methods,
    start: async () => { await connect().ready; },
    dispose: () => {
      disposed = true;
      kill(new ThreadlineError('DISPOSED', 'This threadline instance was disposed.'));
    },
  };
}
