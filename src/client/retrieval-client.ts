/**
 * Main-thread side of the retrieval worker: starts it, unwraps results into
 * ThreadlineErrors, forwards aborts, and notices a dead worker. A worker that
 * dies (crash, out of memory, terminate) releases its alive lock; the client
 * is waiting on that lock, so every pending call rejects with WORKER_CRASHED
 * at once, and the next call starts a fresh worker that re-hydrates from
 * IndexedDB.
 */
import * as Comlink from 'comlink';
import { ThreadlineError } from '../errors';
import type { ProgressListener } from '../progress';
import { watchWorker } from './worker-watch';
import { fromWire, type RetrievalWorkerApi, type WireResult, type WorkerInit } from '../worker/protocol';

interface Connection {
  worker: Worker;
  remote: Comlink.Remote<RetrievalWorkerApi>;
  ready: Promise<void>;
  /** Rejects when the worker dies or is disposed; never resolves. */
  dead: Promise<never>;
  /** Rejects `dead`, failing every pending call with `error`. */
  fail(error: ThreadlineError): void;
}

let nextOp = 1;

export class RetrievalClient {
  private connection: Connection | null = null;
  private disposed = false;

  constructor(
    private readonly makeWorker: () => Worker,
    private readonly init: Omit<WorkerInit, 'aliveLock'>,
    private readonly onProgress?: ProgressListener,
  ) {}

  /** Starts the worker (if needed) and waits until its index is loaded. */
  async start(): Promise<void> {
    await this.connect().ready;
  }

  /** Calls the worker; rejects with WORKER_CRASHED if it dies meanwhile. */
  async call<T>(work: (remote: Comlink.Remote<RetrievalWorkerApi>) => Promise<WireResult<T>>): Promise<T> {
    const connection = this.connect();
    await connection.ready;
    const result = await Promise.race([work(connection.remote), connection.dead]);
    if (!result.ok) throw fromWire(result.error);
    return result.value;
  }

  /** Like `call`, with an operation id whose abort is forwarded to the worker. */
  async callAbortable<T>(signal: AbortSignal | undefined, work: (remote: Comlink.Remote<RetrievalWorkerApi>, opId: number) => Promise<WireResult<T>>): Promise<T> {
    if (signal?.aborted) throw new ThreadlineError('ABORTED', 'The operation was aborted.', { cause: signal.reason });
    const opId = nextOp++;
    const connection = this.connect();
    const onAbort = () => { void connection.remote.abort(opId); };
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await this.call((remote) => work(remote, opId));
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Terminates the worker; later calls fail with DISPOSED. */
  dispose(): void {
    this.disposed = true;
    this.kill(new ThreadlineError('DISPOSED', 'This threadline instance was disposed.'));
  }

  private connect(): Connection {
    if (this.disposed) throw new ThreadlineError('DISPOSED', 'This threadline instance was disposed.');
    if (this.connection) return this.connection;
    const worker = this.makeWorker();
    const remote = Comlink.wrap<RetrievalWorkerApi>(worker);
    const aliveLock = `threadline-worker-alive:${crypto.randomUUID()}`;
    let die!: (error: ThreadlineError) => void;
    const dead = new Promise<never>((_, reject) => { die = reject; });
    dead.catch(() => undefined); // observed through call(); never an unhandled rejection
    const connection: Connection = { worker, remote, dead, ready: Promise.resolve(), fail: die };
    // Death is noticed through the worker's alive lock (taken in init) or an uncaught error.
    watchWorker(worker, aliveLock, 'retrieval').catch((error: ThreadlineError) => {
      if (this.connection !== connection) return;
      this.connection = null;
      worker.terminate();
      die(error);
    });
    connection.ready = (async () => {
      const progress = this.onProgress ? Comlink.proxy(this.onProgress) : undefined;
      const result = await Promise.race([remote.init({ ...this.init, aliveLock }, progress), dead]);
      if (!result.ok) {
        if (this.connection === connection) { this.connection = null; worker.terminate(); }
        throw fromWire(result.error);
      }
    })();
    connection.ready.catch(() => undefined);
    this.connection = connection;
    return connection;
  }

  private kill(error: ThreadlineError): void {
    const connection = this.connection;
    this.connection = null;
    if (!connection) return;
    void connection.remote.close().catch(() => undefined);
    connection.remote[Comlink.releaseProxy]();
    connection.worker.terminate();
    connection.fail(error);
  }
}
