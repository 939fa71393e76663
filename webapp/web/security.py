"""CSRF tokens and response headers.

Every POST carries the session's CSRF token (a hidden form field, or the ``X-CSRF-Token``
header htmx sends); the token lives in Flask's signed session cookie."""

from __future__ import annotations

import hmac
import secrets

from flask import Flask, Response, abort, current_app, request, session

CSRF_FIELD = "csrf_token"
CSRF_HEADER = "X-CSRF-Token"

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        # The service worker (/sw.js) and the web app manifest (static/manifest.webmanifest).
        "worker-src 'self'",
        "manifest-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


def csrf_token() -> str:
    token = session.get(CSRF_FIELD)
    if not token:
        token = secrets.token_urlsafe(32)
        session[CSRF_FIELD] = token
    return token


def check_csrf() -> None:
    expected = session.get(CSRF_FIELD)
    presented = request.headers.get(CSRF_HEADER) or request.form.get(CSRF_FIELD, "")
    if not expected or not presented or not hmac.compare_digest(str(expected), str(presented)):
        abort(400, description="This form has expired or did not come from Delve. Reload the page and try again.")


def secure_headers(response: Response) -> Response:
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
    response.headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
    # Nothing of Delve is meant to be loaded by another site (pages, fragments, scripts, styles).
    response.headers.setdefault("Cross-Origin-Resource-Policy", "same-origin")
    if current_app.config.get("SESSION_COOKIE_SECURE"):
        response.headers.setdefault("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
    return response


def init_app(app: Flask) -> None:
    app.after_request(secure_headers)
    app.jinja_env.globals["csrf_token"] = csrf_token
