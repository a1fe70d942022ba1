"""Idle parks: a pile put into the last empty column when no next move could use it.

Under ``empty: any`` with the stock dealt, a *park* moves a pile ``P`` (its bottom card
``c`` lying on ``y``) into an empty column. When that fills the last empty column, every
next move is a card onto its successor, and most of them could as well be played before
the park, with the same result. Only a move that needs the park cannot: ``y - 1`` onto
``y`` (now a top); a card of ``y``'s column onto ``P``'s top card (before, it would have
carried ``P`` along); ``y`` itself when the park turned it over; ``c`` onto ``c + 1``
(one move from the start does the same: no shortest win does that). A shortest win can
always be reordered so that each such park is followed at once by a move that needs it
(docs/solver.md, "Idle parks"), so a park after which no such move is legal is not tried.

>>> from scorpion.engine import Game
>>> from scorpion.solver.state import State, Step
>>> game = Game.from_text('''
... stock: -
... 1: | 9S 8S 7S 6S 5S 4S
... 2: | KS QS JS TS 3S 2S AS
... 3: | 5H 6H 4H
... 4: | KH QH JH TH 9H 8H 7H 3H 2H AH
... 5: |
... runs: D C
... ''', "wasp")
>>> state, rules = State.of(game), game.rules
>>> idle_park(state, Step(1, 4, 4, 2), rules)  # 3S 2S AS uncovers the TS: the 9S can go on it
False
>>> idle_park(state, Step(2, 2, 4, 16), rules)  # the 4H uncovers the 6H; the 5H is under it
True
"""

from __future__ import annotations

from scorpion.engine import Rules

from .prune import emptying_cards, goals, meet, no_cards, pick_needs, spread
from .state import KING0, RUNS, State, Step


def _face_up(state: State, card: int) -> bool:
    """Whether ``card`` lies face up on the tableau."""
    cols, down = state.cols, state.down
    for j in range(len(cols)):  # by index: compiled, a zip is a Python iterator
        col = cols[j]
        if card in col:  # before find, as in .state.moves
            return col.find(card) >= down[j]
    return False


def idle_park(state: State, step: Step, rules: Rules) -> bool:
    """Whether ``step`` parks a pile in the last empty column with no move to use it next
    (``empty: any``, same-suit building, no stock or reserve; else False)."""
    cols, down = state.cols, state.down
    src, at = step.src, step.at
    if src < 0 or cols[step.dest] or state.stock or state.reserve:
        return False
    if sum(not col for col in cols) != 1:
        return False  # another empty column stays: a park may follow
    col = cols[src]
    pile = col[at:]
    y = col[at - 1]
    turned = at == down[src]
    if len(pile) >= 13 and pile[-13:] == RUNS[pile[-1] // 13]:
        return False  # it removes a run
    if y % 13 == 0:
        # Under ``any``, a complete run under the pile would go; under ``placed``, a card
        # that carries the Ace onto its successor next may complete the Ace's run, which
        # it would not with the pile still on the Ace.
        return False
    if y - 1 in pile or (y - 1 not in col and _face_up(state, y - 1)):
        return False  # y - 1 (face up, not under y) can go onto y
    top = pile[-1]
    if turned:
        # The card turned over may move: onto its successor (a top elsewhere, P's top too).
        return not any(other and other[-1] == y + 1 for other in cols) or y % 13 == 12
    if top % 13:
        i = col.find(top - 1)
        if down[src] <= i < at:
            return False  # a face-up card under the pile can go onto its top now
    return True


def dead_parks(state: State, rules: Rules) -> set[tuple[int, int]]:
    """The parks into the last empty column, as ``(column, index)`` of the pile's bottom
    card, after which no column can ever be emptied (:func:`.prune.never_emptied` of the
    position they lead to), found without playing them (no stock; else none).

    Parking ``P`` (bottom card ``c``) changes what the emptiness test sees only as follows:
    what ``c``'s pick-up would meet is met (``P`` has left ``y``'s column), and ``c`` is the
    bottom of a column, so picking it up empties one (a King's pile: the column's emptying
    card is the first that breaks the chain from the King, or the one that goes on the
    chain's last, as :func:`.prune.emptying_cards` says). So the test's closure over the
    position without the empty column is computed once, and each park only adds ``c``'s
    effect. Kept (left to the test after the move): a pile from a column whose bottom is a
    King (its emptying card may change), a pile on its successor.
    """
    cols, down = state.cols, state.down
    if rules.build != "same-suit" or rules.runs == "keep" or state.stock or state.reserve:
        return set()
    if sum(not col for col in cols) != 1:
        return set()
    targets = emptying_cards(cols)
    if targets is None:
        return set()
    target = goals(cols)
    missing, waiting, free = pick_needs(cols, down, None, True)
    options_met, picked = no_cards(), no_cards()
    if spread(free, missing, waiting, options_met, picked, target):
        return set()  # a column can be emptied without a park
    dead: set[tuple[int, int]] = set()
    for j, col in enumerate(cols):
        if not col or col[0] % 13 == KING0:
            continue
        for at in range(down[j] or 1, len(col)):
            c = col[at]
            if col[at - 1] == c + 1:
                continue
            t = c if c % 13 != KING0 else _king_target(cols, col[at:])
            if t < 0 or picked[t] or target[t]:
                continue  # the new column needs no pick-up, or its card can be picked up
            need, met, held = missing[:], options_met[:], picked[:]
            free = []
            meet(c, waiting, need, met, free)  # what c's leaving meets
            target[t] = True  # the card whose pick-up now empties the new column
            if not spread(free, need, waiting, met, held, target):
                dead.add((j, at))
            target[t] = False
    return dead


def _king_target(cols: tuple[bytes, ...], pile: bytes) -> int:
    """The emptying card (:func:`.prune.emptying_cards`) of a column that holds just
    ``pile``, a King's: the first card that breaks the chain from the King, or the card
    that goes on the chain's last (-1 when the pile is a complete run: no pick-up needed)."""
    i = 1
    while i < len(pile) and (pile[i] == pile[i - 1] - 1 or pile[i] % 13 == KING0):
        i += 1  # a King starts a chain of its own (as in :func:`.prune.emptying_cards`)
    if i < len(pile):
        return pile[i]
    last = pile[-1]
    if last % 13 == 0 or not any(last - 1 in col for col in cols):
        return -1
    return last - 1
