"""Shared by the solver tests: a plain exhaustive search and hand-made positions."""

from __future__ import annotations

from scorpion.engine import Game

LIMIT = 20_000  # positions the plain search may visit before it gives up

SPADES = "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS"
HEARTS = "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH"

# Two moves from a win: the Ace goes on the 2, then the 2 (with the Ace) on the 3.
WON_IN_TWO = """
stock: -
1: | KS QS JS TS 9S 8S 7S 6S 5S 4S 3S AS
2: | 2S
runs: H D C
"""

# The 6H must go on the 7H, under the 5H; the 5H can only go on the 6H, which is on it.
BLOCKED = """
stock: -
1: | 7H 5H 6H
2: | KH QH JH TH 9H 8H
3: | 4H 3H 2H AH
runs: S D C
"""

# The greedy 2S>1 (a card onto its successor) wins nothing: the AS then has to
# carry the 4H onto the 2S, completing the spades covered, and under the `placed`
# rule the run stays on column 1 for good (its King is the bottom card).
# AS>2, 4H>3, 2S>1 first wins.
TRAP = """
stock: -
1: | KS QS JS TS 9S 8S 7S 6S 5S 4S 3S
2: | KH QH JH TH 9H 8H 7H 6H 2S
3: | 5H AS 4H
4: | 3H 2H AH
runs: D C
"""

# Wasp: 4H>1, 5H>2 completes the hearts; the spades, complete since the deal but covered,
# stay once uncovered (``placed``: only a placement removes a run), so a piece of them must
# go into the empty column and back (QS>2, QS>1). Lost in classic.
RUN_LEFT_BEHIND = """
stock: -
1: | KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS 5H
2: | KH QH JH TH 9H 8H 7H 6H
3: | 4H 3H 2H AH
runs: D C
"""

# Wasp, no stock: the 3S 2S AS (a tail down to its Ace) is forced onto the 4S, whatever the
# empty column offers; then the 9S..AS onto the TS, a King's chain (docs/solver.md).
TAIL_TO_ACE = """
stock: -
1: | 9S 8S 7S 6S 5S 4S
2: | KS QS JS TS 3S 2S AS
3: |
runs: H D C
"""

# Wasp, no stock, one empty column: parking the 4H (its 6H uncovered, the 5H under it) or
# the AH (its 3H uncovered, the 2H under it) leaves no move that needs the park: neither is
# tried (docs/solver.md, "Idle parks"); the other three parks and 3H>1 are. Won.
IDLE_PARKS = """
stock: -
1: | 5H 6H 4H
2: | KH QH JH TH 9H 8H 7H 2H 3H AH
3: |
runs: S D C
"""

# Wasp, no stock, one empty column: parking the KD (the TD on it) makes the TD that column's
# emptying card (it breaks the chain from the King); the TD goes only onto the JD, which
# lies under the KS, and a King never moves while no column is empty; no other column can
# be emptied then either: a dead park (docs/solver.md, "Dead parks"), named without playing it.
KING_PARK = """
stock: -
1: | 6S KD TD
2: | 4D 9D 7D
3: 5S QS 7S 6D 3S | 4S 5D AS JS TS 2D AD 9S QD
4: JD KS 3D 2S | 8D 8S
5: |
runs: H C
"""


def plain_search(game: Game, limit: int = LIMIT) -> bool | None:
    """Whether ``game`` can be won, trying every legal move; None past ``limit`` positions."""
    start = Game.from_text(game.text(), game.rules.with_options(undo="off"))
    if start.won:
        return True
    seen = {start.text()}
    stack = [start]
    while stack:
        position = stack.pop()
        for move in position.legal_moves():
            child = position.copy()
            child.play(move)
            if child.won:
                return True
            text = child.text()
            if text not in seen:
                if len(seen) >= limit:
                    return None
                seen.add(text)
                stack.append(child)
    return False


def replay(game: Game, line: list[str]) -> Game:
    """The game after playing ``line`` on a copy, through the engine."""
    trial = game.copy()
    for move in line:
        trial.play(move)
    return trial


# A King dealt on a King's chain (the KH on the 9S): its run is completed there and removed,
# no pick-up of the KH needed; the emptiness test once named the KH as column 1's card to
# pick up and called this won position lost (found by the agreement tests).
KING_ON_CHAIN = """
stock: -
1: | KS QS JS TS 9S KH QH JH TH 9H
2: | 6S 2H AH 8H 7H 6H 5H 4H 3H
3: | 7S 8S 5S 4S 3S 2S AS
runs: D C
"""


# A King dealt on a card (the KH on the 6D, face down under it) leaves with its run, completed
# in place (6H>1) and removed: the 6D is turned over and the 5D goes onto it. The emptiness
# test once took a King that is not a column's bottom card to stay for good (no King moves
# while no column is empty) and called this won position lost (found in the ninth pass).
KING_ON_CARD = """
stock: -
1: 9D 6D | KH QH JH TH 9H 8H 7H
2: | 5D 6H 5H 4H 3H 2H AH
3: | KD QD JD TD 8D 7D 4D 3D 2D AD
runs: S C
"""

# Column 1's emptying card, the 6S, can go onto the 7S at once, but the KS leaves only with
# its run, completed in place: every spade not on its successor must be picked up first, and
# the QS (face down under 8S 4S 7S) never can be while no column is empty. No other column can
# be emptied either: lost, and the emptiness test says so (before the ninth pass it asked only
# for the 6S).
KINGS_RUN_STUCK = """
stock: -
1:  | KS 6S TS JS
2: QS 8S 4S | 7S
3: 5S 9S AS | 3S 2S
runs: H D C
"""
