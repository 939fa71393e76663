"""Helpers the tests share: builders of exact game states, decks, assertions (no engine imports these)."""
