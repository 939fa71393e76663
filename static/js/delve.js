/* Delve's few lines of page script: keyboard shortcuts, copying the share link, the Socket.IO
   doorbell turned into an htmx event, and readable messages for network trouble.
   No inline script anywhere (the CSP forbids it). */
(function () {
  "use strict";

  function game() { return document.getElementById("game"); }
  function currentVersion() {
    var g = game();
    return g ? parseInt(g.getAttribute("data-version"), 10) : -1;
  }
  function flash(message) {
    var box = document.getElementById("flash");
    if (!box) return;
    box.innerHTML = "";
    var p = document.createElement("p");
    p.className = "alert";
    p.setAttribute("role", "alert");
    p.textContent = message;
    box.appendChild(p);
  }

  /* Keyboard: each action button carries data-key (and maybe data-alt-key). */
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    var g = game();
    if (!g) return;
    var key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    var selector = '[data-key="' + CSS.escape(key) + '"], [data-alt-key="' + CSS.escape(key) + '"]';
    var button = g.querySelector("button" + selector + ":not([disabled])");
    if (!button) return;
    event.preventDefault();
    button.focus();
    button.click();
  });

  /* Copy the share link. */
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-copy]") : null;
    if (!button) return;
    var input = document.querySelector(button.getAttribute("data-copy"));
    var status = document.getElementById(button.getAttribute("aria-describedby"));
    if (!input) return;
    function done(text) { if (status) status.textContent = text; }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(
        function () { done("Link copied."); },
        function () { input.select(); done("Press Ctrl+C to copy."); });
    } else {
      input.select();
      try { document.execCommand("copy"); done("Link copied."); } catch (e) { done("Press Ctrl+C to copy."); }
    }
  });

  /* Keep the log scrolled to its newest line. */
  function scrollLog() {
    var log = document.getElementById("log");
    if (log) log.scrollTop = log.scrollHeight;
  }
  document.addEventListener("DOMContentLoaded", scrollLog);
  document.addEventListener("htmx:afterSwap", scrollLog);

  /* Network trouble and server errors get words, not silence. */
  document.addEventListener("htmx:sendError", function () {
    flash("Could not reach the server. Check your connection; nothing was lost — try again in a moment.");
  });
  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail && event.detail.xhr ? event.detail.xhr.status : 0;
    flash(status >= 500 ? "Something went wrong on our side. The game is safe: reload the page to carry on."
                        : "That did not work (error " + status + "). Reload the page to carry on.");
  });

  /* The doorbell: Socket.IO says "version N"; if we are behind, htmx fetches our own view. */
  var inFlight = 0;
  var behind = false;
  document.addEventListener("htmx:beforeRequest", function () { inFlight += 1; });
  document.addEventListener("htmx:afterRequest", function () {
    inFlight = Math.max(0, inFlight - 1);
    if (inFlight === 0 && behind) { behind = false; checkVersion(latestKnown); }
  });
  var latestKnown = -1;
  function checkVersion(version) {
    latestKnown = Math.max(latestKnown, version);
    if (latestKnown <= currentVersion()) return;
    if (inFlight > 0) { behind = true; return; }
    htmx.trigger(document.body, "delve:changed");
  }

  function connect() {
    var g = game();
    if (!g || typeof io === "undefined") return;
    var gameId = g.getAttribute("data-game-id");
    var socket = io({ reconnectionDelayMax: 5000 });
    window.delveSocket = socket;
    socket.on("connect", function () {
      document.documentElement.setAttribute("data-live", "connected");
      socket.emit("watch", { game: gameId, version: currentVersion() });
    });
    socket.on("disconnect", function () {
      document.documentElement.setAttribute("data-live", "disconnected");
    });
    socket.on("changed", function (message) {
      if (message && typeof message.version === "number") checkVersion(message.version);
    });
  }
  document.addEventListener("DOMContentLoaded", connect);
})();
