/**
 * The playground's service worker (built to sw.js by scripts/vite-service-worker.ts,
 * which prepends __PRECACHE__: every file of the build). Installing caches them
 * all, so after the first visit the page, its workers, the WASM runtime and the
 * offline model load with the network off. Pages are network-first (a new
 * deploy shows up); everything else is cache-first. A new build has a new
 * version, so its cache replaces the old one.
 */
interface Precache { version: string; files: string[] }
declare const __PRECACHE__: Precache;

interface ExtendableEventLike extends Event { waitUntil(work: Promise<unknown>): void }
interface FetchEventLike extends ExtendableEventLike { request: Request; respondWith(response: Promise<Response>): void }
interface SwScope {
  location: Location;
  registration: { scope: string };
  clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEventLike) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEventLike) => void): void;
}

const sw = self as unknown as SwScope;
const CACHE = `threadline-playground-${__PRECACHE__.version}`;
const scope = new URL(sw.registration.scope);

sw.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(__PRECACHE__.files.map((f) => new URL(f, scope).href));
    await sw.skipWaiting();
  })());
});

sw.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key.startsWith('threadline-playground-') && key !== CACHE) await caches.delete(key);
    await sw.clients.claim();
  })());
});

sw.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return;
  url.search = '';
  event.respondWith(request.mode === 'navigate' ? networkFirst(request, url) : cacheFirst(request, url));
});

async function networkFirst(request: Request, url: URL): Promise<Response> {
  try {
    return await fetch(request);
  } catch (error) {
    const cache = await caches.open(CACHE);
    const page = (await cache.match(url.href)) ?? (await cache.match(new URL('./', scope).href)) ?? (await cache.match(new URL('./index.html', scope).href));
    if (page) return page;
    throw error;
  }
}

async function cacheFirst(request: Request, url: URL): Promise<Response> {
  const cache = await caches.open(CACHE);
  return (await cache.match(url.href)) ?? fetch(request);
}
