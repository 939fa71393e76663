"""Adapters: other ways in than the web pages (the classic TCP gateway), beside ``web`` and never importing it."""
