/**
 * A plain static file server for the built playground and the example page,
 * as a static host would serve them: correct MIME types, ETag and
 * Last-Modified validators (304 when unchanged), no SPA fallback, and COOP/COEP
 * headers only when asked (to test both kinds of hosting).
 */
import { createReadStream, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { isolationHeaders } from '../vite.config.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.json': 'application/json', '.wasm': 'application/wasm', '.onnx': 'application/octet-stream', '.tlix': 'application/octet-stream',
  '.md': 'text/markdown; charset=utf-8', '.png': 'image/png', '.svg': 'image/svg+xml',
};

export interface StaticServer {
  origin: string;
  requests: string[];
  /** Body bytes sent so far (files served with status 200; a 304 sends none), for download-size figures. */
  bytesSent(): number;
  close(): Promise<void>;
}

export interface ServeOptions {
  /** COOP/COEP (cross-origin isolation) on every response. */
  isolated?: boolean;
  /** More headers on every response (a Content-Security-Policy, as a host's header rules would add it). */
  headers?: Readonly<Record<string, string>>;
}

export async function serveStatic(dir: string, options: ServeOptions = {}): Promise<StaticServer> {
  const rootDir = resolve(dir);
  const requests: string[] = [];
  let sent = 0;
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/');
    requests.push(path);
    let file = normalize(join(rootDir, path));
    if (file !== rootDir && !file.startsWith(rootDir + sep)) { res.writeHead(403).end(); return; }
    try {
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      const { size, mtime } = statSync(file);
      // Validators as nginx, Apache or `npx serve` send them (no max-age): a reload revalidates each file and gets 304 for unchanged ones.
      const etag = `"${size.toString(16)}-${Math.floor(mtime.getTime()).toString(16)}"`;
      const headers = {
        'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', ETag: etag, 'Last-Modified': mtime.toUTCString(),
        ...(options.isolated ? { ...isolationHeaders, 'Cross-Origin-Resource-Policy': 'same-origin' } : {}),
        ...options.headers,
      };
      if (req.headers['if-none-match'] === etag) { res.writeHead(304, headers).end(); return; }
      sent += size;
      res.writeHead(200, { ...headers, 'Content-Length': size });
      createReadStream(file).pipe(res);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('static server has no TCP address');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    requests,
    bytesSent: () => sent,
    close: () => new Promise<void>((ok) => { server.closeAllConnections(); server.close(() => ok()); }),
  };
}
