"""Fail fast: a configuration that cannot work stops the start with one readable line — no
secret key in production, a database that does not answer, a malformed REDIS_URL — through
``create_app`` and through the real commands (``python -m webapp.storage.migrate``, which the serve
command runs first, and gunicorn with ``gunicorn.conf.py``). Passwords never appear in them."""

from __future__ import annotations

import subprocess
import sys
import urllib.request

import pytest
from cluster import ROOT, Server, free_port

from webapp import ConfigError, create_app

PASSWORD = "pw-must-not-show"


def closed_port() -> int:
    return free_port()  # bound and released at once: nothing listens there


def broken(kind: str, tmp_path) -> tuple[dict, list[str], str]:
    """Environment changes for one broken configuration, variables to remove, and what the
    message must say."""
    sqlite = {"DATABASE_URL": f"sqlite:///{tmp_path / 'delve.sqlite3'}"}
    if kind == "no secret key in production":
        return {**sqlite, "DELVE_ENV": "production"}, ["SECRET_KEY", "DELVE_TEST_OPTIONS"], "SECRET_KEY must be set"
    if kind == "unreachable postgres":
        url = f"postgresql://delve:{PASSWORD}@127.0.0.1:{closed_port()}/delve"
        return {"DATABASE_URL": url}, [], "cannot use the database at postgresql"
    if kind == "sqlite folder cannot be made":
        (tmp_path / "a-file").write_text("not a folder")
        return {"DATABASE_URL": f"sqlite:///{tmp_path / 'a-file' / 'delve.sqlite3'}"}, [], "cannot use the database"
    if kind == "redis url: not redis":
        return {**sqlite, "REDIS_URL": f"http://:{PASSWORD}@cache:6379/0"}, [], "REDIS_URL is malformed"
    if kind == "redis url: bad port":
        return {**sqlite, "REDIS_URL": f"redis://:{PASSWORD}@cache:63x9/0"}, [], "REDIS_URL is malformed"
    raise AssertionError(kind)


KINDS = [
    "no secret key in production",
    "unreachable postgres",
    "sqlite folder cannot be made",
    "redis url: not redis",
    "redis url: bad port",
]


@pytest.mark.parametrize("kind", KINDS)
def test_create_app_refuses_with_a_readable_message(kind, tmp_path, monkeypatch):
    changes, removed, expected = broken(kind, tmp_path)
    monkeypatch.setenv("DELVE_INSTANCE_DIR", str(tmp_path))
    for name in [*removed, "DELVE_ENV", "REDIS_URL", "SOCKETIO_MESSAGE_QUEUE"]:
        monkeypatch.delenv(name, raising=False)
    for name, value in changes.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError) as refused:
        create_app({"TESTING": True})
    message = str(refused.value)
    assert expected in message
    assert PASSWORD not in message
    assert "\n" not in message.split(":", 1)[0]  # it starts with what is wrong, not a traceback


def test_redis_url_with_a_password_is_accepted_and_never_echoed(tmp_path, monkeypatch):
    """The check is no stricter than redis-py: a well-formed URL with a password passes."""
    from webapp.config import check_redis_url, redacted

    check_redis_url(f"redis://:{PASSWORD}@cache:6379/0")
    check_redis_url("unix:///run/redis.sock?db=1")
    assert PASSWORD not in redacted(f"rediss://user:{PASSWORD}@cache:6380/2")


def run_real_command(args: list[str], env: dict, timeout: float = 90) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)


def real_environment(kind: str, tmp_path) -> tuple[dict, str, str]:
    """The environment a server process of cluster.Server would get, broken in one way."""
    changes, removed, expected = broken(kind, tmp_path)
    server = Server(tmp_path, database_url=changes.get("DATABASE_URL", ""), env=changes)
    env = server.environment()
    for name in removed:
        env.pop(name, None)
    return env, expected, server.url


@pytest.mark.parametrize("kind", ["no secret key in production", "unreachable postgres", "redis url: bad port"])
def test_the_migrate_command_refuses_to_start(kind, tmp_path):
    """scripts/serve.sh runs it first (and a multi-process deploy once per release)."""
    env, expected, _url = real_environment(kind, tmp_path)
    migrate = run_real_command(["-m", "webapp.storage.migrate"], env)
    assert migrate.returncode == 1
    assert "Delve cannot start: " in migrate.stderr and expected in migrate.stderr
    assert "Traceback" not in migrate.stderr and PASSWORD not in migrate.stderr + migrate.stdout


def test_the_migrate_command_starts_a_fresh_production_instance(tmp_path):
    """The README's deploy on a fresh checkout: production, a secret key, the default SQLite file
    in an instance folder that does not exist yet (the app makes it; so must the migrations)."""
    env = Server(tmp_path, database_url="", env={"DELVE_ENV": "production"}).environment()
    for name in ("DATABASE_URL", "DELVE_TEST_OPTIONS"):
        env.pop(name)
    env["DELVE_INSTANCE_DIR"] = str(tmp_path / "fresh" / "instance")
    migrate = run_real_command(["-m", "webapp.storage.migrate"], env)
    assert migrate.returncode == 0, migrate.stderr[-2000:]
    assert (tmp_path / "fresh" / "instance" / "delve.sqlite3").exists()


# Two kinds are enough here: every ConfigError takes the same path through webapp/wsgi.py (each
# kind is proven through create_app above), and each gunicorn start costs seconds.
@pytest.mark.parametrize("kind", ["no secret key in production", "unreachable postgres"])
def test_gunicorn_refuses_to_start(kind, tmp_path):
    env, expected, url = real_environment(kind, tmp_path)
    gunicorn = run_real_command(["-m", "gunicorn", "-c", "gunicorn.conf.py", "webapp.wsgi:app"], env)
    output = gunicorn.stdout + gunicorn.stderr
    assert gunicorn.returncode == 3, output[-2000:]  # gunicorn's "worker failed to boot": no respawning
    assert "Delve cannot start: " in output and expected in output
    assert "Traceback" not in output and PASSWORD not in output
    with pytest.raises(OSError):  # and nothing is left serving
        urllib.request.urlopen(url + "/healthz", timeout=2)
