/* Hebrac's Dungeon: live sums under the card pickers (potions, gems, offers) and the chambers
   ticked on the map gathered into one JSON field (Stone Statue, the Genie of Death).
   The server checks everything again; without this script the pre-ticked choice still works. */
(function () {
  "use strict";

  /* The sentences come with the page (data-say, made by the server's presenter): this script only
     chooses the one that fits the ticked cards and fills in its {blanks}. */
  function fill(text, blanks) {
    return text.replace(/\{(\w+)\}/g, function (whole, name) { return name in blanks ? blanks[name] : whole; });
  }

  /* Which sentence fits the ticked cards: at least the price, no superfluous card, no change (rules 9.3).
     The rule is the engine's (trade.payment_case, which the presenter uses for the page as first
     drawn); this mirror answers a tick without a round trip, and e2e/test_hebracs_payment_mirror.py
     holds it to the engine's answers. */
  function payCase(values, target) {
    var total = values.reduce(function (a, b) { return a + b; }, 0);
    if (!values.length) return "none";
    if (total < target) return "short";
    if (total - Math.min.apply(null, values) >= target) return "spare";
    return total > target ? "over" : "exact";
  }

  function payText(say, values, cards, target) {
    var total = values.reduce(function (a, b) { return a + b; }, 0);
    var spare = cards[values.indexOf(Math.min.apply(null, values))];
    return fill(say[payCase(values, target)], { total: total, lost: total - target, spare: say.names[spare] || spare });
  }

  /* A scaled spell buys whole steps of `per` points, at most `cap` of them: the engine's
     spells.scaled_units, mirrored like payCase (and held to it by the same test). */
  function scaledText(say, total, per, cap) {
    if (!total) return say.none;
    var units = Math.min(Math.floor(total / per), cap);
    var lost = total - units * per;
    return fill(say.sentence, {
      total: total,
      units: fill(say[units === 1 ? "units_one" : "units_other"], { units: units }),
      lost: lost ? fill(say[lost === 1 ? "lost_one" : "lost_other"], { lost: lost }) : ""
    });
  }

  function updatePicker(box) {
    var out = box.querySelector("[data-pay-out]");
    if (!out) return;
    var say = JSON.parse(out.getAttribute("data-say"));
    var values = [], cards = [];
    box.querySelectorAll("input[type=checkbox][data-value]").forEach(function (input) {
      if (input.checked) { values.push(parseInt(input.getAttribute("data-value"), 10)); cards.push(input.value); }
    });
    var target = parseInt(box.getAttribute("data-target"), 10);
    if (box.hasAttribute("data-scaled")) {
      var total = values.reduce(function (a, b) { return a + b; }, 0);
      out.textContent = scaledText(say, total, parseInt(box.getAttribute("data-per"), 10),
        parseInt(box.getAttribute("data-cap"), 10));
    } else {
      out.textContent = payText(say, values, cards, target);
    }
  }

  /* Chambers ticked on the map (controls joined to a form with form="…") become j_targets. */
  function updatePicks(form) {
    var field = form.querySelector("input[data-picks]");
    if (!field) return;
    var picks = [];
    Array.prototype.forEach.call(form.elements, function (el) {
      if (el.hasAttribute("data-pick") && el.checked) picks.push(JSON.parse(el.value));
    });
    field.value = JSON.stringify(picks);
    var out = form.querySelector("[data-pick-out]");
    if (out) out.textContent = fill(out.getAttribute("data-say"), { n: picks.length });
  }

  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!input || !input.form) return;
    var box = input.closest("[data-pay]");
    if (box) updatePicker(box);
    if (input.hasAttribute("data-pick")) updatePicks(input.form);
  });

  /* A spell aimed at the map asks for its target before anything is sent (the server would
     refuse it too, in plainer engine words). */
  document.addEventListener("htmx:confirm", function (event) {
    var form = event.target;
    var needs = form && form.getAttribute && form.getAttribute("data-needs");
    var trigger = event.detail && event.detail.triggeringEvent;
    var submitter = trigger && trigger.submitter;
    if (!needs || !submitter || submitter.name !== "compose") return;
    var message = "";
    if (needs === "target") {
      var chosen = Array.prototype.some.call(form.elements, function (el) { return el.name === "j_target" && el.checked; });
      if (!chosen) message = "Choose the chamber on the map first.";
    } else if (needs === "picks") {
      var field = form.querySelector("input[data-picks]");
      if (field && field.value === "[]") message = "Tick the chambers on the map first.";
    }
    var box = form.querySelector("[data-need-msg]");
    if (box) box.textContent = message;
    if (message) event.preventDefault();
  });

  /* The spell book's fold of spells that cannot be cast now stays open or shut as the player
     left it when the next board comes in. */
  var othersOpen = null;
  document.addEventListener("htmx:beforeSwap", function () {
    var fold = document.getElementById("spells-others");
    othersOpen = fold ? fold.open : null;
  });
  document.addEventListener("htmx:afterSwap", function () {
    var fold = document.getElementById("spells-others");
    if (fold && othersOpen) fold.open = true;
  });

  function refresh() {
    document.querySelectorAll(".hd [data-pay]").forEach(updatePicker);
    document.querySelectorAll(".hd form").forEach(updatePicks);
  }
  document.addEventListener("DOMContentLoaded", refresh);
  document.addEventListener("htmx:afterSwap", refresh);
})();
