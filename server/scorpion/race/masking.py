"""Other racers' secrets: what a follower of a board may not see on it.

Every racer of a round plays the same deal, so a card one racer has turned face up is,
on a slower racer's board, maybe still face down (or in the stock). The rule
(docs/protocol.md section 4): while a racer is still playing, nobody but that racer
receives the name of a card still face down on that racer's board. A board shown to
anyone but its own player therefore shows such a card as ``??`` (the engine's text for
a card nobody may see) until every racer still playing has turned it or has finished;
once the round has no racer playing (the results), nothing is masked.

:class:`HiddenCards` keeps the set of cards face down on some playing board, counting
per card how many boards hide it, and recomputes a racer's part only when that racer's
game changed (its log grew), so masking a view is a set lookup per face-up card.

>>> from scorpion.engine import Game
>>> fast, slow = Game.new(6, "classic"), Game.new(6, "classic")
>>> fast.play("QD>2") is not None  # turns the card under the queen of diamonds
True
>>> hidden = HiddenCards()
>>> released = hidden.sync({"fast": Board(fast, True), "slow": Board(slow, True)})
>>> turned = fast.view()["columns"][2]["up"][0]
>>> turned in hidden, turned
(True, 'JS')
>>> mask_view(fast.view(), hidden.cards)["columns"][2]["up"]
['??']
>>> slow.play("QD>2") is not None
True
>>> sorted(hidden.sync({"fast": Board(fast, True), "slow": Board(slow, True)}))
['JS']
>>> mask_view(fast.view(), hidden.cards)["columns"][2]["up"]
['JS']
>>> len(hidden.cards) > 0, len(hidden.sync({"fast": Board(fast, False)})) > 0, hidden.cards
(True, True, frozenset())
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Set
from typing import Final, NamedTuple, Protocol

from scorpion.engine import Game
from scorpion.engine.cards import CARD_TEXTS, HIDDEN, parse_card

MASK: Final = HIDDEN  # "??": how a masked face-up card is sent


class Playing(Protocol):
    """What masking needs of a racer (``Racer`` has it)."""

    @property
    def game(self) -> Game: ...

    @property
    def playing(self) -> bool: ...


class Board(NamedTuple):
    """A game and whether its racer is still playing (for tests and callers without a Racer)."""

    game: Game
    playing: bool


NOTHING: Final[frozenset[str]] = frozenset()


def face_down(game: Game) -> frozenset[str]:
    """The texts of the cards face down on ``game``'s board, the stock's included.

    >>> from scorpion.engine import Game
    >>> len(face_down(Game.new(1, "classic")))  # 4 columns of 3, and 3 in the stock
    15
    """
    texts, columns, downs = CARD_TEXTS, game.columns, game.down
    # The columns by index: compiled, a zip is a Python iterator (docs/compiled.md).
    down = [texts[c] for j in range(len(columns)) for c in columns[j][: downs[j]]]
    down.extend(texts[c] for c in game.stock)
    return frozenset(down)


def face_up_any(game: Game, texts: Iterable[str]) -> bool:
    """Whether a card of ``texts`` lies face up on ``game``'s board (columns or reserve).

    Asked of every other board when a card's masking changes (a few cards): each looked
    for where it lies, rather than a set made of the board's face-up cards.

    >>> from scorpion.engine import Game
    >>> game = Game.new(1, "classic")
    >>> face_up_any(game, ["KD"]), face_up_any(game, ["6C", "QS"])  # KD face down, QS up
    (False, True)
    """
    columns, downs = game.columns, game.down
    for text in texts:
        card = parse_card(text)
        if card in game.reserve:
            return True
        for j in range(len(columns)):
            column = columns[j]
            if card in column:
                if column.index(card) >= downs[j]:
                    return True
                break  # a card lies in one place
    return False


class _Hiding:
    """What one playing board hides: its game, the face-down counts and stock size when
    last seen, and the cards face down then. Changed in place (a tuple each time a card
    turned was more objects for the garbage collector to walk)."""

    def __init__(self, game: Game, cards: frozenset[str]) -> None:
        self.game, self.down, self.stock, self.cards = game, list(game.down), len(game.stock), cards

    def update(self, game: Game, cards: frozenset[str]) -> None:
        self.game, self.stock, self.cards = game, len(game.stock), cards
        self.down[:] = game.down


class HiddenCards:
    """The cards face down on the board of at least one racer still playing."""

    def __init__(self) -> None:
        self._boards: dict[str, _Hiding] = {}  # by racer id
        self._count: dict[str, int] = {}  # card -> number of playing boards hiding it
        # By card (0-51): whether it is hidden (in _count), read by observed.py per face-up
        # card: compiled, a list's item is several times cheaper than a set lookup by text.
        self.by_card: list[bool] = [False] * len(CARD_TEXTS)
        self._cards: frozenset[str] | None = frozenset()  # None: to rebuild from _count
        self._hidden_now: set[str] = set()  # cards newly hidden by the last sync (an undo)
        self.version = 0  # goes up whenever the set changes (numbers counted on it are stale)

    @property
    def cards(self) -> frozenset[str]:
        if self._cards is None:
            self._cards = frozenset(self._count)
        return self._cards

    def __contains__(self, card: object) -> bool:
        return card in self._count

    def sync(self, racers: Mapping[str, Playing]) -> frozenset[str]:
        """Bring the set up to date with ``racers`` (the round's, by id); the cards no
        board hides any more (they may now be shown to followers).

        Cheap when nothing changed: one comparison per racer.
        """
        if self._hidden_now:
            self._hidden_now.clear()
        released: set[str] = set()
        for racer_id in [r for r in self._boards if r not in racers]:
            released |= self._set(racer_id, None)
        for racer_id, racer in racers.items():
            game = racer.game if racer.playing else None
            released |= self._set(racer_id, game)
        return frozenset(c for c in released if c not in self._count)

    def sync_one_changes(self, racer_id: str, game: Game | None) -> frozenset[str]:
        """:meth:`sync_one`, returning every card whose masking changed: released, or hidden
        again (an undo turned it back face down, or put it back in the stock)."""
        released = self.sync_one(racer_id, game)
        if not self._hidden_now:
            return released
        return released | frozenset(c for c in self._hidden_now if c in self._count)

    def sync_one(self, racer_id: str, game: Game | None) -> frozenset[str]:
        """:meth:`sync` for the one racer whose board or status changed (the others are
        as they were), ``game`` their board while they play (None: finished or gone): the
        cards no board hides any more. (The board, not the racer: compiled, a protocol's
        attributes are read by name.)"""
        if self._hidden_now:
            self._hidden_now.clear()
        released = self._set(racer_id, game)
        if not released:  # most moves turn nothing: no set built
            return NOTHING
        return frozenset(c for c in released if c not in self._count)

    def _set(self, racer_id: str, game: Game | None) -> frozenset[str]:
        """Record ``racer_id``'s board (None: finished or gone); the cards it stopped hiding."""
        known = self._boards.get(racer_id)
        # Face-down cards never move: the down counts and the stock's size say which they
        # are. Compared in place (asked after every move; most turn nothing).
        if (
            game is not None
            and known is not None
            and known.game is game
            and known.stock == len(game.stock)
            and known.down == game.down
        ):
            return NOTHING  # no card turned, turned back or dealt since last time
        before = known.cards if known is not None else NOTHING
        now = face_down(game) if game is not None else NOTHING
        if game is None:
            self._boards.pop(racer_id, None)
        elif known is None:
            self._boards[racer_id] = _Hiding(game, now)
        else:
            known.update(game, now)
        if before == now:
            return NOTHING
        count, by_card = self._count, self.by_card
        keys = len(count)
        for card in now - before:
            seen = count.get(card, 0)
            if not seen:
                self._hidden_now.add(card)
                by_card[parse_card(card)] = True
            count[card] = seen + 1
        gone = before - now
        for card in gone:
            left = count[card] - 1
            if left:
                count[card] = left
            else:
                del count[card]
                by_card[parse_card(card)] = False
                keys = -1  # a card left the set
        if keys != len(count):
            self.version += 1
        self._cards = None
        return gone


def mask_view(view: Mapping[str, object], hidden: Set[str]) -> dict[str, object]:
    """``view`` (``Game.view()``) with every face-up card of ``hidden`` sent as ``??``.

    Returns a new dict (the given view is not changed); columns and the reserve are
    copied only where a card is masked.

    The legal moves (``legal``) are left out: only the board's own player plays them, and
    a move onto a masked card would tell what that card is (``7C>1``: an 8C lies there).

    >>> view = {"columns": [{"down": 1, "up": ["4H", "3H"]}], "reserve": ["5S"], "stock": 0}
    >>> mask_view(view, {"4H", "5S"})
    {'columns': [{'down': 1, 'up': ['??', '3H']}], 'reserve': ['??'], 'stock': 0}
    >>> view["columns"][0]["up"]
    ['4H', '3H']
    >>> "legal" in mask_view({**view, "legal": ["3H>1"]}, set())
    False
    """
    masked = dict(view)  # a copy in the same order (compiled, faster than a comprehension)
    masked.pop("legal", None)  # a move names a card
    if not hidden:
        return masked
    columns = masked.get("columns")
    if isinstance(columns, list):
        masked["columns"] = [_mask_column(column, hidden) for column in columns]
    reserve = masked.get("reserve")
    if isinstance(reserve, list) and any(card in hidden for card in reserve):
        masked["reserve"] = [MASK if card in hidden else card for card in reserve]
    return masked


def _mask_column(column: object, hidden: Set[str]) -> object:
    if not isinstance(column, dict):
        return column
    up = column.get("up")
    if not isinstance(up, list):
        return column
    for card in up:  # a loop, not any() over a generator: pure Python runs it faster
        if card in hidden:
            return {**column, "up": [MASK if card in hidden else card for card in up]}
    return column
