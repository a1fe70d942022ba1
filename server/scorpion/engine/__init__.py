"""The Scorpion engine: cards, deal numbers, rules, the game, notation and records.

Pure Python with no I/O, in the manner of python-chess.

>>> from scorpion.engine import Game
>>> game = Game.new(7, "classic")
>>> len(game.columns), game.down
(7, [3, 3, 3, 3, 0, 0, 0])
"""

from .cards import Card, card_name, card_text, make_card, parse_card, rank_of, suit_of
from .deals import SplitMix64, shuffled_deck
from .errors import MoveError, NotationError
from .game import Game, Outcome
from .moves import DEAL, Move
from .notation import Position, parse_position
from .record import GameRecord, apply_action
from .rules import PRESETS, Rules, get_rules

__all__ = [
    "DEAL",
    "PRESETS",
    "Card",
    "Game",
    "GameRecord",
    "Move",
    "MoveError",
    "NotationError",
    "Outcome",
    "Position",
    "Rules",
    "SplitMix64",
    "apply_action",
    "card_name",
    "card_text",
    "get_rules",
    "make_card",
    "parse_card",
    "parse_position",
    "rank_of",
    "shuffled_deck",
    "suit_of",
]
