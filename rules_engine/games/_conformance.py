"""Every game module checked against the contract's ``GameModule`` Protocol by mypy.

Assigning a module to a name typed with a Protocol makes mypy check that the module defines each
member with a compatible type; this module exists for that check (its leading underscore keeps
it out of ``rules_engine.GAMES``). A new game adds its line here, and its bot module (``BOT``)
its line under ``BotModule``.

>>> sorted(module.slug for module in CHECKED)
['clear-the-dungeon', 'dungeon-cards', 'dungeon-of-doom', 'hebracs-dungeon', 'shuffle-and-doom']
"""

from __future__ import annotations

from ..bots import dungeon_cards as dungeon_cards_bot
from ..bots import dungeon_of_doom as dungeon_of_doom_bot
from ..contract import BotModule, GameModule
from ..speech import SpeechModule
from . import clear_the_dungeon, dungeon_cards, dungeon_of_doom, hebracs_dungeon, shuffle_and_doom
from .clear_the_dungeon import speech as clear_the_dungeon_speech
from .dungeon_cards import speech as dungeon_cards_speech
from .dungeon_of_doom import speech as dungeon_of_doom_speech
from .hebracs_dungeon import speech as hebracs_dungeon_speech
from .shuffle_and_doom import speech as shuffle_and_doom_speech

_clear_the_dungeon: GameModule = clear_the_dungeon
_dungeon_cards: GameModule = dungeon_cards
_dungeon_of_doom: GameModule = dungeon_of_doom
_hebracs_dungeon: GameModule = hebracs_dungeon
_shuffle_and_doom: GameModule = shuffle_and_doom

CHECKED: tuple[GameModule, ...] = (
    _clear_the_dungeon,
    _dungeon_cards,
    _dungeon_of_doom,
    _hebracs_dungeon,
    _shuffle_and_doom,
)

_dungeon_cards_bot: BotModule = dungeon_cards_bot
_dungeon_of_doom_bot: BotModule = dungeon_of_doom_bot

_clear_the_dungeon_speech: SpeechModule = clear_the_dungeon_speech
_hebracs_dungeon_speech: SpeechModule = hebracs_dungeon_speech
_dungeon_cards_speech: SpeechModule = dungeon_cards_speech
_dungeon_of_doom_speech: SpeechModule = dungeon_of_doom_speech
_shuffle_and_doom_speech: SpeechModule = shuffle_and_doom_speech
