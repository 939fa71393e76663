"""Browser tests: Debian's Chromium (Playwright cannot download browsers here) against a live
server started the production way, with gunicorn, on a free port and a fresh SQLite file."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_collection_modifyitems(items):
    for item in items:
        if "/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not CHROMIUM:
        pytest.fail("Debian's chromium is not installed: run scripts/test.sh, which installs it")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """gunicorn serving webapp.wsgi:app on a fresh SQLite file; can be killed and restarted."""

    def __init__(self, workdir: Path):
        self.workdir = workdir
        self.port = free_port()
        self.classic_port = free_port()  # one table's classic clients (e2e/test_classic.py)
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = workdir / "server.log"
        self.process = None

    def start(self):
        # One process on its own SQLite file: a REDIS_URL or DELVE_ENV from the caller's shell
        # would change what is being tested.
        inherited = {
            k: v
            for k, v in os.environ.items()
            if k not in ("REDIS_URL", "SOCKETIO_MESSAGE_QUEUE", "DELVE_ENV", "COOKIE_SECURE")
        }
        env = {
            **inherited,
            "DATABASE_URL": f"sqlite:///{self.workdir / 'delve.sqlite3'}",
            "DELVE_INSTANCE_DIR": str(self.workdir),
            "SECRET_KEY": "e2e-secret",
            "LOG_LEVEL": "WARNING",
            "DELVE_TEST_OPTIONS": "1",
            # Rate limits off. Every browser context here is one client address, 127.0.0.1, for
            # the whole session: a few dozen tests opening games add up past 30 creations a
            # minute, and a keyboard loop on a fast machine past 20 actions a second, so the
            # limiter would fail browser tests by the machine's speed. The limits themselves are
            # proven in tests/ops/test_rate_limits.py (in process with the limiter's clock
            # frozen, and across two processes sharing Redis).
            "RATE_LIMITS": "0",
            # Never refuse actions as overloaded: the server shares two cores with Chromium and
            # pytest, whose bursts are not a server behind on its players (the gate is tested in
            # tests/web/test_overload.py and measured by benchmarks/load.py).
            "OVERLOAD_LAG_MS": "0",
            # Bots at a brisk pace (the default is a second), so a bot game ends within a test.
            "BOT_DELAY_SECONDS": "0.05",
            "CLASSIC_PORTS": f"{self.classic_port}-{self.classic_port}",
            "CLASSIC_BIND": "127.0.0.1",
            # No background solver: it would take the cores the browser needs (a test runs the
            # solver's jobs itself, through the server's database: e2e/test_verdict.py).
            "SOLVER_WORKER": "0",
        }
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "-w",
                "1",
                "--threads",
                "50",
                "--no-control-socket",
                "-b",
                f"127.0.0.1:{self.port}",
                "webapp.wsgi:app",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as response:
                    if response.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the live server did not start:\n" + self.log_path.read_text())

    def kill(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    server = LiveServer(tmp_path_factory.mktemp("live")).start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def base_url(live_server):
    return live_server.url


class ConsoleWatch:
    """Every console error and uncaught page error of every page a test opens, in any context.

    A test that provokes one on purpose says which and why with ``allow`` (a pattern and a
    reason); anything else fails the test when it ends."""

    def __init__(self):
        self.errors: list[str] = []
        self.allowed: list[tuple[re.Pattern[str], str]] = []

    def watch_context(self, ctx):
        for open_page in ctx.pages:
            self.watch_page(open_page)
        ctx.on("page", self.watch_page)

    def watch_page(self, open_page):
        open_page.on("console", lambda message: self.errors.append(message.text) if message.type == "error" else None)
        open_page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))

    def allow(self, pattern: str, reason: str):
        assert reason, "say why this console error is expected"
        self.allowed.append((re.compile(pattern), reason))

    def allow_4xx_answers(self, reason: str):
        """The browser's own line for an HTTP error answer the test asked for on purpose."""
        self.allow(r"^Failed to load resource: the server responded with a status of 4\d\d", reason)

    def unexpected(self) -> list[str]:
        return [e for e in self.errors if not any(p.search(e) for p, _ in self.allowed)]


@pytest.fixture
def console_watch(context, browser, monkeypatch):
    """Watches the test's own context and every context the test opens in the session browser."""
    watch = ConsoleWatch()
    watch.watch_context(context)
    open_context = browser.new_context

    def new_watched_context(*args, **kwargs):
        ctx = open_context(*args, **kwargs)
        watch.watch_context(ctx)
        return ctx

    monkeypatch.setattr(browser, "new_context", new_watched_context)
    return watch


@pytest.fixture(autouse=True)
def clean_console(console_watch):
    """Every browser test fails on a console error or page error it did not declare expected."""
    yield
    unexpected = console_watch.unexpected()
    if unexpected:
        pytest.fail("console errors in the browser:\n" + "\n".join(unexpected[:20]), pytrace=False)


@pytest.fixture
def console_errors(console_watch):
    """The console errors so far, for a test that checks them at a point of its own."""
    return console_watch.errors


EVERY_SCREENSHOT = os.environ.get("DELVE_SCREENSHOTS") == "1"
"""Shoot every test's pages as it ends; by default only a failed test's (a full-page PNG of each
of a test's pages costs about as much as a short test)."""


FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        item.stash[FAILED] = True


def _wanted(request) -> bool:
    return EVERY_SCREENSHOT or request.node.stash.get(FAILED, False)


def _screenshot(pages, name):
    ARTIFACTS.mkdir(exist_ok=True)
    for index, open_page in enumerate(pages):
        if open_page.is_closed():
            continue
        try:
            open_page.screenshot(path=str(ARTIFACTS / f"{name}-{index}.png"), full_page=True)
        except Exception:  # a screenshot is a courtesy; never fail a test over it
            pass


def _artifact_name(request) -> str:
    return request.node.name.replace("/", "_").replace("[", "-").replace("]", "")


@pytest.fixture(autouse=True)
def screenshot_at_the_end(request, context):
    """Save a screenshot of a failed test's pages when it ends (test-artifacts/, not committed;
    every test's with ``DELVE_SCREENSHOTS=1``).

    Depends on ``context`` so that it is torn down, and shoots, before the context closes."""
    yield
    if _wanted(request):
        _screenshot(context.pages, _artifact_name(request))


@pytest.fixture
def new_page(browser, base_url, request):
    """Another person: a page in a fresh browser context (own cookies). Screenshot at the end."""
    contexts = []

    def make(**context_options):
        ctx = browser.new_context(base_url=base_url, **context_options)
        contexts.append(ctx)
        return ctx.new_page()

    yield make
    if _wanted(request):
        _screenshot([p for ctx in contexts for p in ctx.pages], _artifact_name(request) + "-other")
    for ctx in contexts:
        ctx.close()


SERIOUS = {"serious", "critical"}


def assert_accessible(page):
    """axe-core finds no serious or critical violation on the page as it is now.

    Finite CSS animations are let finish first: a card caught mid-fade is not a contrast bug."""
    page.evaluate(
        """() => Promise.race([
             Promise.all(document.getAnimations()
               .filter(a => a.effect && a.effect.getComputedTiming().iterations !== Infinity)
               .map(a => a.finished.catch(() => null))),
             new Promise(resolve => setTimeout(resolve, 3000))])"""
    )
    results = Axe().run(page)
    serious = [v for v in results.response["violations"] if v.get("impact") in SERIOUS]
    details = "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:5]}" for v in serious
    )
    assert not serious, details


@pytest.fixture
def axe_check():
    return assert_accessible
