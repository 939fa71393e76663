/* Hebrac's Dungeon: live sums under the card pickers (potions, gems, offers) and the chambers
   ticked on the map gathered into one JSON field (Stone Statue, the Genie of Death).
   The server checks everything again; without this script the pre-ticked choice still works. */
(function () {
  "use strict";

  var SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  function pretty(code) {
    var suit = code.slice(-1);
    return SYMBOLS[suit] ? code.slice(0, -1) + SYMBOLS[suit] : code;
  }

  /* The same sentences as the server's (_hd.html pay_text / scaled_text). */
  function payText(values, cards, target, noun) {
    if (!values.length) return "Choose cards worth " + target + " " + noun + ".";
    var total = values.reduce(function (a, b) { return a + b; }, 0);
    var least = Math.min.apply(null, values);
    if (total < target) return total + " of " + target + " " + noun + ": not enough.";
    if (total - least >= target) {
      return total + " " + noun + ": " + pretty(cards[values.indexOf(least)]) + " is not needed — no change is given.";
    }
    if (total > target) return total + " " + noun + " for " + target + ": enough (" + (total - target) + " lost, no change).";
    return total + " " + noun + ": exactly enough.";
  }

  function scaledText(total, per, cap, unit) {
    if (!total) return "Choose at least one magic potion.";
    var units = Math.min(Math.floor(total / per), cap);
    var lost = total - units * per;
    return total + " points: " + units + " " + unit + (units === 1 ? "" : "s") +
      (lost ? ", " + lost + " point" + (lost === 1 ? "" : "s") + " lost" : "") + ".";
  }

  function updatePicker(box) {
    var out = box.querySelector("[data-pay-out]");
    if (!out) return;
    var values = [], cards = [];
    box.querySelectorAll("input[type=checkbox][data-value]").forEach(function (input) {
      if (input.checked) { values.push(parseInt(input.getAttribute("data-value"), 10)); cards.push(input.value); }
    });
    var target = parseInt(box.getAttribute("data-target"), 10);
    if (box.hasAttribute("data-scaled")) {
      var total = values.reduce(function (a, b) { return a + b; }, 0);
      out.textContent = scaledText(total, parseInt(box.getAttribute("data-per"), 10),
        parseInt(box.getAttribute("data-cap"), 10), box.getAttribute("data-unit"));
    } else {
      out.textContent = payText(values, cards, target, box.getAttribute("data-noun"));
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
    if (out) {
      var count = out.getAttribute("data-count");
      out.textContent = out.closest(".aim-note") ? picks.length + " chosen." : picks.length + " of " + count + " chosen.";
    }
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

  function refresh() {
    document.querySelectorAll(".hd [data-pay]").forEach(updatePicker);
    document.querySelectorAll(".hd form").forEach(updatePicks);
  }
  document.addEventListener("DOMContentLoaded", refresh);
  document.addEventListener("htmx:afterSwap", refresh);
})();
