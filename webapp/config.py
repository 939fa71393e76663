"""Configuration from environment variables, in one place (and ``async_mode``: how this process runs).

Every variable, its meaning and its default: the README's "Configuration" table (kept there, in
one place, for operators). ``from_environment`` reads them; a bad value raises ``ConfigError``
with a readable, secrets-free message.
"""

from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

PROJECT_ROOT = Path(__file__).resolve().parent.parent
INSTANCE_DIR = Path(os.environ.get("DELVE_INSTANCE_DIR", PROJECT_ROOT / "instance"))


class ConfigError(RuntimeError):
    """The configuration cannot work; the message says what to set."""


def _flag(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    return raw.strip().lower() in {"1", "true", "yes", "on"}


def _development_secret_key() -> str:
    INSTANCE_DIR.mkdir(parents=True, exist_ok=True)
    path = INSTANCE_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(48))
        path.chmod(0o600)
    return path.read_text().strip()


def redacted(url: str) -> str:
    """A URL fit for an error message or a log line: any password replaced by ``***``.

    >>> redacted("redis://:hunter2@cache:6379/0")
    'redis://:***@cache:6379/0'
    """
    parts = urlsplit(url)
    if parts.password is None:
        return url
    userinfo, _, hostinfo = parts.netloc.rpartition("@")
    user = userinfo.split(":", 1)[0]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{hostinfo}"))


def check_redis_url(url: str) -> None:
    """Parse REDIS_URL now, the way redis-py will: a typo must stop the start, not surface as the
    first failed push between processes (only a log line; play itself goes on without Redis)."""
    from redis.connection import parse_url

    try:
        parse_url(url)
    except ValueError as error:
        raise ConfigError(
            f"REDIS_URL is malformed ({error}): expected redis://host:port/db, not {redacted(url)!r}"
        ) from None


def classic_ports(raw: str | None) -> tuple[int, int] | None:
    """CLASSIC_PORTS ("9100-9199", or one port "9100") as (first, last); None when unset (the
    classic gateway is off)."""
    raw = (raw or "").strip()
    if not raw:
        return None
    first, _, last = raw.partition("-")
    try:
        low, high = int(first), int(last or first)
    except ValueError:
        raise ConfigError(f"CLASSIC_PORTS must be a port range like 9100-9199, not {raw!r}") from None
    if not 1 <= low <= high <= 65535:
        raise ConfigError(f"CLASSIC_PORTS must be a port range like 9100-9199 within 1-65535, not {raw!r}")
    return low, high


def from_environment() -> dict:
    """The Flask config mapping the environment asks for; raises ConfigError if it cannot work."""
    env = os.environ.get("DELVE_ENV", "development").strip().lower()
    if env not in {"development", "production"}:
        raise ConfigError(f"DELVE_ENV must be 'development' or 'production', not {env!r}")
    production = env == "production"
    secret = os.environ.get("SECRET_KEY", "")
    if not secret:
        if production:
            raise ConfigError(
                "SECRET_KEY must be set when DELVE_ENV=production "
                "(e.g. `python -c 'import secrets; print(secrets.token_urlsafe(48))'`)"
            )
        secret = _development_secret_key()
    test_options = _flag("DELVE_TEST_OPTIONS", False)
    if test_options and production:
        raise ConfigError("DELVE_TEST_OPTIONS lets players force dice and positions: never set it in production")
    database_url = os.environ.get("DATABASE_URL") or f"sqlite:///{INSTANCE_DIR / 'delve.sqlite3'}"
    if database_url.startswith("postgres://"):
        database_url = "postgresql+psycopg://" + database_url.removeprefix("postgres://")
    elif database_url.startswith("postgresql://"):
        database_url = "postgresql+psycopg://" + database_url.removeprefix("postgresql://")
    redis_url = os.environ.get("REDIS_URL") or os.environ.get("SOCKETIO_MESSAGE_QUEUE") or None
    if redis_url:
        check_redis_url(redis_url)
    try:
        trusted_proxies = int(os.environ.get("TRUSTED_PROXIES", "0") or 0)
    except ValueError:
        raise ConfigError("TRUSTED_PROXIES must be a whole number (how many proxies stand in front)") from None
    try:
        sockets_per_address = int(os.environ.get("SOCKETS_PER_ADDRESS", "50") or 0)
    except ValueError:
        raise ConfigError("SOCKETS_PER_ADDRESS must be a whole number (0: no cap)") from None
    try:
        classic_per_address = int(os.environ.get("CLASSIC_CONNECTIONS_PER_ADDRESS", "8") or 0)
    except ValueError:
        raise ConfigError("CLASSIC_CONNECTIONS_PER_ADDRESS must be a whole number (0: no cap)") from None
    try:
        classic_tables_per_address = int(os.environ.get("CLASSIC_TABLES_PER_ADDRESS", "2") or 0)
    except ValueError:
        raise ConfigError("CLASSIC_TABLES_PER_ADDRESS must be a whole number (0: no cap)") from None
    try:
        overload_lag_ms = float(os.environ.get("OVERLOAD_LAG_MS", "100") or 0)
    except ValueError:
        raise ConfigError("OVERLOAD_LAG_MS must be a number of milliseconds (0: never refuse actions)") from None
    try:
        solver_cpu_share = float(os.environ.get("SOLVER_CPU_SHARE", "0.5") or 0.5)
    except ValueError:
        raise ConfigError("SOLVER_CPU_SHARE must be a number between 0 and 1, like 0.5") from None
    if not 0 < solver_cpu_share <= 1:
        raise ConfigError(f"SOLVER_CPU_SHARE must be more than 0 and at most 1, not {solver_cpu_share}")
    try:
        solver_queue_max = int(os.environ.get("SOLVER_QUEUE_MAX", "500") or 0)
        solver_lease_seconds = float(os.environ.get("SOLVER_LEASE_SECONDS", "30") or 30)
    except ValueError:
        raise ConfigError("SOLVER_QUEUE_MAX and SOLVER_LEASE_SECONDS must be numbers") from None
    if solver_lease_seconds <= 0:
        raise ConfigError("SOLVER_LEASE_SECONDS must be more than 0")
    try:
        deal_pool_size = int(os.environ.get("DEAL_POOL_SIZE", "20") or 0)
    except ValueError:
        raise ConfigError("DEAL_POOL_SIZE must be a whole number of deals (0: keep none)") from None
    vapid_subject = os.environ.get("VAPID_SUBJECT", "").strip() or "mailto:delve@localhost"
    if not vapid_subject.startswith(("mailto:", "https://")):
        raise ConfigError(f"VAPID_SUBJECT must be a mailto: or https:// contact, not {vapid_subject!r}")
    log_level = os.environ.get("LOG_LEVEL", "INFO").upper()
    if log_level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
        raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not {log_level!r}")
    log_format = os.environ.get("LOG_FORMAT", "json" if production else "text").lower()
    if log_format not in {"json", "text"}:
        raise ConfigError("LOG_FORMAT must be json or text")
    return {
        "DELVE_ENV": env,
        "SECRET_KEY": secret,
        "DATABASE_URL": database_url,
        "SESSION_COOKIE_SECURE": _flag("COOKIE_SECURE", production),
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "REDIS_URL": redis_url,
        "TRUSTED_PROXIES": trusted_proxies,
        "RATE_LIMITS": _flag("RATE_LIMITS", True),
        # Open pages (Socket.IO connections, websocket or long-poll) one client address may hold.
        "SOCKETS_PER_ADDRESS": max(0, sockets_per_address),
        "LOG_LEVEL": log_level,
        "LOG_FORMAT": log_format,
        "TEST_OPTIONS": test_options,
        # The classic TCP gateway (webapp/adapters/classic): off unless a port range is given.
        "CLASSIC_PORTS": classic_ports(os.environ.get("CLASSIC_PORTS")),
        "CLASSIC_BIND": os.environ.get("CLASSIC_BIND", "0.0.0.0").strip() or "0.0.0.0",
        "CLASSIC_HOST": os.environ.get("CLASSIC_HOST", "").strip() or None,
        "CLASSIC_CONNECTIONS_PER_ADDRESS": max(0, classic_per_address),
        # Tables one host address may have taking classic clients at a time (each holds a port).
        "CLASSIC_TABLES_PER_ADDRESS": max(0, classic_tables_per_address),
        # How far behind (ms) this process's loop may fall before new actions are refused with 503
        # (webapp/web/overload.py); 0: never.
        "OVERLOAD_LAG_MS": max(0.0, overload_lag_ms),
        # The background solver (webapp/solver_worker.py): a process of its own the app starts
        # (off: run `python -m webapp solver` apart, or nothing is solved); the share of a CPU it
        # may take; how many verdicts may wait (beyond it none is queued); a job's lease.
        "SOLVER_WORKER": _flag("SOLVER_WORKER", True),
        "SOLVER_CPU_SHARE": solver_cpu_share,
        "SOLVER_QUEUE_MAX": max(0, solver_queue_max),
        "SOLVER_LEASE_SECONDS": solver_lease_seconds,
        # Winnable deals the solver keeps ready per solo game and options (webapp/domain/deal_pools.py).
        "DEAL_POOL_SIZE": max(0, deal_pool_size),
        # "Your turn" notifications (webapp/domain/push.py): the VAPID private key (base64url raw key
        # or PEM; unset: one made once and kept in the database) and the contact push services see.
        "VAPID_PRIVATE_KEY": os.environ.get("VAPID_PRIVATE_KEY", "").strip() or None,
        "VAPID_SUBJECT": vapid_subject,
        # An action form is a few hundred bytes; anything near this limit is not one of ours.
        "MAX_CONTENT_LENGTH": 16 * 1024,
    }


def async_mode() -> str:
    """ "gevent" when this process's standard library is patched by gevent, else "threading"."""
    monkey = sys.modules.get("gevent.monkey")
    return "gevent" if monkey is not None and monkey.is_module_patched("socket") else "threading"
