/* Site-wide behaviour without inline script (the Content-Security-Policy allows only our static files):
   a form with data-confirm asks before it is sent; a page seen signed out (after logging out, or before logging
   in as someone else) drops the judge screen's service worker and the copy of the screen it kept
   (templates/games/live/judge_sw.js), so that copy is never shown to anyone but the judge who opened it. */
(function () {
  document.addEventListener("submit", function (e) {
    var form = e.target.closest ? e.target.closest("form[data-confirm]") : null;
    if (form && !window.confirm(form.dataset.confirm)) e.preventDefault();
  }, true);

  if (document.body && document.body.hasAttribute("data-signed-out")) {
    if (window.caches) {
      caches.keys().then(function (names) {
        names.forEach(function (name) { if (name.indexOf("mafclub-judge") === 0) caches.delete(name); });
      });
    }
    if (navigator.serviceWorker) {
      navigator.serviceWorker.getRegistrations().then(function (all) {
        all.forEach(function (registration) {
          if (/\/judge\/$/.test(registration.scope)) registration.unregister();
        });
      });
    }
  }
})();

/* The protest panel (templates/games/protests/_protests.html) answers a refused protest of a hidden round's game with 409 and
   the panel carrying the message; htmx 2 does not swap an error answer by default, so let the panel's own answer in. */
document.addEventListener("htmx:beforeSwap", function (event) {
  var target = event.detail.target;
  if (target && target.id === "protests" && event.detail.xhr.status === 409) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});
