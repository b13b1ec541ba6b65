/* The judge's screen: every POST carries the current protocol version and a fresh action id per click;
   refused actions (409 stale, 422 invalid) are swapped in like any answer; an optional speech timer. */
(function () {
  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx".replace(/[xy]/g, function (c) {
      var r = (Math.random() * 16) | 0;
      return (c === "x" ? r : (r & 3) | 8).toString(16);
    });
  }
  document.addEventListener("htmx:configRequest", function (e) {
    if (e.detail.verb !== "post") return;
    var version = document.getElementById("live-version");
    if (version) e.detail.parameters["version"] = version.value;
    e.detail.parameters["action_id"] = uuid();
  });
  document.addEventListener("htmx:beforeSwap", function (e) {
    var status = e.detail.xhr.status;
    if (status === 409 || status === 422) {
      e.detail.shouldSwap = true;
      e.detail.isError = false;
    }
  });
  var timer = null;
  document.addEventListener("click", function (e) {
    var button = e.target.closest("[data-timer]");
    if (!button) return;
    var out = document.getElementById("speech-timer");
    if (!out) return;
    clearInterval(timer);
    var left = parseInt(button.dataset.timer, 10);
    if (left === 0) { out.textContent = ""; return; }
    var unit = " " + (out.dataset.unit || "s");
    out.textContent = left + unit;
    out.classList.remove("text-danger");
    timer = setInterval(function () {
      left -= 1;
      out.textContent = left > 0 ? left + unit : "0" + unit + " — " + (out.dataset.over || "time!");
      if (left <= 10) out.classList.add("text-danger");
      if (left <= 0) clearInterval(timer);
    }, 1000);
  });
})();
