// The door's service worker (scope /admin/check-in/): once a door page has been opened with a
// network, it opens again without one, in a village hall with no signal. Pages are fetched from
// the network first and the kept copy is used only when that fails; the page's scripts and styles
// (content-hashed under /assets/) are kept as they are. The door page itself stores what it needs
// (app/features/door/components/door-page.tsx); signing out deletes it (app/lib/door-offline.ts).
const cacheName = "kilele-door-v1";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && url.pathname.startsWith("/admin/check-in/")) {
    event.respondWith(networkFirst(request, url));
  } else if (url.pathname.startsWith("/assets/")) {
    event.respondWith(cacheFirst(request));
  }
});

async function networkFirst(request, url) {
  const cache = await caches.open(cacheName);
  try {
    const response = await fetch(request);
    // Only a door page itself is kept, never a redirect to the sign-in page or an error.
    if (response.ok && !response.redirected) await cache.put(url.origin + url.pathname, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(url.origin + url.pathname);
    if (kept) return kept;
    throw error;
  }
}

async function cacheFirst(request) {
  const kept = await caches.match(request, { cacheName });
  if (kept) return kept;
  const response = await fetch(request);
  // Only while a door page is kept: after signing out (which deletes the cache) nothing comes back.
  if (response.ok && (await caches.has(cacheName))) await (await caches.open(cacheName)).put(request, response.clone());
  return response;
}
