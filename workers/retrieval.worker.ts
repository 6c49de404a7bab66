/// <reference lib="webworker" />
/**
 * Retrieval worker entry: wires the retrieval service (src/worker) to this
 * worker's message port with comlink. Thin on purpose; all logic lives in src/.
 */
import * as Comlink from 'comlink';
import { ortWasmPaths } from '../src/embedding/ort-assets';
import { serveRetrieval } from '../src/worker/serve-retrieval';

Comlink.expose(serveRetrieval({ wasmPaths: ortWasmPaths(new URL('ort/', self.location.href)), baseUrl: self.location.href }));
