"""Text that people read: the one sanitiser for what they type (names, chat, map names), and
counted nouns for what the games say.

The sanitiser, for text that people type and others read:

Whatever a person types reaches every other player's page, so it must show as plain words:
control characters (NUL, BEL, escape sequences), format characters (U+202E turns the rest of a
line around; zero-width characters hide text or make two names look alike), surrogates,
private-use and unassigned code points are dropped, every run of whitespace (tabs, line and
paragraph separators) becomes one space, and the text is trimmed and cut to ``limit``.
Characters are compared in NFC form, so one visible name has one spelling.

>>> clean_text("  Ann\\u202e\\x07\\x00  the\\tBold  ", 24)
'Ann the Bold'
>>> clean_text("e\\u0301", 5) == "\\u00e9"
True
>>> clean_text(None, 10), clean_text("x" * 30, 4)
('', 'xxxx')
"""

from __future__ import annotations

import unicodedata


def clean_text(raw: object, limit: int) -> str:
    """``raw`` as one line of printable text of at most ``limit`` characters ('' if nothing is left)."""
    text = unicodedata.normalize("NFC", "" if raw is None else str(raw))
    kept = "".join(" " if ch.isspace() else ch for ch in text if ch.isspace() or ch.isprintable())
    return " ".join(kept.split())[:limit].strip()


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """A number of things in words a page shows: ``counted(1, "card")`` is "1 card", else "n cards";
    ``plural`` for a noun that does not just take an s.

    >>> counted(1, "hit"), counted(3, "chamber"), counted(1, "life", "lives"), counted(0, "life", "lives")
    ('1 hit', '3 chambers', '1 life', '0 lives')
    """
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
