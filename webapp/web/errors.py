"""Every error a person can meet gets a readable page, or a message in the page's flash area."""

from __future__ import annotations

import logging

from flask import Flask, request
from flask_limiter import RateLimitExceeded
from werkzeug.exceptions import HTTPException

from ..domain.service import Refused
from ..pages.rendering import refusal

log = logging.getLogger("delve.errors")

FRIENDLY = {
    400: "That request could not be understood.",
    403: "You cannot do that here.",
    404: "There is nothing at this address.",
    405: "That is not something you can do at this address.",
    409: "That conflicts with the current state of the game.",
    413: "That request is far larger than any of ours.",
    422: "The rules do not allow that now.",
    429: "That is too many requests at once. Wait a few seconds and try again.",
}


def init_app(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        status = error.code or 500
        description = error.description if error.description and error.description != type(error).description else None
        if isinstance(error, RateLimitExceeded):
            description = None  # Flask-Limiter's description is the limit itself ("20 per 1 second")
        return refusal(status, description or FRIENDLY.get(status, "Something went wrong."))

    @app.errorhandler(Refused)
    def refused(error: Refused):
        """What the rules or the table's state refuse, as the service said it."""
        return refusal(error.status, error.message)

    @app.errorhandler(Exception)
    def unexpected(error: Exception):
        log.exception("unhandled error on %s %s", request.method, request.path)
        return refusal(500, "Something went wrong on our side. The game is safe: reload the page to carry on.")
