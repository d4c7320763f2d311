// The service worker of one link (registered by main.js with the link's path as its
// scope, only where the browser allows one: localhost, 127.0.0.1, HTTPS): it keeps the
// page, its scripts and styles, so that a reload while the server is away shows the page
// (with the last state the phone saw, marked as such, from net.js) instead of the
// browser's error page. Everything is fetched from the server first; the copy is only
// for when it cannot be reached. state.json, the event stream, the referee and the writes
// are never answered from here. Each link has a cache of its own: one link's page is
// never served for another.

const scope = new URL(self.registration.scope).pathname.replace(/\/$/, "");
const CACHE = `romme-page:${scope}`;
const FILES = [
  "",
  "/manifest.webmanifest",
  "/static/main.js",
  "/static/net.js",
  "/static/live.js",
  "/static/forget.js",
  "/static/outbox.js",
  "/static/render.js",
  "/static/seat.js",
  "/static/keeper.js",
  "/static/board.js",
  "/static/tournament.js",
  "/static/paging.js",
  "/static/league.js",
  "/static/awake.js",
  "/static/style.css",
  "/static/icon.svg",
];
const KEPT = new Set(["", "/", "/manifest.webmanifest", "/qr.svg"]);

self.addEventListener("install", (event) => {
  self.skipWaiting();
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      Promise.all(
        FILES.map((path) =>
          fetch(scope + path, { cache: "no-store" })
            .then((response) => (response.ok ? cache.put(scope + path, response) : null))
            .catch(() => null),
        ),
      ),
    ),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

function kept(url) {
  if (url.origin !== self.location.origin) return false;
  if (url.pathname !== scope && !url.pathname.startsWith(`${scope}/`)) return false;
  const rest = url.pathname.slice(scope.length);
  return KEPT.has(rest) || rest.startsWith("/static/");
}

async function answer(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const copy = (await cache.match(request)) || (request.mode === "navigate" ? await cache.match(scope) : null);
    if (copy) return copy;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (!kept(url)) return; // state.json, events, the referee: the network only
  event.respondWith(answer(request));
});
