"""An analysis worker process: reads analysis jobs on stdin, writes answers on stdout.

The same framing as :mod:`.search_worker` (a 4-byte length and a pickle), and the same
idle priority: an analysis may wait, the event loop may not.
``python -m scorpion.web.analysis_worker``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from scorpion.engine import GameRecord, MoveError, get_rules

from .search_worker import serve

# Node budgets (not seconds: the same game gets the same analysis on any machine). About
# 25,000 nodes a second on this machine: a position at most 4 s, a game at most 40 s.
POSITION_NODES: Final = 100_000
GAME_NODES: Final = 1_000_000


@dataclass(frozen=True, slots=True)
class AnalysisJob:
    """One finished game to analyse: its preset, deal and actions (from its game row)."""

    game_id: str
    preset: str
    deal: int
    actions: tuple[tuple[str, float | None], ...]
    max_nodes: int = POSITION_NODES
    total_nodes: int = GAME_NODES


def run_analysis(job: AnalysisJob) -> dict[str, Any]:
    """The job's analysis as stored (``Analysis.to_dict()``), or ``{"error": why}``.

    >>> from scorpion.engine import Game
    >>> game = Game.new(3, "classic")
    >>> first = str(game.legal_moves()[0])
    >>> run_analysis(AnalysisJob("room1:1:p1", "classic", 3, ((first, 1.0),)))["outcome"]
    'still-winnable'
    >>> bad = AnalysisJob("room1:1:p1", "classic", 3, (("QS>9", 1.0),))
    >>> run_analysis(bad)["error"]  # doctest: +ELLIPSIS
    'the game log does not replay: ...'
    """
    from scorpion.solver import analyse  # the solver only in the worker

    # Undo as the log has it: the room's undo policy was checked when it was played.
    rules = get_rules(job.preset).with_options(undo=None)
    try:
        record = GameRecord(rules, job.deal, actions=job.actions)
        record.replay()
    except (MoveError, ValueError) as exc:
        return {"error": f"the game log does not replay: {exc}"}
    analysis = analyse(record, max_nodes=job.max_nodes, total_nodes=job.total_nodes)
    return analysis.to_dict()


def main() -> None:
    serve(run_analysis)


if __name__ == "__main__":
    main()
