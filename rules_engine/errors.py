"""The two ways an action can be refused. Both are ``ValueError`` with a message a player can read."""


class InvalidAction(ValueError):
    """The action is malformed: unknown type, missing or badly typed parameters."""


class IllegalAction(ValueError):
    """The action is well formed but the rules forbid it now."""
