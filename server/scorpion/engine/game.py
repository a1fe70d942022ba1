"""The game: one player's Scorpion position, its moves, undo and score.

>>> game = Game.new(1, "classic")
>>> game.score, game.runs, game.moves_made, game.won, game.lost
(0, [], 0, False, False)
>>> move = game.legal_moves()[0]
>>> game.play(move) is not None
True
>>> game.undo()
>>> game.moves_made
0
>>> game.play("TS>1")
Traceback (most recent call last):
...
scorpion.engine.errors.MoveError: Rule: cards must be of the same suit
"""

from __future__ import annotations

from collections import deque
from typing import Final

from .cards import (
    ACE,
    CARD_TEXTS,
    KING,
    Card,
    card_name,
    rank_of,
    run_of,
    suit_of,
)
from .deals import check_deal_number, shuffled_deck
from .errors import MoveError
from .legal import RESERVE, legal_moves, legal_texts
from .moves import Move, parse_move, text_of
from .progress import ordered_in_column
from .rules import Rules, get_rules, preset_name

RUNS: Final = tuple(run_of(s) for s in range(4))
TIMED_BLOCK: Final = 30  # seconds per timed-scoring deduction
TIMED_WIN_BONUS: Final = 600_000
_NO_PART: Final[dict[str, object]] = {}  # a column's part of the view before the first view


class Outcome:
    """What one play did, for callers that animate or score it."""

    # A plain class with its own __init__: compiled, a NamedTuple is built through
    # CPython's generic call, and one is built for every move (docs/compiled.md).
    def __init__(
        self,
        move: Move,
        source: int | None,
        turned: tuple[Card, ...],
        runs: tuple[int, ...],
        points: int,
    ) -> None:
        self.move = move
        self.source = source  # column the card left (RESERVE for a reserve cell, None: deal)
        self.turned = turned  # cards that turned face up
        self.runs = runs  # suits of runs that left the tableau
        self.points = points  # score gained

    def __repr__(self) -> str:
        return (
            f"Outcome(move={self.move!r}, source={self.source}, turned={self.turned}, "
            f"runs={self.runs}, points={self.points})"
        )


# An undo record: (dealt, source, index, destination, moved count, source turned, run events,
# points gained, a timed win's bonus included). A run event is (column, suit, turned). Plain
# values only (not the Move): a tuple of them the garbage collector stops walking at once.
_RunEvent = tuple[int, int, bool]
_Undo = tuple[bool, int, int, int, int, bool, tuple[_RunEvent, ...], int]


class Game:
    """A game of Scorpion. Build one with :meth:`new` or :meth:`from_text`."""

    def __init__(
        self,
        rules: Rules,
        columns: list[list[Card]],
        down: list[int],
        stock: list[Card],
        runs: list[int],
        reserve: list[Card] | None = None,
        deal: int | None = None,
    ) -> None:
        self.rules = rules
        self.deal = deal
        self.columns = columns
        self.down = down
        self.stock = stock
        self.reserve = reserve if reserve is not None else []
        self._runs = runs
        self._score = 0
        self._moves_made = 0
        self._history: deque[_Undo] = deque(maxlen=rules.undo)
        self._blocks_charged = 0  # timed scoring: 30-second deductions already applied
        self._elapsed = 0.0
        self._won = self._check_won()
        self._lost = False
        self.gave_up = False
        self._initial_down = sum(down)
        # Every action and the caller's elapsed time at it: the game's log (see record.py and
        # ``log``), in two lists: a tuple an action was one more object for the garbage
        # collector to walk.
        self._actions: list[str] = []
        self._times: list[float | None] = []
        # view(): by column, its part of the view, its cards in their final order, and whether
        # play() or undo() changed it since (plain lists: an object per part was one more
        # for the garbage collector to walk).
        self._parts: list[dict[str, object]] = [_NO_PART] * len(columns)
        self._ordered = [0] * len(columns)
        self._stale = [True] * len(columns)

    # ----------------------------------------------------------------- building
    @classmethod
    def new(cls, deal: int, preset: str | Rules = "classic") -> Game:
        """The opening position of deal number ``deal`` under a preset or rules."""
        rules = get_rules(preset)
        deck = shuffled_deck(check_deal_number(deal))
        if rules.layout == "three-blind-mice":
            columns = [deck[i * 5 : i * 5 + 5] for i in range(10)]
            down = [0] * 7 + [3] * 3
            return cls(rules, columns, down, [], [], reserve=deck[50:52], deal=deal)
        columns = [deck[i * 7 : i * 7 + 7] for i in range(7)]
        down = [3, 3, 3, 3, 0, 0, 0]
        return cls(rules, columns, down, deck[49:52], [], deal=deal)

    @classmethod
    def from_text(cls, text: str, preset: str | Rules = "classic") -> Game:
        """A game from position text (see :mod:`scorpion.engine.notation`)."""
        from .notation import parse_position

        position = parse_position(text)
        if position.hidden:
            raise MoveError("hidden-cards", "A view with ?? cards is not a playable game")
        return cls(
            get_rules(preset),
            position.columns,
            position.down,
            position.stock,
            position.runs,
            reserve=position.reserve,
        )

    def copy(self) -> Game:
        """An independent copy of the position, score and undo history."""
        other = Game(
            self.rules,
            [list(c) for c in self.columns],
            list(self.down),
            list(self.stock),
            list(self._runs),
            reserve=list(self.reserve),
            deal=self.deal,
        )
        other._score, other._moves_made = self._score, self._moves_made
        other._history = deque(self._history, maxlen=self.rules.undo)
        other._blocks_charged, other._elapsed = self._blocks_charged, self._elapsed
        other._won, other._lost, other.gave_up = self._won, self._lost, self.gave_up
        other._initial_down = self._initial_down
        other._actions, other._times = list(self._actions), list(self._times)
        return other

    # --------------------------------------------------------------- read-only
    @property
    def log(self) -> list[tuple[str, float | None]]:
        """Every action (move text, ``undo``, ``give-up``) with its elapsed time, in order:
        the game's record (see record.py). A new list each time."""
        return list(zip(self._actions, self._times, strict=True))

    @property
    def logged(self) -> int:
        """How many actions the log holds (``len(log)``, without building it)."""
        return len(self._actions)

    @property
    def score(self) -> int:
        if self.rules.scoring == "cards":
            return 13 * len(self._runs) if self.rules.runs != "keep" else (52 if self._won else 0)
        return self._score

    @property
    def runs(self) -> list[int]:
        """Suits of the runs removed, in the order they left."""
        return list(self._runs)

    @property
    def moves_made(self) -> int:
        return self._moves_made

    @property
    def won(self) -> bool:
        return self._won

    @property
    def lost(self) -> bool:
        return self._lost

    @property
    def over(self) -> bool:
        return self._won or self._lost

    @property
    def cards_turned(self) -> int:
        """Face-down cards turned face up so far."""
        turned = self._initial_down
        for down in self.down:  # not sum(): compiled, a builtin called by name
            turned -= down
        return turned

    @property
    def can_undo(self) -> bool:
        return bool(self._history) and not self.over

    @property
    def undo_reveals(self) -> bool:
        """Whether the move the next undo would take back showed a card: it turned a
        face-down card (its source's, or one under a run it removed) or dealt the stock.
        False when there is nothing to undo. Fair undo refuses to take such a move back.

        >>> game = Game.new(1, "classic")
        >>> game.undo_reveals
        False
        >>> _ = game.play("deal")
        >>> game.undo_reveals
        True
        """
        if not self._history:
            return False
        dealt, _source, _index, _dest, _count, source_turned, events, _points = self._history[-1]
        return dealt or source_turned or any(flipped for _, _, flipped in events)

    @property
    def preset(self) -> str | None:
        return preset_name(self.rules)

    # ------------------------------------------------------------ legal moves
    def _fits(self, card: Card, top: Card) -> bool:
        if (top - card) % 13 != 1 or card % 13 == 12:
            return False
        return self.rules.build == "any-suit" or top // 13 == card // 13

    def legal_moves(self) -> list[Move]:
        """Every legal move, as :class:`Move` objects that print as move text (by source
        column, then from the deepest card up; the deal last)."""
        if self.over:
            return []
        return legal_moves(self.rules, self.columns, self.down, self.reserve, bool(self.stock))

    def legal_texts(self) -> list[str]:
        """:meth:`legal_moves` as move text (``str`` of each), in the same order."""
        if self.over:
            return []
        return legal_texts(self.rules, self.columns, self.down, self.reserve, bool(self.stock))

    # -------------------------------------------------------------- resolving
    def _locate(self, card: Card) -> tuple[int, int]:
        """(column, index) of a card in play, or a MoveError saying why it cannot move."""
        for j, col in enumerate(self.columns):
            if card in col:
                i = col.index(card)
                if i < self.down[j]:
                    raise MoveError("face-down", f"The {card_name(card)} is face down")
                return j, i
        if card in self.reserve:
            return RESERVE, self.reserve.index(card)
        if card in self.stock:
            # The same words as for the tableau: saying "in the stock" would tell where it is.
            raise MoveError("face-down", f"The {card_name(card)} is face down")
        raise MoveError("not-in-play", f"The {card_name(card)} is no longer in play")

    def _refusal(self, card: Card, source: int, index: int, dest: int) -> MoveError | None:
        """Why moving ``card`` onto column ``dest`` is refused, or None when it is legal."""
        if not 0 <= dest < len(self.columns):
            return MoveError("unknown-column", f"There is no column {dest + 1}")
        if dest == source:
            return MoveError("same-column", "A card cannot move onto its own column")
        target = self.columns[dest]
        if not target:
            if source != RESERVE and index == 0 and self.down[source] == 0:
                return MoveError(
                    "whole-column", "Moving a whole column into an empty column changes nothing"
                )
            if self.rules.empty == "kings" and rank_of(card) != KING:
                return MoveError("empty-needs-king", "Only a King can go in an empty column")
            return None
        top = target[-1]
        if top % 13 == card % 13 + 1 and (
            top // 13 == card // 13 or self.rules.build == "any-suit"
        ):
            return None  # the common case first: it fits
        if rank_of(card) == KING:
            return MoveError(
                "king-onto-card",
                f"There is nowhere on column {dest + 1} for a King: "
                "a King goes only in an empty column",
            )
        if rank_of(top) == ACE:
            return MoveError("onto-ace", "Nothing can go on an Ace")
        if rank_of(top) != rank_of(card) + 1:
            return MoveError(
                "not-one-higher",
                f"The {card_name(card)} must go on a card one rank higher, "
                f"not on the {card_name(top)}",
            )
        if self.rules.build == "same-suit" and suit_of(top) != suit_of(card):
            return MoveError("same-suit", "Rule: cards must be of the same suit")
        return None

    def resolve(self, move: Move | str) -> Move:
        """The full move a move text or tap means, or a MoveError saying why it is refused."""
        return self._resolve(move)[0]

    def _resolve(self, move: Move | str) -> tuple[Move, int, int]:
        """The full move with its source column and index (-2, 0 for a deal)."""
        if isinstance(move, str):
            try:
                move = parse_move(move)
            except ValueError as exc:
                raise MoveError("bad-move", str(exc)) from None
        if self.over:
            raise MoveError("game-over", "The game is over")
        if move.card is None:
            if not self.stock:
                if self.rules.layout == "three-blind-mice":
                    raise MoveError("no-stock", "This game has no stock")
                raise MoveError("stock-dealt", "The stock has already been dealt")
            return move, -2, 0
        source, index = self._locate(move.card)
        if move.to is None:
            return self._tap(move.card, source, index), source, index
        error = self._refusal(move.card, source, index, move.to)
        if error:
            raise error
        return move, source, index

    def _tap(self, card: Card, source: int, index: int) -> Move:
        fits = [
            j
            for j, col in enumerate(self.columns)
            if col and j != source and self._fits(card, col[-1])
        ]
        if len(fits) > 1:
            raise MoveError(
                "ambiguous",
                f"The {card_name(card)} fits on more than one column: choose where it goes",
            )
        if fits:
            return Move(card, fits[0])
        for j, col in enumerate(self.columns):
            if not col and self._refusal(card, source, index, j) is None:
                return Move(card, j)
        raise MoveError("no-target", f"The {card_name(card)} has nowhere to go")

    # ------------------------------------------------------------------ play
    def play(self, move: Move | str, elapsed: float | None = None) -> Outcome:
        """Play a move (object or text). Refused moves raise MoveError and change nothing.

        ``elapsed`` is the play time in seconds so far, for timed scoring and the log.
        """
        move, source, index = self._resolve(move)
        self._charge_time(elapsed)
        rules = self.rules
        columns, down = self.columns, self.down
        timed = rules.scoring == "timed"
        turned: list[Card] = []
        events: list[_RunEvent] = []
        points = 10 if timed else 0
        if move.card is None:
            dest, count, source_turned = -2, 0, False
            for j, card in enumerate(self.stock):
                columns[j].append(card)
                self._stale[j] = True
            self.stock = []
            checked: range | tuple[int, ...] = range(3)
        else:
            card = move.card
            assert move.to is not None
            dest = move.to
            target = columns[dest]
            if not timed and target and target[-1] // 13 == card // 13:
                points += 5
            if source == RESERVE:
                del self.reserve[index]
                target.append(card)
                count, source_turned = 1, False
            else:
                col = columns[source]
                count = len(col) - index
                target.extend(col[index:])
                del col[index:]
                source_turned = bool(col) and down[source] == len(col)
                if source_turned:
                    down[source] -= 1
                    turned.append(col[-1])
                    if not timed:
                        points += 5
            checked = (dest,)
            self._stale[dest] = True
            if source != RESERVE:
                self._stale[source] = True
        if rules.runs != "keep":
            if rules.runs == "any":
                checked = range(len(columns))
            for j in checked:
                found = self._take_runs(j, turned)
                if found:
                    events.extend(found)
                    self._stale[j] = True
            if events:
                points += len(events) * (10 if timed else 100)
                if not timed:
                    points += 5 * sum(1 for event in events if event[2])
        if rules.scoring != "cards":
            self._score += points
        self._moves_made += 1
        self._won = self._check_won()
        if self._won and timed:
            bonus = TIMED_WIN_BONUS // max(1, int(self._elapsed))
            self._score += bonus
            points += bonus
        # The run events as a tuple: most moves have none, and () is one shared object.
        run_events = tuple(events) if events else ()
        undo = (move.card is None, source, index, dest, count, source_turned, run_events, points)
        self._history.append(undo)
        self._actions.append(text_of(move))
        self._times.append(elapsed)
        if not self._won and rules.loss == "detect" and not self.stock and not self.legal_moves():
            self._lost = True
        if self.over:  # nothing undoes a game over: its undo records are memory for nothing
            self._history.clear()  # (a day's daily keeps every finished attempt's game)
        return Outcome(move, None if move.card is None else source, tuple(turned),
                       tuple([e[1] for e in events]), points)  # fmt: skip

    def _take_runs(self, j: int, turned: list[Card]) -> list[_RunEvent]:
        col, events = self.columns[j], []
        while len(col) - self.down[j] >= 13 and col[-1] % 13 == 0:
            suit = col[-1] // 13
            if col[-13:] != RUNS[suit]:
                break
            del col[-13:]
            self._runs.append(suit)
            flipped = bool(col) and self.down[j] == len(col)
            if flipped:
                self.down[j] -= 1
                turned.append(col[-1])
            events.append((j, suit, flipped))
        return events

    def _check_won(self) -> bool:
        if self.rules.runs != "keep":
            return len(self._runs) == 4
        if self.stock or self.reserve or any(self.down):
            return False
        for col in self.columns:
            if len(col) % 13:
                return False
            for k in range(0, len(col), 13):
                if col[k : k + 13] != RUNS[col[k] // 13]:
                    return False
        return True

    def _charge_time(self, elapsed: float | None) -> None:
        if elapsed is None:
            return
        if elapsed < self._elapsed:
            raise MoveError("bad-time", "Elapsed time cannot go backwards")
        self._elapsed = elapsed
        if self.rules.scoring == "timed":
            blocks = int(elapsed // TIMED_BLOCK)
            while self._blocks_charged < blocks:
                self._blocks_charged += 1
                self._score = max(0, self._score - TIMED_BLOCK)

    def tick(self, elapsed: float) -> int:
        """Apply the timed deductions due by ``elapsed`` seconds; return the score."""
        if not self.over:
            self._charge_time(elapsed)
        return self.score

    # ------------------------------------------------------------------ undo
    def undo(self, elapsed: float | None = None) -> None:
        """Take back the last move: cards, face-down state, runs, stock and score."""
        if self.over:
            raise MoveError("game-over", "The game is over")
        if self.rules.undo == 0:
            raise MoveError("undo-off", "Undo is off in this game")
        if not self._history:
            if self._moves_made and self.rules.undo is not None:
                raise MoveError(
                    "undo-limit", f"Only the last {self.rules.undo} moves can be undone"
                )
            raise MoveError("nothing-to-undo", "There is no move to undo")
        self._charge_time(elapsed)
        dealt, source, index, dest, count, source_turned, events, points = self._history.pop()
        columns, down, stale = self.columns, self.down, self._stale
        for j, suit, flipped in reversed(events):
            if flipped:
                down[j] += 1
            columns[j].extend(RUNS[suit])
            stale[j] = True
            self._runs.pop()
        if dealt:
            self.stock = [columns[j].pop() for j in range(3)]
            stale[0] = stale[1] = stale[2] = True
        else:
            stale[dest] = True
            if source != RESERVE:
                stale[source] = True
            target = columns[dest]
            if source == RESERVE:
                self.reserve.insert(index, target.pop())
            else:
                if source_turned:
                    down[source] += 1
                columns[source].extend(target[-count:])
                del target[-count:]
        if self.rules.scoring != "cards":
            self._score = max(0, self._score - points)
        self._moves_made += 1 if self.rules.scoring == "timed" else -1
        self._won = False
        self._actions.append("undo")
        self._times.append(elapsed)

    def give_up(self, elapsed: float | None = None) -> None:
        """End the game as a loss, scored where it stands."""
        if self.over:
            raise MoveError("game-over", "The game is over")
        self._charge_time(elapsed)
        self._lost = self.gave_up = True
        self._history.clear()  # as a game won or lost by its last move
        self._actions.append("give-up")
        self._times.append(elapsed)

    # ------------------------------------------------------------------ text
    def text(self) -> str:
        """The position text (every card shown)."""
        from .notation import format_position

        return format_position(self, hidden=False)

    def view_text(self) -> str:
        """A player's view: face-down cards and the stock as ``??``."""
        from .notation import format_position

        return format_position(self, hidden=True)

    def view(self, legal: bool = True) -> dict[str, object]:
        """A player's view as plain data for the wire: no face-down card is named; with the
        legal moves unless ``legal`` is False (a board shown to others: see race/masking.py).

        A new dict each time, whose columns' parts are kept until a move changes them:
        treat it as read-only. (A whole view kept until the next move lived long enough
        for the garbage collector to walk it, and was freed long after, out of the cache.)
        """
        texts, parts = CARD_TEXTS, self._fresh_parts()
        view: dict[str, object] = {
            "columns": list(parts),  # a new list: a view given out never changes
            "stock": len(self.stock),
            "reserve": [texts[c] for c in self.reserve],
            "runs": ["SHDC"[s] for s in self._runs],
            "score": self.score,
            "moves": self._moves_made,
            "turned": self.cards_turned,
            "won": self._won,
            "lost": self._lost,
            "can_undo": self.can_undo,
            "ordered": self._ordered_count(),  # cards in their final order: the progress bar
        }
        if legal:
            # Every legal move as move text: the client's drag aid and keys use these (it
            # never works out a rule itself). Face-up cards only: nothing hidden is named.
            view["legal"] = self.legal_texts()
        return view

    @property
    def ordered(self) -> int:
        """Cards in their final order (:func:`~.progress.ordered_cards`), counted on the
        view's parts."""
        self._fresh_parts()
        return self._ordered_count()

    def _ordered_count(self) -> int:
        """:attr:`ordered` from the counts kept with the parts (fresh: see _fresh_parts)."""
        ordered = 13 * len(self._runs)
        for count in self._ordered:
            ordered += count
        return ordered

    def _fresh_parts(self) -> list[dict[str, object]]:
        """The view's columns, each part built again if play() or undo() changed it since
        (a move changes one to three). The columns by index: compiled, a zip is a Python
        iterator (docs/compiled.md)."""
        texts, columns, downs = CARD_TEXTS, self.columns, self.down
        parts, stale = self._parts, self._stale
        for j in range(len(columns)):
            if stale[j]:
                column, down = columns[j], downs[j]
                parts[j] = {"down": down, "up": [texts[c] for c in column[down:]]}
                self._ordered[j] = ordered_in_column(column, down)
                stale[j] = False
        return parts

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        rules = self.preset or self.rules
        return f"Game.from_text({self.text()!r}, {rules!r})"
