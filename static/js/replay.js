/* The replay page's keys and autoplay: arrows step, Home/End jump, space plays or pauses; the
   slider jumps to a step. Each step is a link (it works without script); this only presses them. */
(function () {
  "use strict";
  var timer = null;
  var DELAY_MS = 1000;

  function press(id) {
    var link = document.getElementById(id);
    if (!link || link.getAttribute("aria-disabled") === "true") return false;
    link.click();
    return true;
  }
  function playButton() { return document.querySelector("[data-autoplay]"); }
  function speed() {
    var select = document.querySelector("[data-replay-speed]");
    var factor = select ? parseFloat(select.value) : 1;
    return DELAY_MS / (factor > 0 ? factor : 1);
  }
  function stop() {
    if (timer) clearTimeout(timer);
    timer = null;
    var button = playButton();
    if (button) { button.setAttribute("aria-pressed", "false"); button.textContent = "▶ Play"; }
  }
  function tick() {
    timer = setTimeout(function () {
      if (!press("replay-next")) { stop(); return; }
    }, speed());
  }
  function start() {
    var button = playButton();
    if (!button || button.disabled) return;
    button.setAttribute("aria-pressed", "true");
    button.textContent = "⏸ Pause";
    tick();
  }
  function playing() { return timer !== null; }

  /* Each step swaps the whole replay block: carry the player's speed and play state across. */
  var chosenSpeed = null;
  document.addEventListener("change", function (event) {
    if (event.target.matches && event.target.matches("[data-replay-speed]")) chosenSpeed = event.target.value;
    if (event.target.matches && event.target.matches("[data-replay-slider]")) {
      var slider = event.target;
      var url = new URL(slider.getAttribute("data-url"), window.location.href);
      url.searchParams.set("step", slider.value);
      htmx.ajax("GET", url.pathname + url.search, { target: "#replay", swap: "outerHTML" }).then(function () {
        history.pushState({}, "", url.pathname + url.search);
        var again = document.getElementById("replay-slider");
        if (again) again.focus();
      });
    }
  });
  /* A step replaces the controls too: keep keyboard focus on the control that had it. */
  var focusedId = null;
  document.addEventListener("htmx:beforeRequest", function () {
    var active = document.activeElement;
    focusedId = active && active.id && document.getElementById("replay") && document.getElementById("replay").contains(active) ? active.id : null;
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!event.target || event.target.id !== "replay") return;
    if (focusedId) {
      var again = document.getElementById(focusedId);
      if (again && again.getAttribute("aria-disabled") !== "true" && !again.disabled) again.focus();
      else if (document.getElementById("replay-counter")) document.getElementById("replay-previous").focus();
      focusedId = null;
    }
    var select = document.querySelector("[data-replay-speed]");
    if (select && chosenSpeed) select.value = chosenSpeed;
    if (playing()) {
      var button = playButton();
      if (!button || button.disabled) { stop(); return; }
      button.setAttribute("aria-pressed", "true");
      button.textContent = "⏸ Pause";
      tick();
    }
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-autoplay]") : null;
    if (!button) return;
    if (playing()) stop(); else start();
  });

  document.addEventListener("keydown", function (event) {
    if (!document.getElementById("replay")) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    var ids = { ArrowRight: "replay-next", ArrowLeft: "replay-previous", Home: "replay-first", End: "replay-last" };
    if (ids[event.key]) {
      event.preventDefault();
      stop();
      press(ids[event.key]);
    } else if (event.key === " " && !(target && /^(BUTTON|A)$/.test(target.tagName))) {
      event.preventDefault();
      if (playing()) stop(); else start();
    }
  });
})();
