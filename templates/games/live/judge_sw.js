{% load static %}/* The judge's screen without network: a service worker served from /games/judge-sw.js (games.live.views) and
   registered by static/js/live.js with the scope of ONE game's judge screen, /games/<pk>/judge/. It controls nothing
   else: the public pages, the spectator view and the protocol pages are never handled here.

   * The screen itself (a navigation to exactly the scope's URL): network first. What the server answers is shown,
     whatever it is; a 200 HTML page (never a redirect to the login page, never an error) is kept as the copy of
     this screen. Only when the network fails is the kept copy shown, so that a reload while the venue Wi-Fi is
     down still opens the screen; static/js/live.js then puts back the board the server last drew and the taps
     not yet sent ("N не сохранено").
   * Static files (css, js, htmx): cache first, so the kept screen has its look and its script offline. On install
     the screen is fetched once (with the judge's cookies) and every static file it links is cached. With DEBUG the
     static URLs carry no hash (an edited live.js keeps its name): there they are fetched network first.
   * Everything else (the taps are POSTs, the player search is an htmx GET) goes to the network untouched.
   Logging out (any page seen signed out, static/js/site.js) drops these workers and the kept copy. */
"use strict";
var CACHE = "mafclub-judge-v1";
var STATIC = "{% get_static_prefix %}";
var STATIC_NETWORK_FIRST = {{ static_network_first|yesno:"true,false" }};
var PAGE = new URL(self.registration.scope).pathname;

function sameOrigin(url) { return url.origin === self.location.origin; }
function isPage(url) { return sameOrigin(url) && url.pathname === PAGE && !url.search; }
function isStatic(url) { return sameOrigin(url) && url.pathname.indexOf(STATIC) === 0; }

// The judge's own screen as the server drew it: a plain 200 HTML answer, not a redirect (to the login page).
function keepable(response) {
  return response.ok && response.type === "basic" && !response.redirected &&
    (response.headers.get("Content-Type") || "").indexOf("text/html") === 0;
}

function staticLinks(html) {
  var urls = [];
  html.replace(/\b(?:src|href)="([^"]+)"/g, function (match, url) {
    if (url.indexOf(STATIC) === 0 && urls.indexOf(url) < 0) urls.push(url);
    return match;
  });
  return urls;
}

// One judge screen is kept: what the cache holds besides this screen and the static files it links (other games'
// screens, an earlier deploy's hashed names) is dropped.
function prune(cache, html) {
  var linked = staticLinks(html);
  return cache.keys().then(function (requests) {
    return Promise.all(requests.map(function (request) {
      var path = new URL(request.url).pathname;
      return path === PAGE || linked.indexOf(path) >= 0 ? null : cache.delete(request);
    }));
  });
}

// The screen as just answered by the server becomes the kept copy.
function keepPage(cache, response) {
  var copy = response.clone();
  return response.clone().text().then(function (html) {
    return cache.put(PAGE, copy).then(function () { return prune(cache, html); }).then(function () { return html; });
  });
}

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return fetch(PAGE, { credentials: "same-origin", cache: "no-store" }).then(function (response) {
      if (!keepable(response)) return undefined;
      return keepPage(cache, response).then(function (html) { return cache.addAll(staticLinks(html)); });
    });
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("mafclub-judge") === 0 && name !== CACHE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () {
    return caches.open(CACHE);
  }).then(function (cache) {
    return cache.match(PAGE).then(function (page) {
      return page ? page.text() : "";
    }).then(function (html) { return prune(cache, html); });
  }).then(function () { return self.clients.claim(); }));
});

function keptPage() {
  return caches.open(CACHE).then(function (cache) { return cache.match(PAGE); });
}

function screen(event) {
  return fetch(event.request).then(function (response) {
    // 503: the site is up but its database does not answer (club/views_errors.py) — as good as offline.
    if (response.status === 503) return keptPage().then(function (kept) { return kept || response; });
    if (keepable(response)) {
      var copy = response.clone();  // now: the browser reads the answer itself as soon as it is returned
      event.waitUntil(caches.open(CACHE).then(function (cache) { return keepPage(cache, copy); }));
    }
    return response;
  }, function (error) {
    return keptPage().then(function (kept) {
      if (kept) return kept;
      throw error;
    });
  });
}

function staticFile(event) {
  var request = event.request;
  function fromNetwork() {
    return fetch(request).then(function (response) {
      if (response.ok && response.type === "basic") {
        var copy = response.clone();
        event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.put(request, copy); }));
      }
      return response;
    });
  }
  function fromCache() {
    return caches.open(CACHE).then(function (cache) { return cache.match(request); });
  }
  if (STATIC_NETWORK_FIRST) {
    return fromNetwork().catch(function (error) {
      return fromCache().then(function (kept) { if (kept) return kept; throw error; });
    });
  }
  return fromCache().then(function (kept) { return kept || fromNetwork(); });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;  // the taps: to the server, never cached
  var url = new URL(request.url);
  if (request.mode === "navigate" && isPage(url)) {
    event.respondWith(screen(event));
  } else if (isStatic(url)) {
    event.respondWith(staticFile(event));
  }
});
