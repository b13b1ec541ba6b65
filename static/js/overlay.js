/* The broadcast overlay (templates/broadcast/table.html): polls the board fragment with If-None-Match.

   An unchanged game answers 304 without a body; a judge's tap bumps the game's version, so the next poll (within
   data-poll-ms) brings the new board and it replaces the old one. The speech timer counts down in the page from the
   moment the overlay sees a new speaker (the judge's own timer lives on his phone). docs/broadcast.md says why a
   poll and not server-sent events. */
(function () {
  "use strict";
  var root = document.getElementById("overlay");
  if (!root) return;
  var url = root.dataset.stateUrl;
  var etag = root.dataset.etag || "";
  var every = parseInt(root.dataset.pollMs, 10) || 500;
  var speechKey = "";
  var speechEnds = 0;

  function board() { return document.getElementById("ov-board"); }

  function startSpeech() {
    var b = board();
    var key = b ? b.dataset.speechKey || "" : "";
    if (key && key !== speechKey) {
      speechEnds = Date.now() + (parseInt(b.dataset.speech, 10) || 60) * 1000;
    }
    speechKey = key;
    tick();
  }

  function tick() {
    var out = document.getElementById("ov-timer");
    if (!out || !speechKey) return;
    var left = Math.max(0, Math.ceil((speechEnds - Date.now()) / 1000));
    out.textContent = String(left);
    out.classList.toggle("is-ending", left <= 10);
  }

  function poll() {
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(url, { headers: headers, cache: "no-store", credentials: "omit" }).then(function (response) {
      if (response.status === 200) {
        etag = response.headers.get("ETag") || "";
        return response.text().then(function (html) {
          var old = board();
          var holder = document.createElement("div");
          holder.innerHTML = html;
          var fresh = holder.querySelector("#ov-board");
          if (old && fresh) old.replaceWith(fresh);
          startSpeech();
        });
      }
      if (response.status === 404) {
        var b = board();  // the token was revoked: show nothing rather than a stale board, and stop asking
        if (b) b.replaceChildren();
        return "revoked";
      }
    }).catch(function () { /* the network is back on the next poll */ }).then(function (state) {
      if (state !== "revoked") window.setTimeout(poll, every);
    });
  }

  startSpeech();
  window.setInterval(tick, 250);
  window.setTimeout(poll, every);
})();
