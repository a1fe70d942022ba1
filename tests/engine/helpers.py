"""Build hand-made positions for tests: name the cards that matter, the rest are filled in."""

from __future__ import annotations

from hypothesis import strategies as st

from scorpion.engine import PRESETS, Game, card_text
from scorpion.engine.notation import parse_position

# What the property tests draw: a deal, a preset, and the picks of a random game.
deals = st.integers(min_value=0, max_value=2**64 - 1)
presets = st.sampled_from(sorted(PRESETS))
choices = st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=120)

SEED_000 = """
stock: 4S 5D QS
1: 2S 8S TS | 3D JH TH 3S
2: AH 2D JD | QH 3C 4H 7S
3: AC 2C 6C | AS 7D 7H 3H
4: TC KC 5S | KD 8H 7C 9S
5: | 6H 8C JS 4C 9C 8D 5C
6: | 6D QC KH 4D KS 9H JC
7: | AD QD 9D 6S 2H TD 5H
runs: -
"""


def position(columns: list[str], stock: str = "-", runs: str = "-", filler: int = 0) -> str:
    """Position text with every card not named put face down at the bottom of column ``filler``.

    ``columns`` are column bodies like ``"| 8S 3H JS"`` (face-down cards before the bar).
    """
    body = [f"{j + 1}: {col}" for j, col in enumerate(columns)]
    named = f"stock: {stock}\n" + "\n".join(body) + f"\nruns: {runs}\n"
    used: set[str] = set()
    for line in named.splitlines():
        label, _, rest = line.partition(":")
        if label == "runs":
            for suit in rest.split():
                if suit != "-":
                    used.update(r + suit for r in "A23456789TJQK")
        else:
            used.update(w for w in rest.replace("|", " ").split() if w != "-")
    missing = [card_text(c) for c in range(52) if card_text(c) not in used]
    below, _, above = columns[filler].partition("|")
    columns = list(columns)
    columns[filler] = " ".join([*missing, below.strip()]).strip() + " |" + above
    text = f"stock: {stock}\n"
    text += "\n".join(f"{j + 1}: {col}" for j, col in enumerate(columns))
    text += f"\nruns: {runs}\n"
    parse_position(text)  # fail early on a malformed test position
    return text


def game_of(columns: list[str], preset: str = "classic", **kwargs: object) -> Game:
    return Game.from_text(position(columns, **kwargs), preset)  # type: ignore[arg-type]


def card_count(game: Game) -> int:
    cards = [c for col in game.columns for c in col] + game.stock + game.reserve
    assert len(set(cards)) == len(cards)
    return len(cards) + 13 * len(game.runs)
