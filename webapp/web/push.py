"""'Your turn' notifications and the installable app: the service worker at the site's root, and
a browser's push subscription kept or deleted (``domain/push.py`` says who is told, and when).

The subscription is this browser's (its id cookie, made here if it has none yet), so it reaches
every seat the browser holds; the page posts it only after its "Notify me when it is my turn"
button was pressed and the browser granted notifications (``static/js/push.js``)."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Flask, Response, abort, current_app, request

from ..config import ConfigError
from ..domain import push
from .context import browser_key, store
from .limits import JOIN, limiter
from .security import check_csrf

bp = Blueprint("push", __name__)


def pushes() -> push.TurnPushes:
    return current_app.extensions["delve_push"]


@bp.get("/sw.js")
def service_worker():
    """The service worker, served from the root so that its scope is the whole site; never cached
    on the way (a new version must reach browsers at their next visit)."""
    source = Path(current_app.static_folder or "", "sw.js").read_bytes()
    return Response(source, content_type="text/javascript; charset=utf-8", headers={"Cache-Control": "no-cache"})


@bp.post("/push/subscription")
@limiter.limit(JOIN)
def subscribe():
    """Keep this browser's push subscription (the fields of ``PushSubscription.toJSON()``)."""
    check_csrf()
    try:
        subscription = push.checked_subscription(
            request.form.get("endpoint", ""),
            request.form.get("p256dh", ""),
            request.form.get("auth", ""),
            allow_local=current_app.config.get("PUSH_ALLOW_LOCAL_ENDPOINTS", False),
        )
    except push.BadSubscription as error:
        abort(400, description=f"That push subscription cannot be used: {error}.")
    pushes().subscribe(browser_key(create=True) or "", subscription)
    return "", 204


@bp.post("/push/subscription/delete")
@limiter.limit(JOIN)
def unsubscribe():
    """Delete this browser's push subscription ("Stop notifications")."""
    check_csrf()
    key = browser_key()
    if key is not None:
        push.unsubscribe(store(), key)
    return "", 204


def init_app(app: Flask) -> push.TurnPushes:
    """The app's sender of turn pushes; pages get the public key to subscribe with."""
    sender = app.extensions["delve_push"] = push.TurnPushes(
        app.extensions["delve_store"],
        private_key=app.config.get("VAPID_PRIVATE_KEY"),
        subject=app.config.get("VAPID_SUBJECT") or push.DEFAULT_SUBJECT,
    )
    if sender.configured:
        try:
            sender.vapid()  # a VAPID_PRIVATE_KEY that cannot be read stops the start, not the first push
        except (ValueError, TypeError) as error:
            raise ConfigError(
                f"VAPID_PRIVATE_KEY cannot be read as a P-256 private key ({type(error).__name__})"
            ) from None
    app.register_blueprint(bp)
    app.add_template_global(sender.public_key, "push_public_key")
    return sender
