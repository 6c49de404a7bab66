/**
 * The worker half of the transport: serves any Retriever (the engine) over
 * the RetrievalPort, every method alike. Each call gets its own
 * AbortController, found again by operation id when the page aborts.
 */
import { transfer } from 'comlink';
import { ThreadlineError } from '../errors';
import type { ProgressListener } from '../progress';
import { RETRIEVER_METHODS, type IndexStats, type Retriever } from '../retriever';
import { lockManager } from '../util/web-locks';
import { progressRelay } from '../util/progress-relay';
import { envelope, type RetrievalPort, type WorkerInit } from './protocol';
import { isStaged, StagedDocuments } from './staged-documents';

/** An opened retriever the port can serve; `stats` answers init. */
export type ServedRetriever = Retriever & { close(): void; stats(): Promise<IndexStats> };

export function exposeRetriever(
  open: (config: WorkerInit, onProgress: ProgressListener | undefined) => Promise<ServedRetriever>,
  methods: Readonly<Record<string, number>> = RETRIEVER_METHODS,
): RetrievalPort {
  let served: ServedRetriever | null = null;
  const aborts = new Map<number, AbortController>();
  const staged = new StagedDocuments();

  return {
    init: (config, onProgress) => envelope(async () => {
      const locks = lockManager();
      // Held until this worker dies; never released otherwise.
      if (locks) await new Promise<void>((held) => { void locks.request(config.aliveLock, () => { held(); return new Promise(() => undefined); }); });
      // The relay outlives init (a later reload reports through it); init waits only for what it sent itself.
      const relay = progressRelay(onProgress);
      served = await open(config, relay.report);
      const stats = await served.stats();
      await relay.delivered();
      return stats;
    }),
    invoke: async (method, args, opId, onProgress) => {
      const controller = new AbortController();
      aborts.set(opId, controller);
      const relay = progressRelay(onProgress);
      const result = await envelope(async () => {
        const target = served;
        if (!target) throw new ThreadlineError('INTERNAL', 'the retrieval worker was used before init()');
        const arity = methods[method];
        const fn = (target as unknown as Record<string, unknown>)[method];
        if (arity === undefined || typeof fn !== 'function' || !Array.isArray(args)) throw new ThreadlineError('INTERNAL', `unknown retrieval method "${String(method)}"`);
        const sent = args[arity];
        const options = {
          ...(typeof sent === 'object' && sent !== null ? sent : {}),
          signal: controller.signal,
          ...(relay.report ? { onProgress: relay.report } : {}),
        };
        // A large add() or embed() sent its documents or texts ahead (staged-documents.ts): the call carries a marker in
        // their place. Only where parts came: a caller's own { staged: true } reaches the engine, which refuses it.
        const data = args.slice(0, arity).map((arg, i) => (i === 0 && isStaged(arg) && staged.has(opId) ? staged.take(opId) : arg));
        return (fn as (...a: unknown[]) => Promise<unknown>).apply(target, [...data, options]);
      }).finally(() => { aborts.delete(opId); staged.drop(opId); });
      await relay.delivered(); // every event of the call is heard before its result, failed or not
      // comlink finds transferables by the returned object, so the envelope itself is marked.
      if (result.ok && ArrayBuffer.isView(result.value) && result.value.buffer instanceof ArrayBuffer) return transfer(result, [result.value.buffer]);
      return result;
    },
    stage: (opId, parts) => { staged.receive(opId, parts); return Promise.resolve(); },
    abort: (opId) => { aborts.get(opId)?.abort(); staged.drop(opId); },
    close: () => { served?.close(); served = null; return Promise.resolve(); },
  };
}
