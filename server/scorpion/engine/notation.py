"""Position text: print and parse both ways.

>>> text = '''
... stock: 4S 5D QS
... 1: 2S 8S TS | 3D JH TH 3S
... 2: AH 2D JD | QH 3C 4H 7S
... 3: AC 2C 6C | AS 7D 7H 3H
... 4: TC KC 5S | KD 8H 7C 9S
... 5: | 6H 8C JS 4C 9C 8D 5C
... 6: | 6D QC KH 4D KS 9H JC
... 7: | AD QD 9D 6S 2H TD 5H
... runs: -
... '''
>>> position = parse_position(text)
>>> position.down, len(position.stock)
([3, 3, 3, 3, 0, 0, 0], 3)
>>> parse_position("stock: -\\n1: | KS\\nruns: H H")
Traceback (most recent call last):
...
scorpion.engine.errors.NotationError: line 3: run H removed twice
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .cards import HIDDEN, SUITS, Card, card_text, parse_card
from .errors import NotationError

if TYPE_CHECKING:
    from .game import Game

HIDDEN_CARD = -1  # a card a viewer may not see


@dataclass(slots=True)
class Position:
    """Parsed position text. ``hidden`` is true for a view with ``??`` cards."""

    columns: list[list[Card]] = field(default_factory=list)
    down: list[int] = field(default_factory=list)
    stock: list[Card] = field(default_factory=list)
    reserve: list[Card] = field(default_factory=list)
    runs: list[int] = field(default_factory=list)
    hidden: bool = False


def format_position(game: Game, hidden: bool) -> str:
    """The position text of a game; with ``hidden``, face-down cards print as ``??``."""

    def cards(seq: list[Card]) -> str:
        return " ".join(HIDDEN if hidden else card_text(c) for c in seq)

    lines = [f"stock: {cards(game.stock) or '-'}"]
    if game.rules.layout == "three-blind-mice" or game.reserve:
        lines.append(f"reserve: {' '.join(card_text(c) for c in game.reserve) or '-'}")
    for j, (col, d) in enumerate(zip(game.columns, game.down, strict=True)):
        face_down, face_up = cards(col[:d]), " ".join(card_text(c) for c in col[d:])
        lines.append(f"{j + 1}: {face_down} | {face_up}".replace("  ", " ").rstrip())
    lines.append(f"runs: {' '.join(SUITS[s] for s in game.runs) or '-'}")
    return "\n".join(lines) + "\n"


def parse_position(text: str) -> Position:
    """Parse position text; raise :class:`NotationError` naming the bad line."""
    position = Position()
    seen: dict[Card, int] = {}
    sections: set[str] = set()
    last_line = 0

    def read_cards(words: list[str], lineno: int, allow_hidden: bool) -> list[Card]:
        out: list[Card] = []
        for word in words:
            if word == HIDDEN:
                if not allow_hidden:
                    raise NotationError(f"line {lineno}: ?? only stands for a face-down card")
                position.hidden = True
                out.append(HIDDEN_CARD)
                continue
            try:
                card = parse_card(word)
            except NotationError as exc:
                raise NotationError(f"line {lineno}: {exc}") from None
            if card in seen:
                raise NotationError(
                    f"line {lineno}: duplicated card {card_text(card)} (also on line {seen[card]})"
                )
            seen[card] = lineno
            out.append(card)
        return out

    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        last_line = lineno
        label, colon, rest = line.partition(":")
        label = label.strip().lower()
        if not colon:
            raise NotationError(f"line {lineno}: expected 'stock:', 'N:', 'reserve:' or 'runs:'")
        words = rest.split()
        if label in sections:
            raise NotationError(f"line {lineno}: a second {label!r} line")
        if label in ("stock", "reserve"):
            sections.add(label)
            cards = [] if words == ["-"] else read_cards(words, lineno, label == "stock")
            setattr(position, label, cards)
        elif label == "runs":
            sections.add(label)
            for word in [] if words == ["-"] else words:
                if len(word) != 1 or word.upper() not in SUITS:
                    raise NotationError(
                        f"line {lineno}: a run is a suit letter S H D C, not {word!r}"
                    )
                suit = SUITS.index(word.upper())
                if suit in position.runs:
                    raise NotationError(f"line {lineno}: run {word.upper()} removed twice")
                position.runs.append(suit)
                for rank in range(13):
                    card = suit * 13 + rank
                    if card in seen:
                        raise NotationError(
                            f"line {lineno}: run {word.upper()} was removed but "
                            f"{card_text(card)} is on line {seen[card]}"
                        )
                    seen[card] = lineno
        elif label.isdigit():
            expected = len(position.columns) + 1
            if int(label) != expected:
                raise NotationError(f"line {lineno}: expected column {expected}, got {label}")
            sections.add(label)
            if rest.count("|") > 1:
                raise NotationError(f"line {lineno}: more than one '|' in a column")
            below, bar, above = rest.partition("|")
            if not bar:
                raise NotationError(f"line {lineno}: a column needs '|' after its face-down cards")
            face_down = read_cards(below.split(), lineno, True)
            face_up = read_cards(above.split(), lineno, True)
            if HIDDEN_CARD in face_up:
                raise NotationError(f"line {lineno}: a face-down card above a face-up one")
            if face_down and not face_up:
                raise NotationError(
                    f"line {lineno}: face-down cards with no face-up card on them "
                    "(the top card turns face up by itself)"
                )
            position.columns.append(face_down + face_up)
            position.down.append(len(face_down))
        else:
            raise NotationError(f"line {lineno}: unknown line {label!r}")
    for needed in ("stock", "runs"):
        if needed not in sections:
            raise NotationError(f"line {last_line + 1}: missing the '{needed}:' line")
    if not position.columns:
        raise NotationError(f"line {last_line + 1}: no columns")
    total = sum(map(len, position.columns)) + len(position.stock) + len(position.reserve)
    total += 13 * len(position.runs)
    if total != 52:
        raise NotationError(f"line {last_line}: {total} cards, a position holds 52")
    return position
