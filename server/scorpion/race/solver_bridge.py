"""The solver, when it is there: hints and winnable deals, with plain fallbacks.

The solver package is built alongside this one; it is imported lazily so that
the race layer works (with plain legal moves and unverified deals) before and
without it. Expected there: ``hints(game, max_nodes=...) -> list[Hint]`` with
``Hint.move`` and ``Hint.winnable``, and
``next_winnable_deal(preset, start, max_nodes=...) -> int``.
"""

from __future__ import annotations

import importlib
from typing import Any, Final

from scorpion.engine import Game
from scorpion.engine.deals import MAX_DEAL

HINT_NODES: Final = 20_000  # a hint must answer quickly: it runs on the event loop
DEAL_NODES: Final = 200_000


def _solver_function(name: str) -> Any:
    """``scorpion.solver.<name>`` (a function, or a module holding one), or None."""
    for module_name in (f"scorpion.solver.{name}", "scorpion.solver"):
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        found = getattr(module, name, None)
        if callable(found):
            return found
        if found is not None and callable(getattr(found, name, None)):
            return getattr(found, name)
    return None


def suggest(game: Game, max_nodes: int = HINT_NODES) -> list[dict[str, object]]:
    """Suggested moves: the solver's hints (with ``winnable``), else every legal move.

    >>> suggest(Game.new(1, "classic"))[0].keys()
    dict_keys(['move', 'winnable'])
    """
    hints = _solver_function("hints")
    if hints is not None:
        try:
            found = hints(game.copy(), max_nodes=max_nodes)
            return [{"move": str(h.move), "winnable": h.winnable} for h in found]
        except Exception:  # the solver is optional: a failure there must not fail a hint
            pass
    return [{"move": str(move), "winnable": None} for move in game.legal_moves()]


def winnable_deal(preset: str, start: int, max_nodes: int = DEAL_NODES) -> tuple[int, bool]:
    """The first winnable deal from ``start`` and True, or ``(start, False)`` unverified."""
    find = _solver_function("next_winnable_deal")
    if find is not None:
        try:
            deal = find(preset, start, max_nodes=max_nodes)
            if isinstance(deal, int) and 0 <= deal <= MAX_DEAL:
                return deal, True
        except Exception:  # no solver answer: fall back to an unverified deal
            pass
    return start, False
