/// <reference lib="webworker" />
/**
 * Retrieval worker entry: wires the retrieval service (src/worker) to this
 * worker's message port with comlink, and takes a warm-up message beside it
 * (src/worker/warm.ts). Thin on purpose; all logic lives in src/.
 */
import * as Comlink from 'comlink';
import { ortWasmPaths } from '../src/embedding/ort-assets';
import { serveRetrieval } from '../src/worker/serve-retrieval';
import { listenForWarm } from '../src/worker/warm';

const runtime = { wasmPaths: ortWasmPaths(new URL('ort/', self.location.href)), baseUrl: self.location.href };
listenForWarm(self, runtime);
Comlink.expose(serveRetrieval(runtime));
