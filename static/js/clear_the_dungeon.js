/* Clear the Dungeon: pick a hand card and a monster (click, keyboard or drag), and a few short
   animations when the board changes. The server decides everything: the page lists every
   legal placement as a real submit button (the way to play without JavaScript), and a finished
   choice clicks the matching one, so what is posted is always a legal action's own JSON.

   Keys: 1–9 pick a hand card, the letter shown on a monster (or the arrow keys) picks it,
   Enter places, X doubles with the K♠, D ends the turn, Escape clears the choice. */
(function () {
  "use strict";

  document.documentElement.classList.add("ctd-js");

  var LETTERS = "abcefgijklmnopqrstuvwyz";
  var pick = { card: null, index: null, target: null, double: false, fatalArmed: false };
  var movesOpen = false;
  var reduceMotion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : { matches: true };

  function board() {
    var g = document.getElementById("game");
    return g && g.classList.contains("ctd") ? g : null;
  }
  function playable(g) { return g && g.querySelector("form.play .ctd-hand-card") !== null; }
  function handCards(g) { return Array.prototype.slice.call(g.querySelectorAll("button.ctd-hand-card")); }
  function monsters(g) { return Array.prototype.slice.call(g.querySelectorAll("button.ctd-monster[data-target]")); }
  function monsterOf(g, pos) { return g.querySelector('button.ctd-monster[data-target="' + pos + '"]'); }
  function cardName(el) { return el ? (el.getAttribute("aria-label") || "").split(",")[0] : ""; }
  function monsterName(g, pos) {
    var m = monsterOf(g, pos);
    return m ? (m.getAttribute("aria-label") || "").split(",")[0] : pos;
  }

  /* The legal placements, read from the plain list of buttons. */
  function placement(g, card, target, dbl) {
    var selector = 'button.ctd-play[data-card="' + card + '"][data-target="' + target + '"][data-double="' + (dbl ? 1 : 0) + '"]';
    return g.querySelector(selector);
  }
  function targetsFor(g, card, dbl) {
    var out = [];
    g.querySelectorAll('button.ctd-play[data-card="' + card + '"][data-double="' + (dbl ? 1 : 0) + '"]').forEach(function (b) {
      out.push(b.getAttribute("data-target"));
    });
    return out;
  }
  function cardsFor(g, target, dbl) {
    var out = [];
    g.querySelectorAll('button.ctd-play[data-target="' + target + '"][data-double="' + (dbl ? 1 : 0) + '"]').forEach(function (b) {
      out.push(b.getAttribute("data-card"));
    });
    return out;
  }

  function say(text, warn) {
    var g = board();
    var hint = g && document.getElementById("ctd-hint");
    if (!hint) return;
    hint.textContent = text;
    hint.classList.toggle("warn", !!warn);
  }

  /* The digit keys that pick a hand card, in words: "1" for a lone card, never "1–1". */
  function handKeys(g) {
    var count = Math.min(9, handCards(g).length);
    return count === 1 ? "key 1" : "1–" + count;
  }

  function defaultHint(g) {
    var count = handCards(g).length;
    if (!count) return "";
    var pick = count === 1 ? "Pick your card (" + handKeys(g) + ")" : "Pick a card (" + handKeys(g) + ")";
    return pick + ", then a monster that lights up (its letter, or the arrows) — click, or press Enter. D ends the turn.";
  }

  /* Show the current choice: pressed hand card, lit and refused monsters, the hint. */
  function render(message, warn) {
    var g = board();
    if (!g || !playable(g)) return;
    var toggle = document.getElementById("ctd-double");
    if (toggle) toggle.checked = pick.double;
    var legal = pick.card ? targetsFor(g, pick.card, pick.double) : [];
    var doubleOnly = pick.card && !pick.double ? targetsFor(g, pick.card, true) : [];
    handCards(g).forEach(function (b) {
      var chosen = pick.index !== null && b.getAttribute("data-index") === String(pick.index);
      b.setAttribute("aria-pressed", chosen ? "true" : "false");
      var fits = !pick.card && pick.target && cardsFor(g, pick.target, pick.double).indexOf(b.getAttribute("data-card")) >= 0;
      b.classList.toggle("is-fits", !!fits);
    });
    monsters(g).forEach(function (m) {
      var pos = m.getAttribute("data-target");
      var ok = legal.indexOf(pos) >= 0;
      m.classList.toggle("is-target", !!pick.card && ok);
      m.classList.toggle("is-refused", !!pick.card && !ok);
      m.classList.toggle("is-double-only", !!pick.card && !ok && doubleOnly.indexOf(pos) >= 0);
      m.classList.toggle("is-chosen", pick.target === pos);
      if (pick.card && !ok) m.setAttribute("aria-disabled", "true"); else m.removeAttribute("aria-disabled");
    });
    if (message) { say(message, warn); return; }
    if (pick.card) {
      var names = legal.map(function (pos) { return monsterName(g, pos) + " (" + keyOf(g, pos) + ")"; });
      var picked = cardName(g.querySelector('button.ctd-hand-card[aria-pressed="true"]'));
      if (!names.length) {
        say(picked + (pick.double ? " doubled" : "") + " fits no monster now" +
            (doubleOnly.length ? " — switch on the K♠ double (X) to place it." : ". Pick another card or end the turn."), true);
      } else if (pick.target && legal.indexOf(pick.target) >= 0) {
        say(picked + " on " + monsterName(g, pick.target) + ": press Enter or click the monster to place it.");
      } else {
        var more = doubleOnly.map(function (pos) { return monsterName(g, pos) + " (" + keyOf(g, pos) + ")"; });
        say(picked + (pick.double ? " doubled" : "") + " can go on: " + names.join(", ") + "." +
            (more.length ? " Doubled with the K♠ (X), also on: " + more.join(", ") + "." : ""));
      }
    } else if (pick.target) {
      var fit = cardsFor(g, pick.target, pick.double);
      say(monsterName(g, pick.target) + " chosen. " + (fit.length ? "Cards that fit are outlined in green; pick one (" + handKeys(g) + ")." : "No card in your hand fits it now."), !fit.length);
    } else {
      say(defaultHint(g));
    }
  }

  function keyOf(g, pos) {
    var m = monsterOf(g, pos);
    return m ? (m.getAttribute("data-ctd-key") || "").toUpperCase() : "";
  }

  function clearPick() {
    pick.card = null; pick.index = null; pick.target = null; pick.fatalArmed = false;
  }

  var posting = false;
  function place(g) {
    if (posting) return;
    var button = placement(g, pick.card, pick.target, pick.double);
    if (!button) {
      var extra = !pick.double && placement(g, pick.card, pick.target, true) ? " — only doubled with the K♠ (press X)." : ".";
      render("The " + monsterName(g, pick.target) + " cannot take that card now" + extra, true);
      return;
    }
    posting = true;
    say("Placing…");
    button.click();
  }

  function chooseCard(g, index) {
    var b = g.querySelector('button.ctd-hand-card[data-index="' + index + '"]');
    if (!b) return false;
    if (pick.index === index) { pick.card = null; pick.index = null; render(); return true; }
    pick.card = b.getAttribute("data-card");
    pick.index = index;
    if (pick.target && placement(g, pick.card, pick.target, pick.double)) { place(g); return true; }
    pick.target = null;
    render();
    return true;
  }

  function chooseTarget(g, pos, fromClick) {
    if (!monsterOf(g, pos)) return;
    if (pick.card) {
      if (placement(g, pick.card, pos, pick.double)) {
        pick.target = pos;
        if (fromClick) { place(g); return; }
        render();
        return;
      }
      var doubleOnly = !pick.double && placement(g, pick.card, pos, true);
      var extra = doubleOnly ? " — only doubled with the K♠ (press X)." : ". Only the monsters that light up accept it.";
      pick.target = doubleOnly && !fromClick ? pos : null;   // X then Enter still places it
      render("The " + monsterName(g, pos) + " cannot take the " + cardName(g.querySelector('button.ctd-hand-card[aria-pressed="true"]')) + extra, true);
      return;
    }
    pick.target = pick.target === pos ? null : pos;
    render();
  }

  function endTurn(g) {
    var button = document.getElementById("ctd-end-turn");
    if (!button) return;
    if (button.getAttribute("data-fatal") === "1" && !pick.fatalArmed) {
      pick.fatalArmed = true;
      button.focus();
      render("Ending the turn now is the fifth hit: you would lose. Press D again (or the button) to do it anyway.", true);
      return;
    }
    button.click();
  }

  function toggleDouble(g) {
    var toggle = document.getElementById("ctd-double");
    if (!toggle) return;
    pick.double = !pick.double;
    if (pick.target && pick.card && !placement(g, pick.card, pick.target, pick.double)) pick.target = null;
    render();
  }

  function cycle(g, step) {
    var all = monsters(g).map(function (m) { return m.getAttribute("data-target"); });
    if (!all.length) return;
    var legal = pick.card ? targetsFor(g, pick.card, pick.double) : [];
    var ring = legal.length ? all.filter(function (p) { return legal.indexOf(p) >= 0; }) : all;
    var at = ring.indexOf(pick.target);
    var next = ring[(at + step + ring.length) % ring.length];
    if (at < 0) next = step > 0 ? ring[0] : ring[ring.length - 1];
    pick.target = next;
    var m = monsterOf(g, next);
    if (m) m.focus();
    render();
  }

  /* Clicks: a hand card, then a monster (or the other way round). */
  document.addEventListener("click", function (event) {
    var g = board();
    if (!g || !playable(g) || !event.target.closest) return;
    var hand = event.target.closest("button.ctd-hand-card");
    if (hand && g.contains(hand)) {
      chooseCard(g, parseInt(hand.getAttribute("data-index"), 10));
      return;
    }
    var monster = event.target.closest("button.ctd-monster");
    if (monster && g.contains(monster)) {
      chooseTarget(g, monster.getAttribute("data-target"), true);
    }
  });
  document.addEventListener("change", function (event) {
    var g = board();
    if (g && event.target && event.target.id === "ctd-double") {
      pick.double = event.target.checked;
      render();
    }
  });
  document.addEventListener("toggle", function (event) {
    if (event.target && event.target.id === "ctd-moves") movesOpen = event.target.open;
  }, true);

  /* Keyboard */
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var g = board();
    if (!g || !playable(g)) return;
    var t = event.target;
    if (t && (t.isContentEditable || t.tagName === "TEXTAREA" || t.tagName === "SELECT" ||
              (t.tagName === "INPUT" && t.type !== "checkbox"))) return;
    var key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    if (/^[1-9]$/.test(key)) {
      if (chooseCard(g, parseInt(key, 10))) {
        event.preventDefault();
        var b = g.querySelector('button.ctd-hand-card[data-index="' + key + '"]');
        if (b && !posting) b.focus();
      }
    } else if (key.length === 1 && LETTERS.indexOf(key) >= 0) {
      var m = g.querySelector('button.ctd-monster[data-ctd-key="' + key + '"]');
      if (!m) return;
      event.preventDefault();
      chooseTarget(g, m.getAttribute("data-target"), false);
      m.focus();
    } else if (key === "ArrowRight" || key === "ArrowDown") {
      event.preventDefault(); cycle(g, 1);
    } else if (key === "ArrowLeft" || key === "ArrowUp") {
      event.preventDefault(); cycle(g, -1);
    } else if (key === "Enter") {
      var focusOwn = !t || t === document.body || (t.closest && t.closest(".ctd-hand-card, .ctd-monster"));
      if (pick.card && pick.target && focusOwn) { event.preventDefault(); place(g); }
      else if (t && t.getAttribute && t.getAttribute("aria-pressed") === "true") event.preventDefault();  // keep the pick
    } else if (key === "d") {
      event.preventDefault(); endTurn(g);
    } else if (key === "x") {
      event.preventDefault(); toggleDouble(g);
    } else if (key === "Escape") {
      clearPick(); render();
    }
  });

  /* Drag a hand card onto a monster (on top of clicking, never instead). */
  document.addEventListener("dragstart", function (event) {
    var g = board();
    var hand = g && event.target.closest && event.target.closest("button.ctd-hand-card");
    if (!hand) return;
    pick.card = hand.getAttribute("data-card");
    pick.index = parseInt(hand.getAttribute("data-index"), 10);
    pick.target = null;
    hand.classList.add("is-dragging");
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData("text/plain", pick.card);
    render();
  });
  document.addEventListener("dragend", function (event) {
    if (event.target.classList) event.target.classList.remove("is-dragging");
  });
  function dropTarget(event) {
    var g = board();
    var m = g && pick.card && event.target.closest && event.target.closest("button.ctd-monster");
    return m && placement(g, pick.card, m.getAttribute("data-target"), pick.double) ? m : null;
  }
  document.addEventListener("dragover", function (event) {
    var m = dropTarget(event);
    if (m) { event.preventDefault(); event.dataTransfer.dropEffect = "move"; m.classList.add("is-drop"); }
  });
  document.addEventListener("dragleave", function (event) {
    var m = event.target.closest && event.target.closest("button.ctd-monster");
    if (m) m.classList.remove("is-drop");
  });
  document.addEventListener("drop", function (event) {
    var m = dropTarget(event);
    if (!m) return;
    event.preventDefault();
    pick.target = m.getAttribute("data-target");
    place(board());
  });

  /* ---- Animations: compare the board before and after each swap ---- */
  var before = null;

  function rectOf(el) { var r = el.getBoundingClientRect(); return { x: r.left, y: r.top, w: r.width, h: r.height }; }

  function snapshot(g) {
    var snap = { slots: {}, hand: [], hits: [], deck: null, attack: {} };
    g.querySelectorAll(".ctd-slot").forEach(function (slot) {
      var face = slot.firstElementChild;
      snap.slots[slot.getAttribute("data-pos")] = {
        state: slot.getAttribute("data-state"), rect: rectOf(slot), node: face ? face.cloneNode(true) : null,
      };
    });
    g.querySelectorAll(".ctd-hand .ctd-hand-card").forEach(function (el) {
      snap.hand.push({ card: el.getAttribute("data-card"), rect: rectOf(el.querySelector(".card") || el) });
    });
    g.querySelectorAll(".ctd-hits [data-card]").forEach(function (el) { snap.hits.push(el.getAttribute("data-card")); });
    g.querySelectorAll("[data-attack-card]").forEach(function (el) { snap.attack[el.getAttribute("data-attack-card")] = true; });
    var deck = document.getElementById("ctd-deck");
    snap.deck = deck ? rectOf(deck) : null;
    snap.hitCount = snap.hits.length;
    return snap;
  }

  function flyFrom(el, from) {
    if (!el || !from || !el.animate) return;
    var to = rectOf(el);
    var dx = from.x + from.w / 2 - (to.x + to.w / 2);
    var dy = from.y + from.h / 2 - (to.y + to.h / 2);
    var scale = from.w && to.w ? from.w / to.w : 1;
    el.animate(
      [{ transform: "translate(" + dx + "px," + dy + "px) scale(" + scale + ")", zIndex: 50 }, { transform: "none", zIndex: 50 }],
      { duration: 420, easing: "cubic-bezier(.2,.7,.2,1)" }
    );
  }

  function takeFromHand(list, card) {
    for (var i = 0; i < list.length; i++) {
      if (list[i].card === card) return list.splice(i, 1)[0];
    }
    return null;
  }

  function animate(g, old) {
    if (reduceMotion.matches) return;
    var hand = old.hand.slice();
    var jokerSources = [];
    Object.keys(old.slots).forEach(function (pos) {
      var was = old.slots[pos];
      var slot = g.querySelector('.ctd-slot[data-pos="' + pos + '"]');
      if (!slot) return;
      var now = slot.getAttribute("data-state");
      if (was.state === "hidden" && now === "monster") {
        var face = slot.querySelector(".ctd-monster");
        if (face) face.classList.add("ctd-revealed");
      } else if (was.state === "monster" && now === "empty" && was.node) {
        var ghost = was.node;
        ["id", "data-target", "data-ctd-key", "aria-keyshortcuts", "aria-disabled"].forEach(function (name) { ghost.removeAttribute(name); });
        ghost.setAttribute("aria-hidden", "true");
        ghost.setAttribute("tabindex", "-1");
        ghost.setAttribute("inert", "");
        ghost.classList.add("ctd-ghost");
        ghost.classList.remove("is-target", "is-chosen", "is-refused");
        slot.classList.add("has-ghost");
        slot.appendChild(ghost);
        var remove = function () { if (ghost.parentNode) ghost.parentNode.removeChild(ghost); };
        ghost.addEventListener("animationend", remove);
        setTimeout(remove, 1200);
      } else if (was.state === "hidden" && now === "empty") {
        jokerSources.push(was.rect);   // a joker found here went to the hand
      }
    });
    // Cards now lying on monsters: fly from where they were in the hand.
    g.querySelectorAll("[data-attack-card]").forEach(function (el) {
      var code = el.getAttribute("data-attack-card");
      if (old.attack[code]) return;
      var from = takeFromHand(hand, code);
      if (from) flyFrom(el, from.rect);
    });
    // New hits: from the hand to the hit row, with a red flash.
    var hitEls = g.querySelectorAll(".ctd-hits [data-card]");
    for (var i = old.hitCount; i < hitEls.length; i++) {
      var code = hitEls[i].getAttribute("data-card");
      var from = takeFromHand(hand, code);
      hitEls[i].parentNode.classList.add("ctd-hit-new");
      if (from) flyFrom(hitEls[i], from.rect);
    }
    if (hitEls.length > old.hitCount) {
      var counter = document.getElementById("ctd-hits");
      if (counter) counter.classList.add("ctd-pulse");
    }
    // Hand cards: kept ones slide, jokers fly in from the dungeon, drawn ones come from the deck.
    var oldHand = old.hand.slice();
    g.querySelectorAll(".ctd-hand .ctd-hand-card").forEach(function (el) {
      var code = el.getAttribute("data-card");
      var card = el.querySelector(".card") || el;
      var kept = takeFromHand(oldHand, code);
      if (kept) { flyFrom(card, kept.rect); return; }
      if (code === "JK" && jokerSources.length) { flyFrom(card, jokerSources.shift()); return; }
      if (old.deck) flyFrom(card, old.deck);
    });
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var g = board();
    if (g && event.detail && event.detail.target === g) before = snapshot(g);
  });
  var shownRevision = null;
  document.addEventListener("htmx:afterSwap", function () {
    var g = board();
    if (!g) return;
    posting = false;
    // A new moment of the game starts a new pick; the same board swapped in again (a pushed
    // copy of what the page shows) keeps the one just made.
    var revision = g.getAttribute("data-revision");
    if (revision !== shownRevision) {
      clearPick();
      pick.double = false;
    }
    shownRevision = revision;
    var moves = document.getElementById("ctd-moves");
    if (moves) moves.open = movesOpen;
    render();
  });
  document.addEventListener("htmx:afterSettle", function () {
    var g = board();
    if (!g) return;
    // htmx settles the class of elements that kept their id (the old class for a moment, then
    // the new one): a pick made in that moment is drawn again.
    if (pick.card || pick.target) render();
    if (!before) return;
    var old = before;
    before = null;
    animate(g, old);
  });
  document.addEventListener("htmx:responseError", function () { posting = false; });
  document.addEventListener("htmx:sendError", function () { posting = false; });

  /* Narrow screens dock the hand at the foot of the screen (clear_the_dungeon.css), where it
     would hide the dungeon's lowest face-up monsters: the very cards a game opens with, the only
     ones to play on. A page opened at its top is scrolled just enough to show them above the
     dock; the face-down rows above give way. A page the browser put back where it was is left. */
  var DOCK_CLEARANCE = 14; // px: room for a lit monster's outline and glow above the dock
  function showMonstersAboveDock(g) {
    var dock = g.querySelector(".ctd-hand-panel");
    if (!dock || window.scrollY > 0 || getComputedStyle(dock).position !== "sticky") return;
    var faceUp = g.querySelectorAll(".ctd-dungeon .ctd-monster");
    if (!faceUp.length) return;
    var lowest = 0;
    var highest = Infinity;
    faceUp.forEach(function (m) {
      var box = m.getBoundingClientRect();
      lowest = Math.max(lowest, box.bottom);
      highest = Math.min(highest, box.top);
    });
    var dockTop = window.innerHeight - dock.getBoundingClientRect().height;
    var needed = lowest + DOCK_CLEARANCE - dockTop;
    // Never so far that the highest face-up monster leaves the top of the screen.
    var by = Math.min(needed, highest - DOCK_CLEARANCE);
    if (by > 0) window.scrollBy(0, by);
  }

  function init() {
    var g = board();
    if (!g) return;
    var moves = document.getElementById("ctd-moves");
    if (moves) moves.open = false;
    render();
    showMonstersAboveDock(g);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
