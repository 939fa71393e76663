"""The check every game's speech module passes (tests/engine/test_speech_<game>.py)."""

from __future__ import annotations

from rules_engine import speech
from rules_engine.contract import Rules


def checked_commands(rules: Rules, state: dict, seat: str = "p1") -> list[speech.Command]:
    """``seat``'s commands in ``state``, checked: one per legal action, in the rules' order, each
    typed form unique, each word one of the game's verbs with a sentence for help, and each typed
    form (in capitals, with stray spaces) read back to its very action."""
    view, legal = rules.view(state, seat), rules.legal_actions(state, seat)
    commands = rules.speech.commands(view, legal)
    assert [c.action for c in commands] == legal
    typed = [speech.normalised(c.typed) for c in commands]
    assert len(set(typed)) == len(typed), typed
    for command in commands:
        assert command.word in rules.speech.VERBS and command.says
        assert speech.read(f"  {command.typed.upper()} ", commands, rules.speech.VERBS).action == command.action
    return commands
