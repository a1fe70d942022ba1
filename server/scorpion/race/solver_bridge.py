"""The solver, when it is there: hints, Auto and winnable deals, with plain fallbacks.

The solver package is built alongside this one; it is imported lazily so that
the race layer works (with plain legal moves and unverified deals) before and
without it. Used there: ``hints(game, max_nodes=..., max_seconds=...) -> [Hint]``
with ``Hint.move`` and ``Hint.winnable``, and
``next_winnable_deal(preset, start, max_nodes=..., limit=...) -> int`` and
``solve(game, max_nodes=..., max_seconds=...)`` with ``.verdict`` and ``.line``.

Budgets are small on purpose: a hint or an Auto runs on the event loop; a daily's deal is
searched once per day (the web layer runs that search in another process).
"""

from __future__ import annotations

import importlib
from typing import Any, Final

from scorpion.engine import Game
from scorpion.engine.deals import MAX_DEAL

HINT_NODES: Final = 5_000  # per legal move
HINT_SECONDS: Final = 0.05  # per legal move: a hint must answer at once
AUTO_NODES: Final = 5_000  # one search from the position (about 0.3 s)...
AUTO_SECONDS: Final = 0.3  # ...and never longer: the loop serves every other room
DEAL_NODES: Final = 20_000  # per deal tried (about 0.4 s); undecided deals are passed over
DEAL_LIMIT: Final = 100  # deals tried before settling for an unverified one
ROOM_DEAL_NODES: Final = 5_000  # a room's winnable-only deal is searched at its start...
ROOM_DEAL_LIMIT: Final = 10  # ...on the event loop: at most about a second


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


def suggest(game: Game) -> list[dict[str, object]]:
    """Suggested moves: the solver's hints (with ``winnable``), else every legal move.

    >>> [sorted(h) for h in suggest(Game.new(1, "classic"))][0]
    ['move', 'winnable']
    """
    hints = _solver_function("hints")
    if hints is not None:
        try:
            found = hints(game.copy(), max_nodes=HINT_NODES, max_seconds=HINT_SECONDS)
            return [{"move": str(h.move), "winnable": h.winnable} for h in found]
        except Exception:  # the solver is optional: a failure there must not fail a hint
            pass
    return [{"move": str(move), "winnable": None} for move in game.legal_moves()]


def auto_step(game: Game) -> tuple[str, str | None]:
    """Auto's search: ``("won", first move of a winning line)``, ``("lost", None)`` when no
    line wins, or ``("unknown", None)`` when the budget ran out (or there is no solver).

    The solver sees the whole game, face-down cards included: only the server runs it,
    and the player sees no more than the move it plays.

    >>> auto_step(Game.new(6, "classic"))[0]
    'won'
    >>> auto_step(Game.new(1, "classic"))
    ('lost', None)
    """
    solve = _solver_function("solve")
    if solve is not None:
        try:
            found = solve(game.copy(), max_nodes=AUTO_NODES, max_seconds=AUTO_SECONDS)
            if found.verdict == "won" and found.line:
                return "won", str(found.line[0])
            if found.verdict == "lost":
                return "lost", None
        except Exception:  # the solver is optional: a failure there must not fail the room
            pass
    return "unknown", None


def winnable_deal(
    preset: str, start: int, max_nodes: int = DEAL_NODES, limit: int = DEAL_LIMIT
) -> tuple[int, bool]:
    """The first deal from ``start`` the solver proves winnable within ``limit`` deals and
    True, or ``(start, False)`` (unverified) when there is no solver or none was proved."""
    find = _solver_function("next_winnable_deal")
    if find is not None:
        try:
            deal = find(preset, start, max_nodes=max_nodes, limit=limit)
            if isinstance(deal, int) and 0 <= deal <= MAX_DEAL:
                return deal, True
        except Exception:  # none proved in budget, or no solver answer: unverified
            pass
    return start, False
