"""The classic protocol's words: its limits and timings, one line fit for the wire, a command's
word, and what a table's lobby records of its port and join code."""

from __future__ import annotations

import secrets
import socket
import unicodedata

LINE_MAX = 256
"""Bytes in one command line; the longest real command (a SHOUT) is far shorter."""
COMMAND_BURST = 30
COMMANDS_PER_SECOND = 10.0
"""A bot that pipelines a whole turn sends a handful at once; one that polls LOOK sends one a second."""
IDLE_SECONDS = 900.0
"""A connection that says nothing for this long is closed (its seat then has the grace period).
Long: a bot waits silently for its STARTTURN through every other player's turn."""
REPLY_DELAY = 0.01
"""Old clients race: no answer leaves sooner than this after its command arrived."""
TURN_GAP = 2.0
"""Seconds between the line that ended a seat's turn and that seat's next STARTTURN."""
HELLO_WAIT = 30.0
"""How long a new connection has to say ``HELLO <join code>`` before it is told so and closed
(long enough for a person typing into ``nc``)."""
WRITE_SECONDS = 30.0
"""A client that stops reading: a write waits this long, then the connection is closed."""
TABLES_PER_ADDRESS = 2
"""Tables one client address (the host's) may have taking classic clients at a time, unless
``CLASSIC_TABLES_PER_ADDRESS`` says otherwise (0: no cap)."""
IDLE_TABLE_SECONDS = 30 * 60.0
"""A waiting table with classic clients on, nobody connected and nothing done for this long, gives
its port up when another table needs one (its host may turn classic clients on again)."""
CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read off a screen, typed by hand
CODE_LENGTH = 8  # 31**8, about 2**40: not guessed through a port's connections
ALL_X = ["XXXXX"] * 5
DIRECTIONS = {"N", "E", "S", "W"}
SHOUT_MAX = 200
CHAT_BURST, CHAT_WINDOW = 5, 10.0  # as the web chat (webapp/web/tables.py)


def wire(text: object) -> str:
    """One line fit for the wire: printable ASCII only. Whatever a browser player typed (a name,
    chat) can never start a protocol line of its own here: CR, LF and every other control or
    separator character become spaces, accents are dropped, anything else non-ASCII is ``?``."""
    decomposed = unicodedata.normalize("NFKD", str(text))
    kept = []
    for ch in decomposed:
        if unicodedata.combining(ch):
            continue
        if " " <= ch <= "~":
            kept.append(ch)
        elif ch.isspace() or unicodedata.category(ch)[0] in "CZ":
            kept.append(" ")
        else:
            kept.append("?")
    return " ".join("".join(kept).split())


def wire_name(name: object) -> str:
    """A name for a line that puts ``name: text`` on the wire (MESSAGE): its ``:`` become ``;``, so
    the first ``:`` of such a line always ends the name and a seat named "Host: psst" cannot speak
    as someone else. Names keep their ``:`` everywhere else (the web shows them as typed)."""
    return wire(name).replace(":", ";")


def recorded_port(lobby: dict) -> int | None:
    classic = lobby.get("classic")
    port = classic.get("port") if isinstance(classic, dict) else None
    return port if isinstance(port, int) else None


def recorded_code(lobby: dict) -> str | None:
    classic = lobby.get("classic")
    code = classic.get("code") if isinstance(classic, dict) else None
    return code if isinstance(code, str) and code else None


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def public_host(config) -> str:
    """The host name tables show classic clients: ``CLASSIC_HOST``, else ``SERVER_NAME``'s host,
    else ``CLASSIC_BIND`` when it names one interface, else this machine's name. Configuration
    alone, never a request's Host header: the panel sits in fragments shared by every spectator."""
    if config.get("CLASSIC_HOST"):
        return str(config["CLASSIC_HOST"])
    if config.get("SERVER_NAME"):
        return str(config["SERVER_NAME"]).rsplit(":", 1)[0]
    bind = config.get("CLASSIC_BIND") or "0.0.0.0"
    if bind not in ("0.0.0.0", "::", ""):
        return str(bind)
    return socket.gethostname()


def command_of(line: str) -> tuple[str, str]:
    """(the command word in upper case, the rest of the line stripped)."""
    words = line.strip().split(None, 1)
    if not words:
        return "", ""
    return words[0].upper(), words[1].strip() if len(words) > 1 else ""
