// The offline service worker: after one visit, Squillion loads and evaluates with no network.
//
// scripts/service-worker.mjs (a Trunk post-build hook) writes this file into dist/ with the
// placeholders below filled in: VERSION, a hash of every file the page ships (so a new build
// is a new worker, byte for byte, and the browser installs it), FILES, the files it precaches,
// LAZY, the modules the page fetches when first used (the tools module: docs/size.md), which
// it keeps in the same cache when they are fetched, and NETWORK_FIRST, true for development
// builds (`trunk serve`: every reload shows the newest build) and false for release builds
// (cache first: a reload costs no network at all).
//
// Updates: a new worker precaches the new build beside the old one and waits. The browser
// lets it take over when no page uses the old one any more, which a reload often is; else the
// page's boot.js sees it waiting on the next load and tells it to take over (`skip-waiting`)
// before the app starts, then reloads once. Either way the page and its evaluation worker run
// one build, and boot.js says that Squillion was updated (it asks the worker its `version`).
const VERSION = '__VERSION__';
const FILES = __FILES__;
const LAZY = __LAZY__;
const NETWORK_FIRST = __NETWORK_FIRST__;

const PREFIX = 'squillion-';
const CACHE = `${PREFIX}${VERSION}`;
/** The page itself: every navigation inside the scope is answered with it. */
const INDEX = new URL('index.html', self.registration.scope).href;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      // `no-cache`: revalidated, so the precache is exactly this build, yet what the page has
      // just downloaded comes from the HTTP cache (a 304) instead of a second download.
      cache.addAll(FILES.map((f) => new Request(new URL(f, self.registration.scope), { cache: 'no-cache' }))),
    ),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) {
        if (key.startsWith(PREFIX) && key !== CACHE) await caches.delete(key);
      }
      // A module the page fetched before this worker controlled it (a first visit) is in the
      // HTTP cache, not in this one: kept now, so that it works offline too.
      const cache = await caches.open(CACHE);
      for (const f of LAZY) {
        const url = new URL(f, self.registration.scope).href;
        if (await cache.match(url)) continue;
        try {
          const hit = await fetch(new Request(url, { cache: 'only-if-cached', mode: 'same-origin' }));
          if (hit.ok) await cache.put(url, hit);
        } catch {
          // Not fetched yet: kept when it is.
        }
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('message', (event) => {
  if (event.data === 'skip-waiting') self.skipWaiting();
  // The page asks which build answers it, to say when that changed.
  if (event.data === 'version') event.ports[0]?.postMessage(VERSION);
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || !request.url.startsWith(self.registration.scope)) return;
  // A navigation is the page (`/`, `/#playground`, a share link), unless it opens a file of
  // the build, such as a document of the reference (`docs/advisor.html`).
  const key = request.mode === 'navigate' && !isBuildFile(request.url) ? INDEX : request.url;
  event.respondWith(NETWORK_FIRST ? networkFirst(request, key) : cacheFirst(request, key));
});

/** The path of `url` inside the scope (without its query and fragment), or null outside it. */
function buildPath(url) {
  const path = new URL(url).pathname;
  const scope = new URL(self.registration.scope).pathname;
  return path.startsWith(scope) ? path.slice(scope.length) : null;
}

/** True when `url` is one of this build's files. */
function isBuildFile(url) {
  const file = buildPath(url);
  return FILES.includes(file) || LAZY.includes(file);
}

/** Keeps a copy of `response` in this build's cache when it is a lazily fetched module. */
async function keep(request, response) {
  if (response.ok && LAZY.includes(buildPath(request.url))) {
    await (await caches.open(CACHE)).put(request.url, response.clone());
  }
  return response;
}

/** Answers from this build's cache, else from the network. */
async function cacheFirst(request, key) {
  const cache = await caches.open(CACHE);
  return (await cache.match(key, { ignoreSearch: true })) ?? keep(request, await fetch(request));
}

/** Answers from the network, else (offline) from this build's cache. */
async function networkFirst(request, key) {
  try {
    return await keep(request, await fetch(request));
  } catch (e) {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(key, { ignoreSearch: true });
    if (hit) return hit;
    throw e;
  }
}
