/* The judge's screen (templates/games/judge.html). No inline script anywhere: everything is wired here.

   Taps: every action form (form[data-kind]) is sent through a queue kept in localStorage, one request at a time,
   each with its own action id (the server applies an id once) and the protocol version the screen showed. When the
   network fails, or the site answers 503 (its database is down), the taps stay in the queue ("N не сохранено"),
   the screen follows them where it safely can (the speaker, fouls, nominations), and they are sent in order when
   the network returns (after a 503 when its Retry-After has passed), also after a reload. A
   version conflict (409) or a refusal in the middle of a replay stops the queue and shows the unsent taps with
   "apply again" / "drop".
   A repeated "speech over" within 1.7 s is ignored (the new speaker's button appears under the judge's finger);
   the request names the speech it ends, so a retried one is absorbed by the server.
   Destructive buttons (data-confirm) ask once: the first tap arms them, the second within 4 s sends.
   The speech timer lives outside the redrawn board and keeps its end time in localStorage: it survives every
   redraw and a reload, starts with each speech unless the club turned that off, and warns at 10 s.
   A reload without network: the service worker (templates/games/judge_sw.js, registered here for this game's
   screen only) shows the screen's last copy; the board the server last drew (kept here after every answer) is put
   back when it is newer than that copy, and the unsent taps are shown on it as before. */
(function () {
  "use strict";
  var root = document.getElementById("judge-screen");
  if (!root) return;
  var game = root.dataset.game;
  var QKEY = "mafclub:queue:" + game;
  var TKEY = "mafclub:timer:" + game;
  var GKEY = "mafclub:speech-tap:" + game;
  var BKEY = "mafclub:board:" + game;
  var GUARD_MS = 1700;
  var sending = false;
  var paused = false;
  var offline = false;
  var retry = null;
  var drawn = null;  // the board as the server last drew it: detached, so no local tap and no highlight reaches it

  function t(name) { return root.dataset[name] || ""; }
  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx".replace(/[xy]/g, function (c) {
      var r = (Math.random() * 16) | 0;
      return (c === "x" ? r : (r & 3) | 8).toString(16);
    });
  }
  function csv(text) { return (text || "").split(",").filter(function (x) { return x !== ""; }); }
  function load() {
    try { return JSON.parse(localStorage.getItem(QKEY) || "[]"); } catch (e) { return []; }
  }
  function save(queue) { localStorage.setItem(QKEY, JSON.stringify(queue)); }
  function version() {
    var input = document.getElementById("live-version");
    return input ? input.value : "";
  }
  function csrf() {
    var input = root.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }
  function fieldsOf(item) {
    var out = {};
    item.fields.forEach(function (f) { out[f[0]] = f[1]; });
    return out;
  }

  // ------------------------------------------------------------------------------------------- the queue
  function showStatus() {
    var queue = load();
    var box = document.getElementById("queue-status");
    if (!box) return;
    if (queue.length && (offline || paused)) {
      box.hidden = false;
      box.textContent = queue.length + " " + t("tUnsaved") + (offline ? " · " + t("tOffline") : "");
    } else {
      box.hidden = true;
    }
  }

  function showConflict(message) {
    var box = document.getElementById("queue-conflict");
    if (!box) return;
    var queue = load();
    if (!queue.length) { box.hidden = true; return; }
    document.getElementById("queue-conflict-text").textContent = message;
    var list = document.getElementById("queue-conflict-list");
    list.textContent = "";
    queue.forEach(function (item) {
      var li = document.createElement("li");
      li.textContent = item.label;
      list.appendChild(li);
    });
    box.hidden = false;
  }

  function hideConflict() {
    var box = document.getElementById("queue-conflict");
    if (box) box.hidden = true;
  }

  function label(form, submitter) {
    var text = submitter ? (submitter.textContent || "").trim() : "";
    var seat = form.querySelector("input[name=seat]");
    var extra = seat && seat.value && seat !== submitter ? " · " + seat.value : "";
    return (text || form.dataset.kind) + extra;
  }

  function enqueue(form, submitter) {
    var data = new FormData(form);
    if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    var fields = [];
    data.forEach(function (value, key) {
      if (key !== "version" && key !== "action_id" && key !== "csrfmiddlewaretoken") fields.push([key, String(value)]);
    });
    var queue = load();
    var item = {
      id: uuid(), kind: form.dataset.kind, url: form.getAttribute("action"), fields: fields, base: version(),
      label: label(form, submitter), local: false
    };
    if (offline || item.kind === "seat") {
      applyLocal(item);
      item.local = true;
      syncTimer();
    }
    queue.push(item);
    save(queue);
    showStatus();
    pump();
  }

  function scheduleRetry(delay) {
    clearTimeout(retry);
    retry = setTimeout(pump, delay || 3000);
  }

  // A 503's Retry-After (seconds) bounded to 1–30 s, else the usual 3 s.
  function retryDelay(header) {
    var seconds = parseInt(header, 10);
    return isNaN(seconds) ? 3000 : Math.min(Math.max(seconds, 1), 30) * 1000;
  }

  function goOffline(message, delay) {
    offline = true;
    var queue = load();
    queue.forEach(function (item) {
      if (!item.local) { applyLocal(item); item.local = true; }
    });
    save(queue);
    syncTimer();  // the timer follows the speaker the kept taps have reached, not the one the stored page shows
    showStatus();
    if (message) {
      var box = document.getElementById("queue-status");
      if (box) box.textContent = queue.length + " " + t("tUnsaved") + " · " + message;
    }
    scheduleRetry(delay);
  }

  function pump() {
    if (sending || paused) return;
    var queue = load();
    if (!queue.length) { offline = false; showStatus(); return; }
    var item = queue[0];
    sending = true;
    var body = new URLSearchParams();
    item.fields.forEach(function (f) { body.append(f[0], f[1]); });
    body.append("version", item.base);
    body.append("action_id", item.id);
    fetch(item.url, {
      method: "POST", body: body, credentials: "same-origin",
      headers: { "HX-Request": "true", "X-CSRFToken": csrf() }
    }).then(function (response) {
      return response.text().then(function (text) {
        return { status: response.status, text: text, retryAfter: response.headers.get("Retry-After") };
      });
    }).then(function (answer) {
      sending = false;
      // 503: the database does not answer (club/views_errors.py): as offline, the taps stay queued and are sent
      // again after the server's Retry-After.
      if (answer.status === 503) { goOffline(t("tUnavailable"), retryDelay(answer.retryAfter)); return; }
      if (answer.status >= 500) { goOffline(t("tServer")); return; }
      offline = false;
      var rest = load();
      if (answer.status === 409) {
        // Another screen wrote meanwhile: show the stored state and let the judge re-apply or drop the taps.
        swap(answer.text);
        paused = true;
        showConflict(t("tConflict"));
        showStatus();
        return;
      }
      rest.shift();
      save(rest);
      // 400: a value broke its field's rule; 422: a rule refused the tap; both carry the board with the message
      if (answer.status === 200 || answer.status === 400 || answer.status === 422) swap(answer.text);
      // The next tap was made on the screen this one produced: it goes with the version now shown.
      if (rest.length) rest[0].base = version();
      save(rest);
      if (answer.status !== 200 && rest.length) {
        paused = true;
        showConflict(t("tConflict"));
      }
      showStatus();
      pump();
    }, function () {
      sending = false;
      goOffline("");
    });
  }

  window.addEventListener("online", function () { pump(); });

  // ------------------------------------------------------------------------------------------- redraws
  function swap(html) {
    var template = document.createElement("template");
    template.innerHTML = html.trim();
    Array.prototype.slice.call(template.content.children).forEach(function (element) {
      if (!element.id) return;
      var old = document.getElementById(element.id);
      if (!old) return;
      element.removeAttribute("hx-swap-oob");
      redrawn(element);
      old.replaceWith(element);
      if (window.htmx) window.htmx.process(element);
    });
    keepBoard();
    afterSwap();
  }

  // The server's answer also goes into the detached copy of its board, which is kept for a reload offline.
  function redrawn(element) {
    if (element.id === "board") { drawn = element.cloneNode(true); return; }
    var old = drawn && drawn.querySelector("[id='" + element.id + "']");
    if (old) old.replaceWith(element.cloneNode(true));
  }
  function keepBoard() {
    if (!drawn) return;
    var input = drawn.querySelector("#live-version");
    try {
      localStorage.setItem(BKEY, JSON.stringify({ version: input ? input.value : "", html: drawn.outerHTML }));
    } catch (e) { /* storage full: the kept copy of the page is shown as it is */ }
  }
  // At load: when this page is an older copy (the worker's, shown offline) than the board kept after the last
  // answer, that board is put back, so the screen starts from what the server last drew.
  function restoreBoard() {
    var board = document.getElementById("board");
    if (!board) return;
    var kept = null;
    try { kept = JSON.parse(localStorage.getItem(BKEY) || "null"); } catch (e) { kept = null; }
    if (kept && kept.html && Number(kept.version) > Number(version())) {
      var template = document.createElement("template");
      template.innerHTML = kept.html.trim();
      var fresh = template.content.firstElementChild;
      if (fresh && fresh.id === "board") {
        board.replaceWith(fresh);
        if (window.htmx) window.htmx.process(fresh);
        board = fresh;
      }
    }
    drawn = board.cloneNode(true);
    keepBoard();
  }

  function registerWorker() {
    var url = root.dataset.sw;
    if (!url || !("serviceWorker" in navigator)) return;
    navigator.serviceWorker.register(url, { scope: root.dataset.swScope }).then(function (registration) {
      // One judge screen is kept on the phone: the workers of earlier games go (their copies with them).
      return navigator.serviceWorker.getRegistrations().then(function (all) {
        all.forEach(function (other) {
          var worker = other.active || other.waiting || other.installing;
          if (other.scope !== registration.scope && worker && new URL(worker.scriptURL).pathname === url) {
            other.unregister();
          }
        });
      });
    }).catch(function () { /* no worker (plain http, an old browser): the screen works, it only cannot reopen offline */ });
  }

  function afterSwap() {
    // Taps still waiting keep showing on the fresh board (a seat picked, or anything while offline).
    load().forEach(function (item) {
      if (offline || item.kind === "seat") applyLocal(item);
    });
    refreshSheet();
    guardSpeech();
    initVotes();
    syncTimer();
  }

  // What the screen can safely show before the server answers.
  function applyLocal(item) {
    var board = document.getElementById("board");
    if (!board) return;
    var f = fieldsOf(item);
    if (item.kind === "speech") {
      var order = csv(board.dataset.order);
      var spoken = csv(board.dataset.spoken);
      var silenced = csv(board.dataset.silenced);
      if (spoken.indexOf(f.seat) < 0) spoken.push(f.seat);
      board.dataset.spoken = spoken.join(",");
      var next = order.filter(function (s) { return spoken.indexOf(s) < 0 && silenced.indexOf(s) < 0; })[0] || "";
      board.dataset.speechSeat = next;
      board.dataset.speechKey = next ? game + ":D" + board.dataset.day + ":" + next : "";
      // the speech's length comes from the page (the rule set's `speech_seconds` / `short_speech_seconds`)
      board.dataset.speechSeconds = csv(board.dataset.shortSeats).indexOf(next) >= 0 ? board.dataset.shortSeconds
        : board.dataset.fullSeconds;
      var speaker = board.querySelector("[data-testid=speaker]");
      if (speaker) speaker.textContent = next || "—";
      board.querySelectorAll("[data-speech-seat]").forEach(function (input) { input.value = next; });
      board.querySelectorAll(".tile.speaking").forEach(function (tile) { tile.classList.remove("speaking"); });
      var tile = document.getElementById("seat-" + next);
      if (tile) tile.classList.add("speaking");
      var done = board.querySelector("[data-order-seat='" + f.seat + "']");
      if (done) done.classList.add("spoken");
      var by = document.getElementById("by-" + next);
      if (by) by.checked = true;
    } else if (item.kind === "foul") {
      var count = document.querySelector("#fouls-" + f.seat + " .fouls-count");
      // the "ф." beside the count is drawn by the server for every count, so a local foul reads "1 ф." too
      if (count) count.textContent = String(Math.max(0, parseInt(count.textContent, 10) + parseInt(f.delta, 10)));
      refreshSheet();
    } else if (item.kind === "nominate") {
      var button = board.querySelector("[data-testid=nominee-" + f.nominee + "]");
      if (button) button.disabled = true;
      var list = board.querySelector("[data-testid=nominations]");
      if (list) {
        var mark = document.createElement("span");
        mark.className = "nominee text-warning-emphasis";
        mark.textContent = " " + f.nominee + "?";
        list.appendChild(mark);
      }
    } else if (item.kind === "seat") {
      var target = document.getElementById("seat-" + f.seat);
      var chip = board.querySelector("[data-testid=recent-" + f.player_id + "], [data-testid=suggest-" + f.player_id + "]");
      if (target && chip) {
        target.classList.remove("empty", "selected");
        target.querySelector(".tile-nick").textContent = chip.textContent;
        chip.hidden = true;
      }
      var empty = board.querySelector(".tile.empty:not(#seat-" + f.seat + ")");
      pickSeat(empty ? empty.dataset.pickSeat : f.seat);
    }
  }

  // ------------------------------------------------------------------------------------------- taps
  function guardSpeech() {
    var last = Number(sessionStorage.getItem(GKEY) || 0);
    var wait = GUARD_MS - (Date.now() - last);
    document.querySelectorAll("[data-guard=speech]").forEach(function (button) {
      if (wait > 0) {
        button.classList.add("guarded");
        setTimeout(function () { button.classList.remove("guarded"); }, wait);
      }
    });
  }

  function hint(text) {
    var box = document.getElementById("queue-status");
    if (!box || !box.hidden || !text) return;
    box.hidden = false;
    box.textContent = text;
    setTimeout(showStatus, 1500);
  }

  function arm(button) {
    document.querySelectorAll("button.armed").forEach(disarm);
    button.classList.add("armed");
    button.dataset.label = button.innerHTML;
    if (button.offsetWidth > 120) button.textContent = t("tAgain");
    button.dataset.armedUntil = String(Date.now() + 4000);
    setTimeout(function () { disarm(button); }, 4000);
  }
  function disarm(button) {
    if (!button.classList.contains("armed")) return;
    button.classList.remove("armed");
    if (button.dataset.label !== undefined) button.innerHTML = button.dataset.label;
  }

  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.matches || !form.matches("form[data-kind]") || !root.contains(form)) return;
    e.preventDefault();
    var submitter = e.submitter || null;
    if (submitter && submitter.hasAttribute("data-confirm")) {
      if (!submitter.classList.contains("armed") || Number(submitter.dataset.armedUntil) < Date.now()) {
        arm(submitter);
        return;
      }
      disarm(submitter);
    }
    if (submitter && submitter.dataset.guard === "speech") {
      var last = Number(sessionStorage.getItem(GKEY) || 0);
      if (Date.now() - last < GUARD_MS) {  // a double tap: the next speaker has not begun yet
        hint(t("tWait"));
        return;
      }
      sessionStorage.setItem(GKEY, String(Date.now()));
    }
    enqueue(form, submitter);
    if (form.dataset.kind !== "foul" && !form.closest("#board")) closeSheet();
    guardSpeech();
  }, true);

  document.addEventListener("click", function (e) {
    var queueButton = e.target.closest("[data-queue]");
    if (queueButton) {
      var queue = load();
      if (queueButton.dataset.queue === "drop") {
        save([]);
      } else {
        if (queue.length) queue[0].base = version();
        save(queue);
      }
      paused = false;
      hideConflict();
      showStatus();
      pump();
      return;
    }
    var pick = e.target.closest("[data-pick-seat]");
    if (pick) { pickSeat(pick.dataset.pickSeat); return; }
    var tile = e.target.closest("[data-seat-sheet]");
    if (tile) { openSheet(tile.dataset.seatSheet); return; }
    if (e.target.closest("[data-sheet-close]")) { closeSheet(); return; }
    var sheet = document.getElementById("seat-sheet");
    if (sheet && !sheet.hidden && !sheet.contains(e.target)) closeSheet();
    var key = e.target.closest("[data-key]");
    if (key) { setVote(key.closest("form"), parseInt(key.dataset.key, 10), true); return; }
    var candidate = e.target.closest("[data-hand-candidate]");
    if (candidate) { pickCandidate(candidate); return; }
    var hand = e.target.closest("[data-hand]");
    if (hand) { toggleHand(hand); return; }
    var step = e.target.closest("[data-vote-step]");
    if (step) {
      var row = step.closest(".vote-row");
      activate(row);
      var input = row.querySelector("input.vote-count");
      setVote(row.closest("form"), (parseInt(input.value, 10) || 0) + parseInt(step.dataset.voteStep, 10), false);
      return;
    }
    var voteRow = e.target.closest(".vote-row");
    if (voteRow && !voteRow.classList.contains("rest")) activate(voteRow);
    var timerButton = e.target.closest("[data-timer]");
    if (timerButton) timerCommand(timerButton.dataset.timer);
  });

  document.addEventListener("change", function (e) {
    if (e.target.matches("[data-best-move]")) {
      var form = e.target.closest("form");
      if (form.querySelectorAll("[data-best-move]:checked").length > 3) e.target.checked = false;
    }
  });
  document.addEventListener("input", function (e) {
    if (e.target.matches("input.vote-count")) recount(e.target.closest("form"));
  });

  // Setup: the seat the next tapped player goes to.
  function pickSeat(number) {
    document.querySelectorAll("[data-pick-seat]").forEach(function (tile) {
      tile.classList.toggle("selected", tile.dataset.pickSeat === String(number));
    });
    document.querySelectorAll("[data-seat-target]").forEach(function (input) { input.value = number; });
  }

  // ------------------------------------------------------------------------------------------- a seat's sheet
  function openSheet(number) {
    var sheet = document.getElementById("seat-sheet");
    var tile = document.getElementById("seat-" + number);
    if (!sheet || !tile) return;
    sheet.dataset.seat = number;
    sheet.querySelector("[data-sheet-no]").textContent = number;
    sheet.querySelector("[data-sheet-nick]").textContent = tile.dataset.nick || "";
    sheet.querySelectorAll("[data-sheet-seat]").forEach(function (input) { input.value = number; });
    var status = document.getElementById("board").dataset.status;
    sheet.querySelectorAll("[data-when]").forEach(function (part) { part.hidden = part.dataset.when !== status; });
    sheet.hidden = false;
    refreshSheet();
  }
  function refreshSheet() {
    var sheet = document.getElementById("seat-sheet");
    if (!sheet || sheet.hidden) return;
    var tile = document.getElementById("seat-" + sheet.dataset.seat);
    if (tile && tile.classList.contains("out")) { closeSheet(); return; }  // removed: nothing more to do here
    var count = document.querySelector("#fouls-" + sheet.dataset.seat + " .fouls-count");
    var fouls = count ? count.textContent.trim() : "";
    sheet.querySelectorAll("[data-sheet-fouls]").forEach(function (input) { input.value = fouls; });
    // The rule set's removing foul (`foul_limit`, the 4th: 000 D6.5, 002 II.2.1) removes the player: that tap asks
    // once. The limit comes from the page (data-foul-limit).
    var removing = String(parseInt(sheet.dataset.foulLimit, 10) - 1);
    sheet.querySelectorAll("button[name=delta][value='1']").forEach(function (button) {
      if (fouls === removing) button.setAttribute("data-confirm", ""); else button.removeAttribute("data-confirm");
    });
  }
  function closeSheet() {
    var sheet = document.getElementById("seat-sheet");
    if (sheet) sheet.hidden = true;
  }

  // ------------------------------------------------------------------------------------------- votes
  function activate(row) {
    if (!row) return;
    row.parentElement.querySelectorAll(".vote-row").forEach(function (r) { r.classList.toggle("active", r === row); });
  }
  function setVote(form, value, advance) {
    var rows = form.querySelector(".vote-rows");
    var alive = parseInt(rows.dataset.alive, 10);
    var row = rows.querySelector(".vote-row.active") || rows.querySelector(".vote-row");
    var input = row.querySelector("input.vote-count");
    if (!input) return;
    input.value = String(Math.max(0, Math.min(alive, value)));
    recount(form);
    if (advance) {
      var next = row.nextElementSibling;
      if (next && !next.classList.contains("rest")) activate(next);
    }
  }
  function recount(form) {
    var rows = form.querySelector(".vote-rows");
    if (!rows) return;
    var rest = rows.querySelector("[data-vote-rest]");
    if (!rest) return;
    var given = 0;
    rows.querySelectorAll("input.vote-count").forEach(function (input) { given += parseInt(input.value, 10) || 0; });
    var left = parseInt(rows.dataset.alive, 10) - given;
    rest.textContent = String(left);
    rest.classList.toggle("text-danger", left < 0);
  }
  // Recording who votes (the club's choice): tap a candidate, tap the raised hands; the rest go to the last one.
  function pickCandidate(button) {
    button.parentElement.querySelectorAll("[data-hand-candidate]").forEach(function (b) {
      b.classList.toggle("active", b === button);
    });
  }
  function toggleHand(button) {
    var board = button.closest(".hand-board");
    var input = board.querySelector('[data-hand-input="' + button.dataset.hand + '"]');
    var active = board.querySelector("[data-hand-candidate].active");
    var value = board.dataset.lift ? "1" : (active ? active.dataset.handCandidate : "");
    input.value = input.value === value ? "" : value;
    countHands(board);
  }
  function countHands(board) {
    var counts = {}, given = 0;
    board.querySelectorAll("[data-hand-input]").forEach(function (input) {
      var button = board.querySelector('[data-hand="' + input.dataset.handInput + '"]');
      var mark = button.querySelector("[data-hand-for]");
      if (mark) mark.textContent = input.value && !board.dataset.lift ? "→" + input.value : "";
      button.classList.toggle("btn-dark", !!input.value);
      button.classList.toggle("btn-outline-dark", !input.value);
      if (input.value) { counts[input.value] = (counts[input.value] || 0) + 1; given += 1; }
    });
    var lift = board.querySelector("[data-hand-lift-count]");
    if (lift) { lift.textContent = String(given); return; }
    var candidates = board.querySelectorAll("[data-hand-candidate]");
    candidates.forEach(function (b, i) {
      var seat = b.dataset.handCandidate, n = counts[seat] || 0;
      if (i === candidates.length - 1) n += parseInt(board.dataset.alive, 10) - given;
      b.querySelector("[data-hand-count]").textContent = String(n);
    });
  }
  function initVotes() {
    document.querySelectorAll(".vote-form").forEach(recount);
  }

  // ------------------------------------------------------------------------------------------- the timer
  var warned = false;
  function loadTimer() {
    try { return JSON.parse(localStorage.getItem(TKEY) || "{}"); } catch (e) { return {}; }
  }
  function saveTimer(state) { localStorage.setItem(TKEY, JSON.stringify(state)); }
  function startTimer(seconds, key, seat) {
    warned = false;
    saveTimer({ key: key, seat: seat, total: seconds, running: true, endsAt: Date.now() + seconds * 1000 });
    renderTimer();
  }
  function syncTimer() {
    var board = document.getElementById("board");
    var bar = document.getElementById("timer-bar");
    if (!board || !bar) return;
    bar.hidden = board.dataset.status !== "in_progress";
    var key = board.dataset.speechKey || "";
    var state = loadTimer();
    if (key && key !== state.key) {
      var seconds = parseInt(board.dataset.speechSeconds, 10) || parseInt(board.dataset.fullSeconds, 10) || 0;
      if (board.dataset.timerAuto === "1") {
        startTimer(seconds, key, board.dataset.speechSeat);
      } else {
        saveTimer({ key: key, seat: board.dataset.speechSeat, total: seconds, running: false, left: seconds * 1000 });
      }
    } else if (!key && state.key && state.key.indexOf("manual") !== 0 && state.running) {
      saveTimer({ key: "", running: false, left: 0 });
    }
    renderTimer();
  }
  function timerCommand(command) {
    var state = loadTimer();
    var board = document.getElementById("board");
    var seat = board ? board.dataset.speechSeat : "";
    if (command === "pause") {
      if (state.running) {
        state.left = Math.max(0, state.endsAt - Date.now());
        state.running = false;
      } else if (state.left > 0) {
        state.endsAt = Date.now() + state.left;
        state.running = true;
      }
      saveTimer(state);
    } else if (command === "0") {
      saveTimer({ key: state.key, seat: state.seat, running: false, left: 0, stopped: true });
    } else {
      // A full speech again, or a short one (the rule set's seconds, from the page: a tie speech, 3–4 players left): "manual" keeps it running
      // when the board moves on.
      startTimer(parseInt(command, 10), state.key && state.key.indexOf("manual") !== 0 ? state.key : "manual:" + Date.now(), seat);
    }
    renderTimer();
  }
  function renderTimer() {
    var bar = document.getElementById("timer-bar");
    var out = document.getElementById("speech-timer");
    if (!bar || !out) return;
    var state = loadTimer();
    var left = state.running ? state.endsAt - Date.now() : (state.left || 0);
    var seatBox = document.getElementById("timer-seat");
    if (seatBox) seatBox.textContent = state.seat ? "№" + state.seat : "";
    if (state.over) {
      out.textContent = "0 · " + t("tTimeUp");
      bar.classList.remove("warn");
      bar.classList.add("over");
      return;
    }
    if (!state.running && !left) {
      out.textContent = "—";
      bar.classList.remove("warn", "over");
      return;
    }
    var seconds = Math.max(0, Math.ceil(left / 1000));
    out.textContent = seconds > 0 ? String(seconds) : "0 · " + t("tTimeUp");
    bar.classList.toggle("warn", seconds > 0 && seconds <= 10);
    bar.classList.toggle("over", seconds <= 0);
    if (seconds <= 10 && seconds > 0 && state.running && !warned) {
      warned = true;
      if (navigator.vibrate) navigator.vibrate(200);
    }
    if (state.running && seconds <= 0) {
      state.running = false;
      state.left = 0;
      state.over = true;
      saveTimer(state);
      out.textContent = "0 · " + t("tTimeUp");
    }
  }
  setInterval(renderTimer, 250);

  // ------------------------------------------------------------------------------------------- start
  (function start() {
    restoreBoard();
    var queue = load();
    queue.forEach(function (item) { item.local = false; });
    save(queue);
    afterSwap();
    showStatus();
    pump();
    registerWorker();
  })();
})();
