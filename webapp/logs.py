"""Structured logs: one line per request with a request id, and the same id on every log line
written while serving it. Seat tokens, cookies, CSRF tokens and query strings are never logged."""

from __future__ import annotations

import json
import logging
import re
import secrets
import time

from flask import Flask, g, has_request_context, request

REQUEST_ID_HEADER = "X-Request-ID"
SAFE_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
access_log = logging.getLogger("delve.access")


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = g.get("request_id", "-") if has_request_context() else "-"
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", "-"),
        }
        entry.update(getattr(record, "fields", {}))
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry, separators=(",", ":"))


def configure(level: str, fmt: str) -> None:
    handler = logging.StreamHandler()
    handler.addFilter(RequestIdFilter())
    if fmt == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"))
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "_delve", False)]:
        root.removeHandler(old)
    handler._delve = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level)


# python-socketio and python-engineio give their loggers a plain StreamHandler of their own (and
# the records propagate to ours too): every one of their lines came out twice, once not as JSON.
LIBRARY_LOGGERS = ("socketio.server", "engineio.server")


def adopt_library_loggers() -> None:
    """Route the Socket.IO libraries' records through Delve's handler only (call after
    ``socketio.init_app``, which adds their handlers): one line each, JSON in production."""
    for name in LIBRARY_LOGGERS:
        library = logging.getLogger(name)
        for handler in list(library.handlers):
            library.removeHandler(handler)
        library.propagate = True


def init_app(app: Flask) -> None:
    configure(app.config["LOG_LEVEL"], app.config["LOG_FORMAT"])

    @app.before_request
    def start_timer():
        incoming = request.headers.get(REQUEST_ID_HEADER, "")
        g.request_id = incoming if SAFE_REQUEST_ID.match(incoming) else secrets.token_hex(8)
        g.started = time.perf_counter()

    @app.after_request
    def log_request(response):
        response.headers[REQUEST_ID_HEADER] = g.get("request_id", "-")
        if request.path.startswith("/static/"):
            return response
        elapsed_ms = (time.perf_counter() - g.get("started", time.perf_counter())) * 1000
        access_log.info(
            "%s %s %s %.1fms",
            request.method,
            request.path,
            response.status_code,
            elapsed_ms,
            extra={
                "fields": {
                    "method": request.method,
                    "path": request.path,
                    "status": response.status_code,
                    "ms": round(elapsed_ms, 1),
                    "htmx": request.headers.get("HX-Request") == "true",
                }
            },
        )
        return response
