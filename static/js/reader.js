/* Screen-reader mode's page script (templates/reader_game.html): the grid walked with the keys,
   the log's new lines announced once each, and the command box kept ready. Without it the page
   still works: buttons and the command form post, and each reload shows the whole log. */
(function () {
  "use strict";

  /* The grid: a roving tabindex. Arrows move a cell, Home / End to the row's ends, Page Up /
     Page Down to the first / last row, Ctrl+Home / Ctrl+End to the first / last cell, Y to the
     seat's own cell. */
  function cellAt(grid, row, column) {
    var r = grid.rows[Math.max(0, Math.min(grid.rows.length - 1, row))];
    return r.cells[Math.max(0, Math.min(r.cells.length - 1, column))];
  }
  function moveTo(grid, cell) {
    grid.querySelectorAll('[role="gridcell"][tabindex="0"]').forEach(function (c) { c.setAttribute("tabindex", "-1"); });
    cell.setAttribute("tabindex", "0");
    cell.focus();
  }
  document.addEventListener("keydown", function (event) {
    var cell = event.target && event.target.closest ? event.target.closest('[role="gridcell"]') : null;
    var grid = cell ? cell.closest('[role="grid"]') : null;
    if (!grid || event.altKey || event.metaKey) return;
    var row = cell.parentElement.rowIndex, column = cell.cellIndex;
    var last = grid.rows.length - 1;
    var target = null;
    switch (event.key) {
      case "ArrowUp": target = cellAt(grid, row - 1, column); break;
      case "ArrowDown": target = cellAt(grid, row + 1, column); break;
      case "ArrowLeft": target = cellAt(grid, row, column - 1); break;
      case "ArrowRight": target = cellAt(grid, row, column + 1); break;
      case "Home": target = event.ctrlKey ? cellAt(grid, 0, 0) : cellAt(grid, row, 0); break;
      case "End": target = event.ctrlKey ? cellAt(grid, last, 1e6) : cellAt(grid, row, 1e6); break;
      case "PageUp": target = cellAt(grid, 0, column); break;
      case "PageDown": target = cellAt(grid, last, column); break;
      case "y": case "Y":
        var you = (grid.getAttribute("data-you") || "").split(",");
        if (you.length === 2) target = cellAt(grid, parseInt(you[0], 10), parseInt(you[1], 10));
        break;
      default: return;
    }
    event.preventDefault();
    event.stopPropagation();  /* the page's own shortcuts (delve.js) do not see the grid's keys */
    if (target) moveTo(grid, target);
  }, true);

  /* The log: each board (an answer or a push) carries its last lines in #reader-feed, each keyed
     by its log seq and its place among that seq's lines (one Dungeon of Doom step logs several
     lines under one seq); the ones past the newest key the Log holds are added, in order, once
     each — a push and an answer that bring the same line add it once. A log whose newest key
     went back (an undo) is redrawn from the feed without announcing it again. */
  function keyOf(line) {
    return [parseInt(line.getAttribute("data-seq"), 10), parseInt(line.getAttribute("data-part"), 10)];
  }
  function isAfter(key, other) {
    return other === null || key[0] > other[0] || (key[0] === other[0] && key[1] > other[1]);
  }
  function newestShown(log) {
    var items = log.querySelectorAll("li[data-seq]");
    return items.length ? keyOf(items[items.length - 1]) : null;
  }
  function followFeed() {
    var feed = document.getElementById("reader-feed");
    var log = document.getElementById("reader-log");
    var region = document.getElementById("reader-log-region");
    if (!feed || !log || !region) return;
    var lines = feed.querySelectorAll("[data-seq]");
    if (!lines.length) return;
    var shown = newestShown(log);
    if (shown !== null && isAfter(shown, keyOf(lines[lines.length - 1]))) {
      region.setAttribute("aria-live", "off");
      log.innerHTML = "";
      shown = null;
      setTimeout(function () { region.setAttribute("aria-live", "polite"); }, 0);
    }
    lines.forEach(function (line) {
      var key = keyOf(line);
      if (!isAfter(key, shown)) return;
      var item = document.createElement("li");
      item.setAttribute("data-seq", String(key[0]));
      item.setAttribute("data-part", String(key[1]));
      item.textContent = line.textContent;
      log.appendChild(item);
      shown = key;
    });
    region.scrollTop = region.scrollHeight;
  }
  document.addEventListener("htmx:afterSwap", followFeed);
  document.addEventListener("htmx:afterSettle", followFeed);
  document.addEventListener("htmx:oobAfterSwap", followFeed);

  /* The command box: emptied once its command was answered, unless the player typed in it
     meanwhile (even the same words again: a second "move e" typed while the first is on its way
     must not be wiped), and keeps the focus. */
  var typedSinceSent = false;
  function isCommand(event) {
    var form = event.detail && event.detail.elt;
    return !!(form && form.id === "command-form");
  }
  document.addEventListener("input", function (event) {
    if (event.target && event.target.id === "command") typedSinceSent = true;
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (isCommand(event)) typedSinceSent = false;
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var box = document.getElementById("command");
    if (!isCommand(event) || !box) return;
    if (!typedSinceSent && event.detail.xhr && event.detail.xhr.status < 500) box.value = "";
    box.focus();
  });
})();
