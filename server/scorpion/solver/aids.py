"""Player aids on top of :func:`solve`: Auto, marked hints, winnable deals (and the
analysis of a game, from :mod:`.analysis`).

>>> from scorpion.engine import Game
>>> game = Game.from_text('''
... stock: -
... 1: | KS QS JS TS 9S 8S 7S 6S 5S 4S 3S AS
... 2: | 2S
... runs: H D C
... ''')
>>> auto_move(game)
'AS>2'
>>> hints(game)
[Hint(move='AS>2', winnable=True)]
"""

from __future__ import annotations

from typing import Final, NamedTuple

from scorpion.engine import Game, Rules, get_rules

from .analysis import ANALYSE_NODES, Analysis, TurningPoint, analyse
from .cache import LostPositions
from .solve import Solution, solve

__all__ = [
    "ANALYSE_NODES",
    "Analysis",
    "Hint",
    "TurningPoint",
    "analyse",
    "auto_move",
    "deal_winnable",
    "hints",
    "next_winnable_deal",
]

AUTO_NODES: Final = 2_000_000
HINT_NODES: Final = 20_000
DEAL_NODES: Final = 2_000_000


class Hint(NamedTuple):
    """A legal move, and whether the game can still be won after it (None: not found out)."""

    move: str
    winnable: bool | None


def auto_move(
    game: Game, *, max_nodes: int | None = AUTO_NODES, max_seconds: float | None = None
) -> str | None:
    """The next move of a winning line, or None when there is none (or none found in budget).

    Auto never concedes: where the game is proved lost, the player is asked to give it up.
    """
    solution = solve(game, max_nodes=max_nodes, max_seconds=max_seconds)
    return solution.line[0] if solution.verdict == "won" and solution.line else None


def _verdict(solution: Solution) -> bool | None:
    return {"won": True, "lost": False}.get(solution.verdict)


def hints(
    game: Game, *, max_nodes: int | None = HINT_NODES, max_seconds: float | None = None
) -> list[Hint]:
    """Every legal move (in the engine's order), marked winnable or not within the budget.

    The searches share the positions they prove lost (:mod:`.cache`).
    """
    out, lost = [], LostPositions()
    for move in game.legal_moves():
        trial = game.copy()
        trial.play(move)
        solution = solve(trial, max_nodes=max_nodes, max_seconds=max_seconds, lost=lost)
        out.append(Hint(str(move), _verdict(solution)))
    return out


# (rules, deal) -> (verdict, node budget it was found with): what the process has learnt.
_deal_verdicts: dict[tuple[Rules, int], tuple[bool | None, int | None]] = {}


def deal_winnable(
    preset: str | Rules, deal: int, *, max_nodes: int | None = DEAL_NODES
) -> bool | None:
    """Whether deal number ``deal`` can be won (None: not found out in budget). Cached."""
    rules = get_rules(preset)
    known = _deal_verdicts.get((rules, deal))
    if known is not None:
        verdict, budget = known
        if verdict is not None or (
            budget is None or (max_nodes is not None and max_nodes <= budget)
        ):
            return verdict
    verdict = _verdict(solve(Game.new(deal, rules), max_nodes=max_nodes, shorten=False))
    _deal_verdicts[(rules, deal)] = (verdict, max_nodes)
    return verdict


def next_winnable_deal(
    preset: str | Rules, start: int, *, max_nodes: int | None = DEAL_NODES, limit: int = 100_000
) -> int:
    """The first deal number from ``start`` on that the solver proves winnable.

    Deals the budget cannot decide are passed over. Raises ValueError when none of
    ``limit`` deals in a row is proved winnable (no preset comes near that).
    """
    for deal in range(start, start + limit):
        if deal_winnable(preset, deal, max_nodes=max_nodes):
            return deal
    raise ValueError(f"no deal from {start} to {start + limit - 1} was proved winnable")
