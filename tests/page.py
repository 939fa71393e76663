"""A rendered page, parsed, for tests that check its structure: which element, which attribute,
inside what. A substring check passes on markup in a comment, in an attribute or in the wrong
element, and breaks when attributes are reordered; a parsed page does neither.

>>> page = Page('<form class="play"><button name="action" value="{&#34;type&#34;: &#34;exit&#34;}"'
...             ' data-key="x">Leave <kbd aria-hidden="true">X</kbd></button></form>')
>>> page.one("form.play").name
'form'
>>> page.buttons()
[Button(action={'type': 'exit'}, label='Leave', key='x', id=None)]
>>> page.text("button")
'Leave X'
"""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass

from bs4 import BeautifulSoup, MarkupResemblesLocatorWarning, Tag


@dataclass(frozen=True)
class Button:
    """One action button: the action its form posts, the words on it (without the key hint drawn
    in <kbd>), its keyboard shortcut (data-key) and its id."""

    action: dict
    label: str
    key: str | None
    id: str | None


def squash(text: str) -> str:
    """Runs of whitespace as one space, none at the ends: text as a reader sees it."""
    return " ".join(text.split())


class Page:
    """HTML parsed with the standard library's parser (through Beautiful Soup): CSS selectors,
    attributes and text instead of substrings of markup."""

    def __init__(self, html: str | bytes):
        with warnings.catch_warnings():
            # A short error body ("Not allowed.") looks like a file name to Beautiful Soup.
            warnings.simplefilter("ignore", MarkupResemblesLocatorWarning)
            self.soup = BeautifulSoup(html, "html.parser")

    def select(self, css: str) -> list[Tag]:
        """Every element matching the CSS selector, in document order (maybe none)."""
        return self.soup.select(css)

    def one(self, css: str) -> Tag:
        """The one element matching the selector; an assertion error, saying how many, otherwise."""
        found = self.select(css)
        assert len(found) == 1, f"{len(found)} elements match {css!r}, expected exactly one"
        return found[0]

    def text(self, css: str | None = None) -> str:
        """The whitespace-normalised text of the one element matching `css` (of the whole page without)."""
        return squash((self.soup if css is None else self.one(css)).get_text(" "))

    def texts(self, css: str) -> list[str]:
        """The whitespace-normalised text of every element matching `css`."""
        return [squash(tag.get_text(" ")) for tag in self.select(css)]

    def attr(self, css: str, name: str) -> str | None:
        """Attribute `name` of the one element matching `css` (None if it has none; "" if bare)."""
        value = self.one(css).get(name)
        return " ".join(value) if isinstance(value, list) else value

    def buttons(self, css: str = "") -> list[Button]:
        """The action buttons (name="action") inside the elements matching `css` (the whole page by default)."""
        result = []
        for tag in self.select(f'{css} button[name="action"]'.strip()):
            words = [squash(t) for t in tag.find_all(string=True) if t.find_parent("kbd") is None]
            result.append(Button(json.loads(tag["value"]), squash(" ".join(words)), tag.get("data-key"), tag.get("id")))
        return result
