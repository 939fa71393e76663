/* Hebrac's Dungeon: the chambers ticked on the map gathered into one JSON field (Stone Statue, the
   Genie of Death). The sentence under a card picker is the server's (the picker asks for it with
   htmx as the ticks change). The server checks everything again; without this script the
   pre-ticked choice still works. */
(function () {
  "use strict";

  /* Fills a sentence's {blanks} (the chambers ticked on the map). */
  function fill(text, blanks) {
    return text.replace(/\{(\w+)\}/g, function (whole, name) { return name in blanks ? blanks[name] : whole; });
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
    document.querySelectorAll(".hd form").forEach(updatePicks);
  }
  document.addEventListener("DOMContentLoaded", refresh);
  document.addEventListener("htmx:afterSwap", refresh);
})();
