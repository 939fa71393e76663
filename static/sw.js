/* Delve's service worker (served at /sw.js, scope /): shows "your turn" notifications, opens the
   table when one is clicked, and keeps static files for an offline visit. It never caches a game
   page or any answer of the server's but files under /static/: games are played on the server. */
"use strict";

var CACHE = "delve-static-v1";
var OFFLINE = "/static/offline.html";
var PRECACHE = [
  OFFLINE,
  "/static/css/delve.css",
  "/static/favicon.svg",
  "/static/icons/icon.svg",
  "/static/icons/icon-192.png"
];

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(PRECACHE); }));
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (n) { return n !== CACHE; }).map(function (n) { return caches.delete(n); }));
    }).then(function () { return self.clients.claim(); })
  );
});

/* Static files: the network first (a deploy's new file wins), the cache when offline. A page
   that cannot be reached gets the offline page. Everything else is left to the browser. */
self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(function () {
      return caches.match(OFFLINE).then(function (page) {
        return page || new Response("Delve needs a connection.", { status: 503, headers: { "Content-Type": "text/plain" } });
      });
    }));
    return;
  }
  if (url.pathname.indexOf("/static/") !== 0) return;
  event.respondWith(
    fetch(request).then(function (response) {
      if (response.ok) {
        var copy = response.clone();
        caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
      }
      return response;
    }).catch(function () {
      return caches.match(request).then(function (cached) { return cached || Response.error(); });
    })
  );
});

/* A push is {title, url, tag} (webapp/domain/push.py): the table and the game, nothing of it. */
self.addEventListener("push", function (event) {
  var message = {};
  try { message = event.data ? event.data.json() : {}; } catch (e) { message = {}; }
  var title = message.title || "Your turn in Delve";
  event.waitUntil(self.registration.showNotification(title, {
    body: "Open the table to play.",
    tag: message.tag || "delve-turn",
    renotify: true,
    icon: "/static/icons/icon-192.png",
    badge: "/static/icons/icon-192.png",
    data: { url: message.url || "/" }
  }));
});

/* The table's page: focused where one is open already, else opened. */
self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (target.origin !== self.location.origin) target = new URL("/", self.location.origin);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
      for (var i = 0; i < windows.length; i++) {
        if (new URL(windows[i].url).pathname === target.pathname && "focus" in windows[i]) return windows[i].focus();
      }
      return self.clients.openWindow(target.href);
    })
  );
});
