"""Rule options and the presets (docs/rules.md explains them to players).

>>> PRESETS["strict"].loss, PRESETS["relaxed"].build
('detect', 'any-suit')
>>> get_rules("wasp").empty
'any'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final, Literal

Build = Literal["same-suit", "any-suit"]
Empty = Literal["kings", "any"]
Runs = Literal["placed", "any", "keep"]
Loss = Literal["never", "detect"]
Scoring = Literal["points", "timed", "cards"]
Layout = Literal["scorpion", "three-blind-mice"]
Deals = Literal["random", "winnable"]

_CHOICES: Final[dict[str, tuple[object, ...]]] = {
    "build": ("same-suit", "any-suit"),
    "empty": ("kings", "any"),
    "runs": ("placed", "any", "keep"),
    "loss": ("never", "detect"),
    "scoring": ("points", "timed", "cards"),
    "layout": ("scorpion", "three-blind-mice"),
    "deals": ("random", "winnable"),
}


@dataclass(frozen=True, slots=True)
class Rules:
    """One game's rules. ``undo`` is how many actions can be undone: 0 for off, None unlimited."""

    build: Build = "same-suit"
    empty: Empty = "kings"
    runs: Runs = "placed"
    loss: Loss = "never"
    undo: int | None = 100
    scoring: Scoring = "points"
    layout: Layout = "scorpion"
    deals: Deals = "random"

    def __post_init__(self) -> None:
        for field, choices in _CHOICES.items():
            value = getattr(self, field)
            if value not in choices:
                allowed = ", ".join(map(str, choices))
                raise ValueError(f"rule {field} must be one of {allowed}, not {value!r}")
        if self.undo is not None and (
            isinstance(self.undo, bool) or not isinstance(self.undo, int) or self.undo < 0
        ):
            raise ValueError(f"rule undo must be a count >= 0 or None, not {self.undo!r}")

    def with_options(self, **options: object) -> Rules:
        """A copy with some options changed (``undo`` also takes 'off' and 'unlimited')."""
        if "undo" in options:
            options["undo"] = parse_undo(options["undo"])
        return replace(self, **options)  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, object]:
        """The rules as plain data for the wire (``undo``: a count, 0 for off, None unlimited).

        >>> PRESETS["wasp"].to_dict()["empty"], PRESETS["easy"].to_dict()["undo"]
        ('any', None)
        """
        return {name: getattr(self, name) for name in (*_CHOICES, "undo")}

    @property
    def undo_text(self) -> str:
        return "unlimited" if self.undo is None else "off" if self.undo == 0 else str(self.undo)


def parse_undo(value: object) -> int | None:
    if value in ("unlimited", None):
        return None
    if value == "off":
        return 0
    if isinstance(value, str) and value.isdigit():
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    raise ValueError(f"rule undo must be 'off', 'unlimited' or a count, not {value!r}")


PRESETS: Final[dict[str, Rules]] = {
    "classic": Rules(),
    "relaxed": Rules(build="any-suit"),
    "easy": Rules(empty="any", runs="any", undo=None, scoring="timed", deals="winnable"),
    "normal": Rules(empty="any", runs="any", undo=None, scoring="timed"),
    "hard": Rules(runs="any", undo=None, scoring="timed"),
    "strict": Rules(runs="any", loss="detect", undo=None, scoring="cards"),
    "wasp": Rules(empty="any"),
    "traditional": Rules(runs="keep"),
    "three-blind-mice": Rules(layout="three-blind-mice"),
}


def get_rules(preset: str | Rules) -> Rules:
    """The rules of a preset name, or ``preset`` itself when it already is :class:`Rules`."""
    if isinstance(preset, Rules):
        return preset
    try:
        return PRESETS[preset]
    except KeyError:
        names = ", ".join(PRESETS)
        raise ValueError(f"unknown preset {preset!r} (known: {names})") from None


def preset_name(rules: Rules) -> str | None:
    """The name of the preset these rules are, if any."""
    return next((name for name, r in PRESETS.items() if r == rules), None)
