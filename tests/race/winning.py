"""A small bounded depth-first search for a winning line, so tests can make real winners."""

from __future__ import annotations

from scorpion.engine import Game


def winning_line(game: Game, max_nodes: int = 50_000) -> list[str] | None:
    """Move texts that win from ``game`` (found by bounded search), or None."""
    seen: set[str] = set()
    line: list[str] = []
    nodes = 0

    def search(g: Game) -> bool:
        nonlocal nodes
        if g.won:
            return True
        nodes += 1
        if nodes > max_nodes or len(line) > 600:
            return False
        key = g.text()
        if key in seen:
            return False
        seen.add(key)
        # Moves that turn cards or complete runs first: a cheap ordering that finds wins fast.
        moves = sorted(g.legal_moves(), key=lambda m: m.card is None)
        for move in moves:
            child = g.copy()
            child.play(move)
            line.append(str(move))
            if search(child):
                return True
            line.pop()
        return False

    import sys

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        return list(line) if search(game.copy()) else None
    finally:
        sys.setrecursionlimit(limit)
