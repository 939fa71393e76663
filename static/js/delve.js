/* Delve's few lines of page script: keyboard shortcuts, copying the share link, the boards the
   server pushes over Socket.IO (and its doorbell turned into an htmx event, for whatever a push
   missed), and readable messages for network trouble.
   No inline script anywhere (the CSP forbids it). */
(function () {
  "use strict";

  function game() { return document.getElementById("game"); }
  function currentRevision() {
    var g = game();
    return g ? parseInt(g.getAttribute("data-revision"), 10) : -1;
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

  /* Keyboard: each action button carries data-key (and maybe data-alt-key). Ctrl+Z and Cmd+Z
     are the Undo button's U (templates/_undo.html); in a text field they stay the field's own. */
  var fightMode = false;
  var UNDO_KEY = "u";
  function isUndoChord(event) {
    return (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === "z";
  }
  document.addEventListener("keydown", function (event) {
    var undoChord = isUndoChord(event);
    if (!undoChord && (event.ctrlKey || event.metaKey || event.altKey)) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    var g = game();
    if (!g) return;
    var key = undoChord ? UNDO_KEY : event.key.length === 1 ? event.key.toLowerCase() : event.key;
    if (key === UNDO_KEY) {
      if (event.defaultPrevented) return;  /* a game's own script took the key */
      /* Nothing to undo: say why instead of doing nothing (the page's own words beside the button). */
      var why = g.querySelector("[data-undo-why]");
      if (why && !actionPending()) {
        event.preventDefault();
        flash(why.textContent);
        return;
      }
    }
    var direction = /^(ArrowUp|ArrowDown|ArrowLeft|ArrowRight|w|a|s|d)$/.test(key);
    if (direction && (event.shiftKey || fightMode)) {
      key = "Shift+" + key;
      fightMode = false;
    } else if (key === "f" && g.querySelector('button[data-key^="Shift+"]')) {
      /* F then a direction: the two-key way to attack (A is already "west" in W A S D). */
      event.preventDefault();
      fightMode = true;
      flash("Attack: press a direction.");
      return;
    } else {
      fightMode = false;
    }
    var button = keyButton(g, key);
    var pending = actionPending();
    /* An undo pressed behind a move still in flight waits for it: the board that answers the move
       is the one with something to undo. */
    if (!button && !(pending && key === UNDO_KEY)) return;
    event.preventDefault();
    if (pending) {
      queueKey(key, button);
      return;
    }
    pressKeyButton(button);
  });
  function keyButton(g, key) {
    var selector = '[data-key="' + CSS.escape(key) + '"], [data-alt-key="' + CSS.escape(key) + '"]';
    return g.querySelector("button" + selector + ":not([disabled])");
  }
  function pressKeyButton(button) {
    button.focus();
    if (!lossConfirmed(button)) return;
    button.click();
  }

  /* An action the engine says certainly loses the game carries its sentence in data-confirm, and
     nothing is posted until the player says yes. A person's own click (mouse, or Enter / Space on
     the focused button) is trusted and asks here; a script's click is not: the shortcut above
     asked before clicking, and a game's own script (Clear the Dungeon's D, pressed twice) has
     its own way of asking. */
  function lossConfirmed(button) {
    var warning = button.getAttribute("data-confirm");
    return !warning || window.confirm(warning + "\n\nDo it anyway?");
  }
  document.addEventListener("click", function (event) {
    if (!event.isTrusted || !event.target.closest) return;
    var button = event.target.closest("button[data-confirm]");
    if (!button || button.disabled || lossConfirmed(button)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
  }, true);

  /* Key presses while an action's request is in flight (its form's hx-sync would drop them) wait
     in a queue: each is sent once the answer before it is on the page, looked up again among
     that board's buttons, so it acts on top of the last answered press. A press the new board
     has no button for, or a refused answer (its reason in the flash), ends the queue. */
  var keyQueue = [];
  var actionForm = null;  /* the action form whose request is in flight */
  /* Its request: in flight until answered, whatever happens to the form meanwhile (a pushed
     board may replace the board it sits on before the answer comes). */
  var actionXhr = null;
  var settlingSince = 0;  /* a board just swapped in: htmx wires its forms up when it settles */
  function requestElt(event) {
    var detail = event.detail || {};
    return (detail.requestConfig && detail.requestConfig.elt) || detail.elt;
  }
  function isActionRequest(event) {
    var elt = requestElt(event);
    return !!(elt && elt.matches && elt.matches("form.play"));
  }
  function actionPending() {
    /* A click before the new board settles would post its form without htmx: a full page load. */
    var settling = settlingSince && Date.now() - settlingSince < 1000;
    return !!(actionXhr && actionXhr.readyState !== 4) || !!settling;
  }
  function buttonWords(button) {
    var kbd = button.querySelector("kbd");
    var words = button.getAttribute("title") || button.textContent.replace(kbd ? kbd.textContent : "", "");
    return words.replace(/\s+/g, " ").trim();
  }
  function queueKey(key, button) {
    keyQueue.push({ key: key, words: button ? buttonWords(button) : "Undo" });
    setTimeout(nextQueuedKey, 1100);  /* in case no settle comes to send it */
  }
  function nextQueuedKey() {
    if (!keyQueue.length || actionPending()) return;
    var g = game();
    var next = keyQueue.shift();
    var button = g && keyButton(g, next.key);
    if (!button) {
      var dropped = keyQueue.length;
      keyQueue = [];
      flash("Stopped: “" + next.words + "” is not possible any more" +
            (dropped === 1 ? ", and the key press after it was dropped." :
             dropped ? ", and the " + dropped + " key presses after it were dropped." : "."));
      return;
    }
    pressKeyButton(button);
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (!isActionRequest(event)) return;
    actionForm = requestElt(event);
    actionXhr = event.detail.xhr || null;
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!isActionRequest(event)) return;
    var xhr = event.detail.xhr;
    if (xhr && xhr.status >= 400) keyQueue = [];  /* refused: the answer's flash says why */
    /* The answer is swapped in (or set aside) right after this: the next press goes then. */
    setTimeout(nextQueuedKey, 0);
  });
  ["htmx:afterRequest", "htmx:sendError", "htmx:responseError", "htmx:timeout"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      if (!isActionRequest(event) || requestElt(event) !== actionForm) return;
      actionForm = null;
      if (name !== "htmx:afterRequest" || !event.detail.successful) keyQueue = [];
    });
  });
  document.addEventListener("htmx:afterSwap", function () { settlingSince = Date.now(); });
  document.addEventListener("htmx:afterSettle", function () {
    settlingSince = 0;
    nextQueuedKey();
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

  /* The doorbell: Socket.IO says "revision N"; if we are behind, htmx fetches our own view.
     After every swap we look again: a slow answer may have brought an older board than the
     newest doorbell announced. #game's hx-sync="this:replace" keeps only the latest fetch. */
  var latestKnown = -1;
  var fetchingFrom = null;  /* the #game element whose board fetch is in flight */
  function fetching() {
    /* A fetch is moot once its element left the page (another answer replaced #game), and an
       outerHTML swap detaches #game before htmx:afterRequest, so that event cannot be relied on. */
    return !!(fetchingFrom && fetchingFrom.isConnected);
  }
  function checkRevision(revision) {
    latestKnown = Math.max(latestKnown, revision);
    if (!fetching() && latestKnown > currentRevision()) htmx.trigger(document.body, "delve:changed");
  }
  function isBoardFetch(event) { return event.detail && event.detail.elt && event.detail.elt.id === "game"; }
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (isBoardFetch(event)) fetchingFrom = event.detail.elt;
  });
  ["htmx:beforeSwap", "htmx:afterRequest", "htmx:sendError", "htmx:responseError", "htmx:timeout"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      if (isBoardFetch(event) && event.detail.elt === fetchingFrom) fetchingFrom = null;
    });
  });
  /* A board answer meets the board on the page. A push may have replaced #game while the request
     ran: then the answer goes to the #game on the page now (its own target is gone), unless it
     is older than what the page shows, or the very board a push already showed (swapping it
     again would orphan a request sent from the pushed board), or the board shown while an
     action is in flight. */
  document.addEventListener("htmx:beforeSwap", function (event) {
    var current = game();
    var detail = event.detail;
    var xhr = detail && detail.xhr;
    if (!current || !xhr || !detail.target || detail.target.id !== "game") return;
    if (typeof xhr.responseText !== "string") return;
    var found = /data-revision="(\d+)"/.exec(xhr.responseText);
    if (found) {
      var revision = parseInt(found[1], 10);
      /* The board on the page again, fetched while an action of ours is in flight, would detach
         that action's form: the queued key presses after it would then go from a stale board. */
      var sameBoard = revision === currentRevision() && xhr.status === 200 &&
        (detail.target !== current || (isBoardFetch(event) && actionPending()));
      if (revision < currentRevision() || sameBoard) {
        detail.shouldSwap = false;
        return;
      }
    }
    if (!detail.target.isConnected) detail.target = current;
  });
  /* A choice picked but not saved yet (a waiting room's class) survives a new board: its list is
     redrawn (what is taken, what the table allows now) and the pick put back if still open. */
  var keptChoices = {};
  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    if (!detail || !detail.target || detail.target.id !== "game" || detail.shouldSwap === false) return;
    keptChoices = {};
    detail.target.querySelectorAll("select[data-keep-choice]").forEach(function (select) {
      var saved = select.querySelector("option[selected]");
      if (!saved || saved.value !== select.value) keptChoices[select.id] = select.value;
    });
  });
  document.addEventListener("htmx:afterSwap", function () {
    Object.keys(keptChoices).forEach(function (id) {
      var select = document.getElementById(id);
      if (!select) return;
      var option = Array.prototype.find.call(select.options, function (o) { return o.value === keptChoices[id]; });
      if (option && !option.disabled) select.value = keptChoices[id];
    });
    keptChoices = {};
  });
  /* After any swap, look again: a slow answer may be older than the newest doorbell. */
  document.addEventListener("htmx:afterSettle", function () { checkRevision(latestKnown); });

  /* Which page's board this is: the waiting room asks for its own (hx-vals {"page": "waiting"}). */
  function boardPage(root) {
    try {
      var vals = root ? JSON.parse(root.getAttribute("hx-vals") || "{}") : {};
      return vals && vals.page === "waiting" ? "waiting" : "";
    } catch (e) { return ""; }
  }
  function connect() {
    var g = game();
    if (!g || typeof io === "undefined") return;
    var gameId = g.getAttribute("data-game-id");
    var socket = io({ reconnectionDelayMax: 5000 });
    window.delveSocket = socket;
    var presenceHolder = document.querySelector("[data-presence]");
    var presence = presenceHolder ? presenceHolder.getAttribute("data-presence") : null;
    var lastWatch = 0;
    /* The id of the last chat message this page shows: a page that (re)connects, or comes back
       into view, asks for the ones said since (a message said while it had no socket is not lost). */
    function lastChatId() {
      var items = document.querySelectorAll("#chat-log li[data-chat-id]");
      var last = 0;
      items.forEach(function (item) { last = Math.max(last, parseInt(item.getAttribute("data-chat-id"), 10) || 0); });
      return last;
    }
    function watch(catchUp) {
      lastWatch = Date.now();
      var root = game();
      var logSeen = document.getElementById("log-seen");
      var mark = logSeen ? parseInt(logSeen.value, 10) : NaN;
      var message = { game: gameId, revision: currentRevision(), presence: presence, boards: true, page: boardPage(root) };
      if (!isNaN(mark)) message.log_seen = mark;
      var viewer = document.body.getAttribute("data-viewer");
      if (viewer) message.viewer = viewer;
      if (catchUp && document.getElementById("chat-log")) message.chat_after = lastChatId();
      socket.emit("watch", message);
    }
    /* Our own requests name this page's socket, so the server does not push us the board our
       own action's answer brings. */
    document.addEventListener("htmx:configRequest", function (event) {
      if (socket.id) event.detail.headers["X-Delve-Socket"] = socket.id;
    });
    socket.on("connect", function () {
      document.documentElement.setAttribute("data-live", "connected");
      watch(true);
    });
    /* A push can be lost without the socket dropping (a Redis blip between server processes
       drops it): every 30 s, and whenever the tab comes back into view, the page says which
       revision it shows again, and the server rings if it is behind. */
    setInterval(function () { if (socket.connected) watch(); }, 30000);
    document.addEventListener("visibilitychange", function () {
      /* At most once a second: with the 30 s re-announcement that stays under the 2 messages a
         second the server allows a page, however fast someone switches tabs. */
      if (document.visibilityState === "visible" && socket.connected && Date.now() - lastWatch >= 1000) watch(true);
    });
    socket.on("connect_error", function (error) {
      /* Refused by the server (too many pages open from this address): say so and stop trying. */
      if (error && error.message && error.message.indexOf("Too many pages") === 0) {
        socket.io.reconnection(false);
        document.documentElement.setAttribute("data-live", "refused");
        flash(error.message);
      }
    });
    socket.on("disconnect", function () {
      if (document.documentElement.getAttribute("data-live") !== "flooded") {
        document.documentElement.setAttribute("data-live", "disconnected");
      }
    });
    socket.on("server_restarting", function () {
      /* The server is restarting: Socket.IO reconnects by itself and "watch" refetches the board. */
      var box = document.getElementById("flash");
      if (box) {
        box.innerHTML = "";
        var p = document.createElement("p");
        p.className = "alert info";
        p.setAttribute("role", "status");
        p.textContent = "The server is restarting — reconnecting, nothing is lost.";
        box.appendChild(p);
      }
    });
    socket.on("flooded", function (message) {
      /* The server cut this page off for sending too many messages. Reconnecting by itself would
         only repeat whatever sent them, so the page stays off until the person reloads it. */
      socket.io.reconnection(false);
      socket.disconnect();
      document.documentElement.setAttribute("data-live", "flooded");
      flash(message && typeof message.reason === "string" ? message.reason
            : "Too many messages from this page; reload it to reconnect.");
    });
    socket.on("changed", function (message) {
      if (message && typeof message.revision === "number") checkRevision(message.revision);
    });
    /* A pushed board: this page's own, rendered by the server as its GET would have been. */
    socket.on("board", function (message) {
      if (!message || typeof message.revision !== "number") return;
      latestKnown = Math.max(latestKnown, message.revision);
      if (actionXhr && actionXhr.readyState !== 4) {
        /* Our own action is in flight: its answer is the newer board (it is rendered after the
           action lands). Swapping this one in first would detach the action's form, and its
           answer would be lost. Kept, in case that answer never comes. */
        heldPush = message;
        return;
      }
      showPushedBoard(message);
    });
    document.addEventListener("htmx:afterSettle", releaseHeldPush);
    document.addEventListener("htmx:afterRequest", function () { setTimeout(releaseHeldPush, 0); });
    socket.on("chat", function (message) {
      var log = document.getElementById("chat-log");
      if (!log || !message) return;
      var id = typeof message.id === "number" ? message.id : null;
      if (id !== null && log.querySelector('li[data-chat-id="' + id + '"]')) return;  /* caught up already */
      var item = document.createElement("li");
      if (id !== null) item.setAttribute("data-chat-id", String(id));
      var who = document.createElement("strong");
      who.textContent = String(message.name) + ":";
      item.appendChild(who);
      item.appendChild(document.createTextNode(" " + String(message.text)));
      log.appendChild(item);
      log.scrollTop = log.scrollHeight;
    });
  }

  /* A pushed board: swapped in unless the page already shows that revision or a newer one. */
  var heldPush = null;
  function showPushedBoard(message) {
    var current = game();
    if (!current || message.revision <= currentRevision()) return;
    if (message.refresh) { window.location.reload(); return; }
    if (message.same === true && typeof message.version === "number") {
      /* The game moved on, but nothing this page shows changed (another seat's move out of
         sight): the board stays, and its forms speak for the new version. */
      current.querySelectorAll('input[name="version"]').forEach(function (input) {
        input.value = String(message.version);
      });
      current.setAttribute("data-revision", String(message.revision));
      return;
    }
    if (typeof message.html !== "string") return;
    var info = { elt: current, target: current, pushed: true };
    if (!htmx.trigger(current, "htmx:beforeSwap", info)) return;
    htmx.swap(current, message.html, { swapStyle: "outerHTML" }, { eventInfo: info });
  }
  function releaseHeldPush() {
    if (!heldPush || (actionXhr && actionXhr.readyState !== 4)) return;
    var message = heldPush;
    heldPush = null;
    showPushedBoard(message);
  }

  /* Chat: clear the box once the server took the message. */
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.target;
    if (form && form.hasAttribute && form.hasAttribute("data-chat") && event.detail.successful) {
      form.reset();
      var input = form.querySelector("input[name=text]");
      if (input) input.focus();
    }
  });

  /* Countdowns: [data-countdown] holds seconds left when the fragment was rendered. m:ss, h:mm:ss
     past an hour, "2 d 03 h" past a day: the format the server's first paint uses too
     (rendering.time_left, _table.html's countdown macro). */
  var countdownStarted = Date.now();
  function resetCountdowns() { countdownStarted = Date.now(); }
  function two(n) { return (n < 10 ? "0" : "") + n; }
  function format(seconds) {
    if (seconds >= 86400) return Math.floor(seconds / 86400) + " d " + two(Math.floor(seconds % 86400 / 3600)) + " h";
    if (seconds >= 3600) return Math.floor(seconds / 3600) + ":" + two(Math.floor(seconds % 3600 / 60)) + ":" + two(seconds % 60);
    return Math.floor(seconds / 60) + ":" + two(seconds % 60);
  }
  setInterval(function () {
    var elapsed = Math.floor((Date.now() - countdownStarted) / 1000);
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      var left = Math.max(0, parseInt(el.getAttribute("data-countdown"), 10) - elapsed);
      el.textContent = format(left);
    });
  }, 1000);
  document.addEventListener("htmx:afterSwap", resetCountdowns);

  /* Your turn: title and favicon badge, and an optional sound (remembered on this device). */
  var baseTitle = document.title;
  var wasMyTurn = false;
  function soundWanted() {
    try { return localStorage.getItem("delve-turn-sound") === "on"; } catch (e) { return false; }
  }
  function beep() {
    try {
      var ctx = new (window.AudioContext || window.webkitAudioContext)();
      var osc = ctx.createOscillator(), gain = ctx.createGain();
      osc.frequency.value = 660; gain.gain.value = 0.08;
      osc.connect(gain); gain.connect(ctx.destination);
      osc.start(); osc.stop(ctx.currentTime + 0.18);
    } catch (e) { /* no audio: the title and favicon still say it */ }
  }
  function updateTurnBadge() {
    var g = game();
    var mine = !!(g && g.getAttribute("data-your-turn") === "true");
    document.title = (mine ? "▶ Your turn — " : "") + baseTitle;
    var icon = document.querySelector("link[rel=icon]");
    if (icon) {
      var href = icon.getAttribute("href").replace(/favicon(-turn)?\.svg/, mine ? "favicon-turn.svg" : "favicon.svg");
      icon.setAttribute("href", href);
    }
    if (mine && !wasMyTurn && soundWanted()) beep();
    wasMyTurn = mine;
  }
  document.addEventListener("DOMContentLoaded", function () {
    baseTitle = document.title;
    wasMyTurn = true;  // no sound for the turn the page opened on
    updateTurnBadge();
    var box = document.querySelector("[data-turn-sound]");
    if (box) {
      box.checked = soundWanted();
      box.addEventListener("change", function () {
        try { localStorage.setItem("delve-turn-sound", box.checked ? "on" : "off"); } catch (e) { /* private mode */ }
      });
    }
  });
  document.addEventListener("htmx:afterSwap", updateTurnBadge);
  document.addEventListener("DOMContentLoaded", connect);
})();
