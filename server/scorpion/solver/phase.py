"""Stubborn sets on the plateau: which moves to try where no column is empty (Wasp).

Under ``empty: any`` with same-suit building, the stock dealt and no reserve, a position
with no empty column allows only *links*: a card ``x`` (with the cards on it) onto its
successor ``x + 1``. Each card links at most once until a column empties (it then lies on
its successor, and only ``x`` ever goes onto ``x + 1``), and links in different places
commute, so the depth-first search met every order of them: the plateau of the hard
losses. A win passes through a first position with an empty column (the won position has
them all empty), reached by links only. A *stubborn set* ``T`` of links, built here, has
three properties (docs/solver.md, "Stubborn sets on the plateau"):

- every way to empty a column picks up a card of ``T`` (each column's emptying card,
  :func:`.prune.emptying_cards`, is in ``T``, or for a King's column a card it waits for
  that can never be picked up: :func:`_seeds`);
- a link of ``T`` that cannot be played yet cannot be made playable by links outside
  ``T`` (``T`` holds, for it, every card one of which must be picked up first);
- a link of ``T`` that can be played commutes with every link outside ``T`` (``T`` holds
  every card that could ever be put, from under ``x + 1``, onto the pile ``x`` carries).

Then for every line from the position to a first empty column, some playable link of
``T`` starts a line one move shorter to the same position, so only those links are tried
(a win's length drops by one at each step, as for the other rules). No playable link in
``T``: no column can ever be emptied, the position is lost.

>>> from scorpion.engine import Game, card_text
>>> game = Game.from_text('''
... stock: -
... 1: | 6H 3S
... 2: | 8H 7H 5H
... 3: | KS QS JS TS 9S 8S 7S 6S 5S 4S
... 4: | KH QH JH TH 9H 4H
... 5: | 2S AS 3H 2H AH
... runs: D C
... ''', "wasp")
>>> from scorpion.solver.state import moves
>>> state = State.of(game)
>>> [step.text() for step in moves(state, game.rules)]
['2S>1', '4H>2', '3S>3', '3H>4']
>>> sorted(card_text(card) for card in stubborn_links(state, game.rules) or ())
['2S', '3S', '4H']

(``3H>4`` waits: no column's emptying needs it, and it commutes with the other links.)
"""

from __future__ import annotations

from scorpion.engine import Rules

from .prune import (
    Cards,
    emptying_cards,
    goals,
    king_waits,
    no_cards,
    pick_needs,
    spread,
    tableau_index,
    target_free,
)
from .state import KING0, State


class Reach:
    """A plateau position's closure, shared by the emptiness test (:func:`plateau_lost`)
    and :func:`stubborn_links`, which the search asks of the same position: its emptying
    cards (:func:`.prune.emptying_cards`), its :func:`.prune.tableau_index`, whether an
    emptying card can be picked up (``emptiable``: the closure stops at the first one, as
    :func:`.prune.never_emptied` does), and the cards that can ever be picked up before a
    column empties (:meth:`pickable`: the closure finished where it stopped, when asked)."""

    def __init__(self, state: State, targets: list[tuple[int, int, int]]) -> None:
        cols = state.cols
        index = tableau_index(cols)
        self.targets = targets
        self.col_of, self.at, self.cover = index
        self._needs = pick_needs(cols, state.down, index, True)
        self._options_met, self._picked = no_cards(), no_cards()
        target = goals(cols)
        missing, waiting, free = self._needs
        self.emptiable = spread(free, missing, waiting, self._options_met, self._picked, target)
        self._stopped = self.emptiable

    def pickable(self) -> Cards:
        """The cards that can ever be picked up while no column is empty."""
        if self._stopped:
            missing, waiting, free = self._needs
            spread(free, missing, waiting, self._options_met, self._picked, no_cards())
            self._stopped = False
        return self._picked


def plateau_lost(state: State) -> tuple[bool, Reach | None]:
    """:func:`.prune.never_emptied` of a position :func:`on_plateau`, with the closure when
    it had to be built (for :func:`stubborn_links` next; None when the quick test decided).

    The same answer as ``never_emptied``: a column that empties with no pick-up, or an
    emptying card free at once, means not lost; else lost unless the closure picks up an
    emptying card.
    """
    targets = emptying_cards(state.cols)
    if targets is None or target_free(state.cols, state.down, targets):
        return False, None
    reach = Reach(state, targets)
    return not reach.emptiable, reach


def on_plateau(state: State, rules: Rules) -> bool:
    """Whether the position is on the plateau: no empty column, no stock, no reserve
    (Wasp's rules: same-suit building, any card into an empty column, runs ``placed``)."""
    return (
        rules.build == "same-suit"
        and rules.empty == "any"
        and rules.runs == "placed"
        and not state.stock
        and not state.reserve
        and all(state.cols)
    )


def stubborn_links(state: State, rules: Rules, reach: Reach | None = None) -> set[int] | None:
    """The cards whose links are worth trying (a stubborn set's playable links), or None
    when the reduction does not apply (an empty column, a stock, a column that empties
    with no pick-up). An empty set: no column can ever be emptied (lost). ``reach``: the
    position's closure (:func:`plateau_lost`), when the caller has built it."""
    if not on_plateau(state, rules):
        return None
    if reach is None:
        targets = emptying_cards(state.cols)
        if targets is None:
            return None
        reach = Reach(state, targets)
    # The cards that can ever be picked up before a column empties (the emptiness test's
    # closure, an over-approximation): a link of any other card never happens.
    return _stubborn(state, reach.targets, (reach.col_of, reach.at, reach.cover), reach.pickable())


def _stubborn(
    state: State,
    targets: list[tuple[int, int, int]],
    index: tuple[list[int], list[int], list[int]],
    pickable: Cards,
) -> set[int]:
    """The stubborn set's playable links, from the emptying cards, the columns' index and
    the cards that can be picked up (see :func:`stubborn_links`)."""
    cols, down = state.cols, state.down
    col_of, at, cover = index
    chosen = no_cards()
    playable: set[int] = set()
    work = _seeds(cols, targets, col_of, pickable)
    while work:
        x = work.pop()
        if chosen[x]:
            continue
        chosen[x] = True
        if not pickable[x]:
            continue  # never picked up while no column is empty
        j, i = col_of[x], at[x]
        col = cols[j]
        # Why it cannot be played yet: each reason names cards one of which must go first.
        if i < down[j]:
            work.append(col[i + 1])  # face down: the card on it must be picked up
            continue
        if x % 13 == KING0:
            # A King (not a column's bottom card) leaves only with its run, completed in
            # place: every card of :func:`.prune.king_waits` must be linked first; one of
            # them will do (none: a complete run, which no link removes).
            work.extend(sorted(king_waits(col, i, _linked(cols), col_of))[:1])
            continue
        c = cover[x + 1]
        if c >= 0:
            work.append(c)  # its successor is covered: that card must be picked up
            continue
        if col_of[x + 1] == j and at[x + 1] > i:
            work.extend(col[i + 1 : at[x + 1] + 1])  # its successor lies above it
            continue
        playable.add(x)
        work.extend(_conflicts(cols, col_of, at, pickable, x))
    return playable


def _seeds(
    cols: tuple[bytes, ...],
    targets: list[tuple[int, int, int]],
    col_of: list[int],
    pickable: Cards,
) -> list[int]:
    """One card per column that must be linked before the column empties: its emptying card,
    except in a column whose bottom card is a King, which waits for every card of
    :func:`.prune.king_waits` (its emptying card among them): one of those that can never
    be picked up, if any (the column never empties, and that card adds nothing to the set),
    else its emptying card."""
    seeds: list[int] = []
    linked: Cards | None = None
    for col, (t, _, _) in zip((col for col in cols if col), targets, strict=True):
        if col[0] % 13 == KING0 and pickable[t]:
            if linked is None:
                linked = _linked(cols)
            t = next((c for c in king_waits(col, 0, linked, col_of) if not pickable[c]), t)
        seeds.append(t)
    return seeds


def _linked(cols: tuple[bytes, ...]) -> Cards:
    """Per card: whether it lies on its successor (never picked up while no column is empty)."""
    linked = no_cards()
    for col in cols:
        for k in range(1, len(col)):
            if col[k - 1] == col[k] + 1 and col[k] % 13 != KING0:
                linked[col[k]] = True
    return linked


def _conflicts(
    cols: tuple[bytes, ...], col_of: list[int], at: list[int], pickable: Cards, x: int
) -> list[int]:
    """The cards whose link could ever, with no column empty, put ``x + 1`` on the pile
    that ``x`` carries (the only links that do not commute with ``x``'s).

    Such a card ``z`` is picked up (so it can be, and it is not on its successor) while it
    lies at or under ``x + 1``, and ``z + 1`` tops ``x``'s pile then. The pile's top changes
    only as a card of it that can be picked up leaves (the card under it is the top), or as
    a top's predecessor that can be picked up is put on it. The cards that can ever lie at
    or under ``x + 1``: those there now, and, as a card ``v`` there may be picked up onto
    ``v + 1``, ``v + 1`` and all that can ever lie at or under ``v + 1``.
    """
    j, i = col_of[x], at[x]
    pile = cols[j][i:]
    tops = no_cards()
    stack = [pile[-1]]
    for k in range(1, len(pile)):
        # Left by a pick-up (a card not on its successor) or a run's removal (from its King).
        if (pickable[pile[k]] and pile[k - 1] != pile[k] + 1) or pile[k] % 13 == KING0:
            stack.append(pile[k - 1])
    while stack:
        q = stack.pop()
        if not tops[q]:
            tops[q] = True
            if q % 13 and pickable[q - 1]:
                stack.append(q - 1)
    out: list[int] = []
    seen = no_cards()
    stack = [x + 1]
    while stack:
        c = stack.pop()
        if seen[c]:
            continue
        seen[c] = True
        below = cols[col_of[c]]
        for k in range(at[c] + 1):  # by index (compiled, see .prune.tableau_index)
            v = below[k]
            if pickable[v] and v % 13 != KING0 and not (k and below[k - 1] == v + 1):
                if tops[v + 1]:
                    out.append(v)
                stack.append(v + 1)
    return out


def plateau_view(state: State, rules: Rules) -> tuple[bool, set[int] | None] | None:
    """What the search asks of a plateau position: whether it is lost
    (:func:`plateau_lost`) and, if not, its stubborn set's playable links (None: the
    reduction does not apply); None when the position is not on the plateau."""
    if not on_plateau(state, rules):
        return None
    lost, reach = plateau_lost(state)
    if lost:
        return True, None
    return False, stubborn_links(state, rules, reach)


def park_used(state: State, src: int, at: int, links: set[int]) -> bool:
    """Whether one of ``links`` (the stubborn set after the park) needs the park of the pile
    from ``src``'s card ``at`` (docs/solver.md, "Unused parks"): ``y - 1`` onto ``y``, the
    card the pile lay on; ``y`` itself when the park turned it over; a card of ``y``'s
    column onto the pile's top card. Every other link is legal before the park too, and
    played first gives the same position (the argument of :func:`.parks.idle_park`)."""
    col = state.cols[src]
    if at == 0:
        return True  # no card under the pile: not a park this rule knows
    y = col[at - 1]
    if at == state.down[src] and y in links:
        return True
    if y % 13 and y - 1 in links:
        return True
    top = col[-1]
    return bool(top % 13) and top - 1 in links and 0 <= col.find(top - 1) < at
