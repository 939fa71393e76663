/* The site's theme: "system" (follow prefers-color-scheme, the CSS default), "light" or "dark".
   Loaded without defer in <head>: the first part runs before the page is painted, so a chosen
   theme is there from the first frame. The header's button cycles the choice. */
(function () {
  "use strict";
  var KEY = "delve-theme";
  var CHOICES = ["system", "light", "dark"];
  var ICONS = { system: "◐", light: "☀", dark: "☾" };
  var root = document.documentElement;

  function stored() {
    try {
      var value = window.localStorage.getItem(KEY);
      return CHOICES.indexOf(value) > 0 ? value : "system";
    } catch (error) {
      return "system"; // storage refused (privacy mode): the system decides
    }
  }

  function apply(choice) {
    if (choice === "system") root.removeAttribute("data-theme");
    else root.setAttribute("data-theme", choice);
  }

  function remember(choice) {
    try {
      if (choice === "system") window.localStorage.removeItem(KEY);
      else window.localStorage.setItem(KEY, choice);
    } catch (error) {
      /* not remembered; this page still switches */
    }
  }

  function show(button, choice) {
    button.querySelector(".theme-icon").textContent = ICONS[choice];
    button.querySelector(".theme-name").textContent = choice;
    button.title = "Switch the colour theme (system, light, dark)";
  }

  var current = stored();
  apply(current);

  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("theme-toggle");
    if (!button) return;
    show(button, current);
    button.hidden = false;
    button.addEventListener("click", function () {
      current = CHOICES[(CHOICES.indexOf(current) + 1) % CHOICES.length];
      remember(current);
      apply(current);
      show(button, current);
    });
    // Another tab changed the theme: follow it.
    window.addEventListener("storage", function (event) {
      if (event.key !== KEY && event.key !== null) return;
      current = stored();
      apply(current);
      show(button, current);
    });
  });
})();
