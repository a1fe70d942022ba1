"""A room's settings, chosen by its creator, and the rules its games use.

>>> s = RoomSettings.from_dict({"preset": "classic", "deal": 42, "undo": "off"})
>>> s.deal, s.deal_kind, s.rules().undo
(42, 'number', 0)
>>> RoomSettings().undo, RoomSettings.from_dict({"undo": True}).undo  # an old boolean
('fair', 'fair')
>>> try:
...     RoomSettings.from_dict({"undo": "some"})
... except SettingsError as exc:
...     print(exc)
undo must be 'fair', 'full' or 'off', not 'some'
>>> try:
...     RoomSettings.from_dict({"max_players": 11})
... except SettingsError as exc:
...     print(exc)
max_players must be an integer from 1 to 10, not 11
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from scorpion.engine import PRESETS, Rules, get_rules
from scorpion.engine.deals import MAX_DEAL

from .errors import SettingsError

MAX_PLAYERS: Final = 10  # like lichess Puzzle Racer
MAX_TIME_LIMIT: Final = 3 * 3600
DEAL_CHOICES: Final = ("random", "winnable")
# Fair undo never takes back a move that showed a card (racer.py); full undo takes back any.
UNDO_CHOICES: Final = ("fair", "full", "off")
CHOSEN_DEAL: Final = (
    "a rated room or a league needs a deal nobody chose (random or winnable): whoever picks "
    "a deal's number may know its face-down cards"
)

KEYS: Final = frozenset(
    ("preset", "deal", "max_players", "time_limit", "undo", "hints", "auto", "rated", "league")
)

__all__ = ["MAX_PLAYERS", "UNDO_CHOICES", "RoomSettings", "SettingsError"]


def _int(data: Mapping[str, object], key: str, default: int, low: int, high: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SettingsError(f"{key} must be an integer from {low} to {high}, not {value!r}")
    return value


def _undo(data: Mapping[str, object]) -> str:
    value = data.get("undo", "fair")
    # Rooms stored before fair undo said true ("undo on") or false: true is the default now.
    if value is True:
        return "fair"
    if value is False:
        return "off"
    if value not in UNDO_CHOICES:
        raise SettingsError(f"undo must be 'fair', 'full' or 'off', not {value!r}")
    assert isinstance(value, str)
    return value


def _bool(data: Mapping[str, object], key: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise SettingsError(f"{key} must be true or false, not {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class RoomSettings:
    """What the creator picks. ``deal`` is "random", "winnable" or a deal number.

    ``time_limit`` is in seconds (0: none). ``undo`` is "fair" (the preset's undo, but
    never of a move that showed a card), "full" (the preset's undo) or "off" (none, whatever
    the preset says). ``hints`` allows the hint command, ``auto`` the auto command.
    ``rated``: the room's rounds are rated for the preset like quick races (its host's
    choice; a friends' room is unrated unless its host turns this on). ``league``: the room
    is a standing league (race/league.py): points per round, kept; the room stays open.
    """

    preset: str = "classic"
    deal: str | int = "random"
    max_players: int = MAX_PLAYERS
    time_limit: int = 600
    undo: str = "fair"
    hints: bool = False
    auto: bool = False
    rated: bool = False
    league: bool = False

    def __post_init__(self) -> None:
        if self.preset not in PRESETS:
            raise SettingsError(f"unknown preset {self.preset!r} (known: {', '.join(PRESETS)})")
        deal = self.deal
        if isinstance(deal, bool) or not (
            deal in DEAL_CHOICES or (isinstance(deal, int) and 0 <= deal <= MAX_DEAL)
        ):
            raise SettingsError(
                f"deal must be 'random', 'winnable' or a number from 0 to 2**64-1, not {deal!r}"
            )
        if self.undo not in UNDO_CHOICES:
            raise SettingsError(f"undo must be 'fair', 'full' or 'off', not {self.undo!r}")

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> RoomSettings:
        """Settings from the JSON body of "create a room"; unknown keys are refused."""
        unknown = set(data) - KEYS
        if unknown:
            raise SettingsError(f"unknown room settings: {', '.join(sorted(unknown))}")
        preset = data.get("preset", "classic")
        if not isinstance(preset, str):
            raise SettingsError(f"preset must be a preset name, not {preset!r}")
        deal = data.get("deal", "random")
        if not isinstance(deal, str | int):
            raise SettingsError(f"deal must be 'random', 'winnable' or a number, not {deal!r}")
        if isinstance(deal, str) and deal.isdigit():
            deal = int(deal)
        return cls(
            preset=preset,
            deal=deal,
            max_players=_int(data, "max_players", MAX_PLAYERS, 1, MAX_PLAYERS),
            time_limit=_int(data, "time_limit", 600, 0, MAX_TIME_LIMIT),
            undo=_undo(data),
            hints=_bool(data, "hints", False),
            auto=_bool(data, "auto", False),
            rated=_bool(data, "rated", False),
            league=_bool(data, "league", False),
        )

    def check_stakes(self) -> None:
        """SettingsError for a rated room or a league that deals a number its host chose:
        whoever chose it may know every face-down card (fair play; a new room only: a room
        restored from its records is not refused, its start deals at random instead)."""
        if isinstance(self.deal, int) and (self.rated or self.league):
            raise SettingsError(CHOSEN_DEAL)

    @property
    def deal_kind(self) -> str:
        """'random', 'winnable' or 'number' (what may be shown before the results)."""
        return self.deal if isinstance(self.deal, str) else "number"

    def rules(self) -> Rules:
        """The rules every game of the room uses."""
        rules = get_rules(self.preset)
        return rules if self.undo != "off" else rules.with_options(undo="off")

    @property
    def undo_policy(self) -> str:
        """The undo the room's racers get: "off" also when the preset has no undo.

        >>> RoomSettings(undo="full").undo_policy, RoomSettings(undo="fair").undo_policy
        ('full', 'fair')
        """
        return "off" if self.rules().undo == 0 else self.undo

    def to_dict(self) -> dict[str, object]:
        """Everything, including a chosen deal number: for the store, not for the wire."""
        return {
            "preset": self.preset,
            "deal": self.deal,
            "max_players": self.max_players,
            "time_limit": self.time_limit,
            "undo": self.undo,
            "hints": self.hints,
            "auto": self.auto,
            "rated": self.rated,
            "league": self.league,
        }

    def public(self) -> dict[str, object]:
        """What clients may see: the deal number stays secret until the results."""
        data = self.to_dict()
        data["deal"] = self.deal_kind
        data["undo"] = self.undo_policy  # what racers get: the client shows it as it is
        data["rules"] = self.rules().to_dict()  # the client never copies a rule
        return data
