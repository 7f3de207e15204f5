// The page's service worker: it keeps the page's files, so that once the page has loaded it
// keeps working with the server gone (the engine, the views and the other parsers' readings).
//
// scripts/build-web writes the build's list of files into BUILD below: each file's path (under
// the page's folder) and the SHA-256 of its bytes, and the id of the list. A new build is a new
// sw.js, which the browser installs beside the old (it compares the script byte for byte when
// the page is loaded), into a cache named after the new id; the old cache is deleted when the
// new worker takes over.
//
// At install, every file is fetched and kept, but for the readings the page loads on a click or
// in an idle moment (`later`: Python's, about 6 MB): they are kept once the page has fetched
// them, from the same list, so the transfer is the page's own and an install does not wait on
// them (and, after a first load, which the worker did not see, when the page says so: below).
// A file whose bytes are not the list's (a build replaced on the server halfway) is not kept:
// an install that meets one fails, and the worker before it stays.
//
// Only the page's own origin is ever asked, and only for the files of the list: a request to
// another origin, or for a file the list does not have, is left to the browser (the page's
// Content-Security-Policy allows no other origin).

// scripts/build-web replaces this line with the build's list.
const BUILD = { id: 'unbuilt', files: {}, later: [] };

// The page's folder (its scope ends with "/"), and the cache of this build, per folder: two
// pages served from one origin keep caches of their own.
const SCOPE = new URL(self.registration.scope);
const PREFIX = `urlscope ${SCOPE.pathname} `;
const CACHE = `${PREFIX}${BUILD.id}`;
// How many files an install fetches at once.
const AT_ONCE = 4;

const later = (path) => BUILD.later.some((folder) => path.startsWith(folder));
const address = (path) => new URL(path, SCOPE).href;

/// The SHA-256 of `bytes`, in hex, as sha256sum writes it.
async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/// `path`, and whether its bytes are the list's (a response to keep): first as the browser's
/// HTTP cache has it (`first`: 'default', so a file the page has just loaded is not sent
/// again), and when those bytes are not the list's (a file of an earlier build), from the
/// server, `cache: 'no-cache'` (a 304 when the HTTP cache holds it as it is now).
async function fetchListed(path, first = 'default') {
  let answer = await fetchOnce(path, first);
  if (!answer.listed) answer = await fetchOnce(path, 'no-cache');
  return answer;
}

async function fetchOnce(path, mode) {
  const response = await fetch(address(path), { cache: mode, credentials: 'same-origin' });
  if (!response.ok || response.redirected) return { response, listed: false };
  const bytes = await response.clone().arrayBuffer();
  return { response, listed: (await sha256(bytes)) === BUILD.files[path] };
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    try {
      await precache();
    } catch (error) {
      // A refused build leaves nothing behind: the worker before it keeps serving its own.
      await caches.delete(CACHE);
      throw error;
    }
    // The new build takes over at once: a page loaded later is all of it. A page already open
    // keeps the code it runs; a file it fetches from now on (Python's reading, on a click) is
    // the new build's.
    await self.skipWaiting();
  })());
});

/// Keeps every file of the list but the later ones, or throws.
async function precache() {
  const cache = await caches.open(CACHE);
  const queue = Object.keys(BUILD.files).filter((path) => !later(path));
  const fetcher = async () => {
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      const { response, listed } = await fetchListed(path);
      if (!listed) {
        queue.length = 0; // the other fetchers stop too
        throw new Error(`${path} is not the file this build lists`);
      }
      await cache.put(address(path), response);
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, fetcher));
}

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    // The page that registered this worker is served by it from now on: its later fetches
    // (the readings, Python's) are kept, and it keeps working offline without a reload.
    await self.clients.claim();
  })());
});

// A page's first load came from the server, before this worker ran: the page says so
// ("keep-later") once the worker runs, and the later readings' files, which it may have loaded
// already, are kept too, from the browser's HTTP cache when it has them (force-cache: no second
// transfer from a server that lets them be cached, as python3 -m http.server does), else from
// the server.
self.addEventListener('message', (event) => {
  if (event.data !== 'keep-later' || event.origin !== SCOPE.origin) return;
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    for (const path of Object.keys(BUILD.files).filter(later)) {
      if (await cache.match(address(path))) continue;
      try {
        const { response, listed } = await fetchListed(path, 'force-cache');
        if (listed) await cache.put(address(path), response);
      } catch {
        // The server gone: the page keeps it when it loads it again.
      }
    }
  })());
});

/// The path of `request` in the list, or null when the list does not have it. A navigation to
/// the folder itself is its index.html; a query is the page's own business (it reads none).
function pathOf(request) {
  if (request.method !== 'GET') return null;
  const url = new URL(request.url);
  if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return null;
  let path;
  try {
    path = decodeURIComponent(url.pathname.slice(SCOPE.pathname.length));
  } catch {
    return null; // not a path of the list: a broken percent-encoding
  }
  if (path === '' && request.mode === 'navigate') path = 'index.html';
  return Object.hasOwn(BUILD.files, path) ? path : null;
}

self.addEventListener('fetch', (event) => {
  const path = pathOf(event.request);
  if (path === null) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const kept = await cache.match(address(path));
    if (kept) return kept;
    // Not kept yet (a reading loaded later, or a cache the browser evicted): from the server,
    // and kept when its bytes are the list's. Offline, the fetch fails as it would without a
    // service worker.
    const { response, listed } = await fetchListed(path);
    if (listed) await cache.put(address(path), response.clone());
    return response;
  })());
});
