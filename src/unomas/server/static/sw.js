// The service worker: unomas installs as an app and, without a connection, opens an offline
// page instead of the browser's error. The network always comes first (the server decides
// everything, and the HTTP cache revalidates the files by ETag); what was fetched is kept
// for the offline page's sake only.
const CACHE = "unomas-v1";
const OFFLINE = "/static/offline.html";
const KEEP = [OFFLINE, "/static/style.css", "/static/icon.svg", "/static/icon-192.png"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(KEEP)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin) return;
  if (request.mode === "navigate") {  // a page: from the network, or the offline page
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
  } else if (url.pathname.startsWith("/static/")) {  // a file: the network's, or the one kept
    event.respondWith(fetch(request).catch(() => caches.match(request).then((kept) => kept || Response.error())));
  }
});
