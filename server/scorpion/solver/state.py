"""A compact, immutable copy of a game position for fast search.

The engine's :class:`~scorpion.engine.Game` is built for play (undo history, scores,
refusal messages); the solver expands hundreds of thousands of positions, so it
works on :class:`State`: columns as ``bytes`` (one byte per card, bottom first),
face-down counts, stock and reserve. :func:`moves` and :func:`play` mirror the
engine's ``legal_moves`` and ``play`` exactly (tests compare them move by move);
the engine stays the judge: every winning line is replayed through it.

>>> from scorpion.engine import Game
>>> state = State.of(Game.new(1, "classic"))
>>> len(state.cols), state.down, len(state.stock)
(7, (3, 3, 3, 3, 0, 0, 0), 3)
"""

from __future__ import annotations

from typing import Final, NamedTuple

from scorpion.engine import Game, Rules, card_text

KING0: Final = 12  # a King's rank index (card % 13)
DEAL_SOURCE: Final = -2  # the source of the deal move
RESERVE_SOURCE: Final = -1  # the source of a card played from a reserve cell
_BYTE: Final = tuple(bytes((i,)) for i in range(256))  # one-byte strings, made once
_new: Final = tuple.__new__
RUNS: Final = tuple(bytes(s * 13 + r for r in range(12, -1, -1)) for s in range(4))


class Step(NamedTuple):
    """A move: ``src`` column (or RESERVE_SOURCE, DEAL_SOURCE), card index ``at``, ``dest``."""

    src: int
    at: int
    dest: int
    card: int

    def text(self) -> str:
        if self.src == DEAL_SOURCE:
            return "deal"
        return f"{card_text(self.card)}>{self.dest + 1}"


DEAL_STEP: Final = Step(DEAL_SOURCE, 0, 0, -1)


class State(NamedTuple):
    """A position. ``runs`` counts the runs removed (only the count matters for play)."""

    cols: tuple[bytes, ...]
    down: tuple[int, ...]
    stock: bytes
    reserve: bytes
    runs: int

    @classmethod
    def of(cls, game: Game) -> State:
        return cls(
            tuple(bytes(col) for col in game.columns),
            tuple(game.down),
            bytes(game.stock),
            bytes(game.reserve),
            len(game.runs),
        )

    def key(self) -> bytes:
        """A canonical key: columns are interchangeable, except those the stock will be dealt on."""
        # By index, not map: compiled, each map is a generic call per column; pure, as fast.
        cols, down = self.cols, self.down
        parts = [_BYTE[down[j]] + cols[j] for j in range(len(cols))]
        fixed = len(self.stock)
        if fixed:
            parts[fixed:] = sorted(parts[fixed:])
        else:
            parts.sort()
        return b"\xff".join(parts) + b"\xfe" + self.stock + b"\xfe" + bytes(sorted(self.reserve))


def is_won(state: State, rules: Rules) -> bool:
    """The engine's win test."""
    if rules.runs != "keep":
        return state.runs == 4
    if state.stock or state.reserve or any(state.down):
        return False
    for col in state.cols:
        if len(col) % 13:
            return False
        for k in range(0, len(col), 13):
            if col[k : k + 13] != RUNS[col[k] // 13]:
                return False
    return True


def moves(state: State, rules: Rules, all_empties: bool = False) -> list[Step]:
    """The legal moves (the engine's, though not in its order).

    Empty columns are interchangeable, so only one of them is offered as a
    destination, unless the stock is still to be dealt on it (or ``all_empties``).
    Moves are found from the targets (a top card's predecessors, a King for an
    empty column), not by trying every face-up card: this is the solver's hot spot.
    """
    cols, down, reserve = state.cols, state.down, state.reserve
    tops: list[tuple[int, int]] = []
    empties: list[int] = []
    fixed = len(state.stock)
    for j, col in enumerate(cols):
        if col:
            tops.append((col[-1], j))
        elif all_empties or j < fixed or not empties or empties[-1] < fixed:
            empties.append(j)
    out: list[Step] = []
    append = out.append
    # Steps made by tuple.__new__ directly: the NamedTuple's own __new__ is a Python call.
    suits = (0, 13, 26, 39) if rules.build == "any-suit" else (None,)
    for top, dest in tops:
        rank0 = top % 13
        if not rank0:
            continue
        for base in suits:
            card = top - 1 if base is None else base + rank0 - 1
            for j, col in enumerate(cols):
                # ``in`` first: a find per column is a method call with its arguments parsed.
                if card in col:
                    i = col.find(card)
                    if i >= down[j] and j != dest:
                        append(_new(Step, (j, i, dest, card)))
                    break
            else:
                i = reserve.find(card)
                if i >= 0:
                    append(_new(Step, (RESERVE_SOURCE, i, dest, card)))
    if empties:
        kings_only = rules.empty == "kings"
        for j, col in enumerate(cols):
            # A whole column (no face-down card) into an empty one would change nothing.
            start = down[j] or 1
            for i in range(start, len(col)):
                card = col[i]
                if not kings_only or card % 13 == KING0:
                    for e in empties:
                        append(_new(Step, (j, i, e, card)))
        for i, card in enumerate(reserve):
            if not kings_only or card % 13 == KING0:
                for e in empties:
                    append(_new(Step, (RESERVE_SOURCE, i, e, card)))
    if state.stock:
        append(DEAL_STEP)
    return out


def play(state: State, step: Step, rules: Rules) -> State:
    """The position after a legal move (not checked), with runs taken as the engine does."""
    cols = list(state.cols)
    down = list(state.down)
    stock, reserve = state.stock, state.reserve
    checked: range | tuple[int, ...]
    if step.src == DEAL_SOURCE:
        for j, card in enumerate(stock):
            cols[j] += bytes((card,))
        checked = range(len(stock))
        stock = b""
    else:
        dest = step.dest
        if step.src == RESERVE_SOURCE:
            cols[dest] += reserve[step.at : step.at + 1]
            reserve = reserve[: step.at] + reserve[step.at + 1 :]
        else:
            col = cols[step.src]
            cols[dest] += col[step.at :]
            col = cols[step.src] = col[: step.at]
            if col and down[step.src] == len(col):
                down[step.src] -= 1
        checked = (dest,)
    runs = state.runs
    if rules.runs != "keep":
        if rules.runs == "any":
            checked = range(len(cols))
        for j in checked:
            col = cols[j]
            while (
                len(col) - down[j] >= 13 and col[-1] % 13 == 0 and col[-13:] == RUNS[col[-1] // 13]
            ):
                col = cols[j] = col[:-13]
                runs += 1
                if col and down[j] == len(col):
                    down[j] -= 1
    return State(tuple(cols), tuple(down), stock, reserve, runs)
