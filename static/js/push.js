/* The installable Delve and "your turn" notifications (webapp/domain/push.py).
   Every page registers the service worker (/sw.js: notifications, the offline page). A seat's table
   page shows "Notify me when it is my turn": only its click asks the browser for permission and
   subscribes with the server's VAPID key; "Stop notifications" deletes the subscription here and on
   the server. Nothing is asked on load. */
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  var registered = navigator.serviceWorker.register("/sw.js", { scope: "/" });
  registered.catch(function () { /* no worker (a private window, an old browser): the site works without it */ });

  function csrfToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRF-Token"] || ""; } catch (e) { return ""; }
  }
  function post(url, fields) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "X-CSRF-Token": csrfToken(), "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields)
    }).then(function (response) {
      if (!response.ok) throw new Error("the server refused: " + response.status);
    });
  }
  function keyBytes(base64url) {
    var padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(padded), bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function setUp(box) {
    var on = box.querySelector("[data-push-on]"), off = box.querySelector("[data-push-off]");
    var status = box.querySelector("[data-push-status]");
    function show(subscribed, sentence) {
      on.hidden = subscribed;
      off.hidden = !subscribed;
      if (sentence !== undefined) status.textContent = sentence;
    }
    box.hidden = false;
    registered.then(function (reg) { return reg.pushManager.getSubscription(); }).then(function (sub) {
      show(!!sub && Notification.permission === "granted");
    }).catch(function () { show(false); });

    on.addEventListener("click", function () {
      status.textContent = "Asking your browser…";
      Notification.requestPermission().then(function (permission) {
        if (permission !== "granted") {
          show(false, "Notifications are blocked for Delve in this browser's settings.");
          return null;
        }
        return navigator.serviceWorker.ready.then(function (reg) {
          return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(box.getAttribute("data-push-key")) });
        }).then(function (sub) {
          var json = sub.toJSON();
          return post("/push/subscription", { endpoint: json.endpoint, p256dh: json.keys.p256dh, auth: json.keys.auth });
        }).then(function () {
          show(true, "You will be notified when it is your turn and no page of this table is open.");
        });
      }).catch(function () {
        show(false, "This browser could not turn on notifications.");
      });
    });

    off.addEventListener("click", function () {
      registered.then(function (reg) { return reg.pushManager.getSubscription(); }).then(function (sub) {
        return sub ? sub.unsubscribe() : null;
      }).then(function () {
        return post("/push/subscription/delete", {});
      }).then(function () {
        show(false, "Notifications are off.");
      }).catch(function () {
        status.textContent = "Notifications could not be turned off; try again.";
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.querySelector("[data-push]");
    // Only a seat's own page (it carries the seat's presence ticket) and a browser with Web Push.
    if (!box || !document.querySelector("[data-presence]") || !("PushManager" in window) || !("Notification" in window)) return;
    setUp(box);
  });
})();
