"""Auto in time: how often Auto's search decides a position from real play, and how fast.

    python benchmarks/auto_in_time.py --presets classic,wasp,strict,relaxed --positions 1000

Positions: for deal ``n`` (1 to ``--positions``), the deal of each preset after a number
of random legal moves (0 to 60, both drawn from a generator seeded with ``n``: the same
positions on every run), stopping early at a won or stuck game. Each is solved once
with Auto's node budget (``scorpion.race.searches.AUTO_NODES``). Printed per preset: the
share decided (won or lost) within the budget, the share decided within 0.3 s, and
seconds per position p50 and p99, by the wall clock and by CPU time (process_time: on a
shared machine the wall clock counts other people's work). Nothing is written
(the lead copies the lines).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from scorpion.engine import Game
from scorpion.race.searches import AUTO_NODES
from scorpion.solver import solve
from scorpion.solver.stats import percentile

GOAL_SECONDS = 0.3


def position(preset: str, deal: int) -> Game:
    """Deal ``deal`` after a seeded number of random legal moves."""
    rng = random.Random(deal)
    game = Game.new(deal, preset)
    for _ in range(rng.randint(0, 60)):
        legal = game.legal_moves()
        if game.over or game.won or not legal:
            break
        game.play(rng.choice(legal))
    return game


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presets", default="classic,wasp,strict,relaxed")
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--max-nodes", type=int, default=AUTO_NODES)
    args = parser.parse_args()
    for preset in args.presets.split(","):
        seconds, cpu_seconds, decided, in_time, in_cpu_time = [], [], 0, 0, 0
        for deal in range(1, args.positions + 1):
            game = position(preset, deal)
            start, cpu_start = time.perf_counter(), time.process_time()
            verdict = solve(game, max_nodes=args.max_nodes).verdict
            took, cpu_took = time.perf_counter() - start, time.process_time() - cpu_start
            seconds.append(took)
            cpu_seconds.append(cpu_took)
            decided += verdict != "unknown"
            in_time += verdict != "unknown" and took <= GOAL_SECONDS
            in_cpu_time += verdict != "unknown" and cpu_took <= GOAL_SECONDS
        n = args.positions
        print(
            f"{preset}: {n} positions, decided within {args.max_nodes} nodes "
            f"{100 * decided / n:.1f}%, within {GOAL_SECONDS} s {100 * in_time / n:.1f}%; "
            f"seconds p50 {percentile(seconds, 0.5):.4f}, p99 {percentile(seconds, 0.99):.3f}; "
            f"CPU: within {GOAL_SECONDS} s {100 * in_cpu_time / n:.1f}%, "
            f"p50 {percentile(cpu_seconds, 0.5):.4f}, p99 {percentile(cpu_seconds, 0.99):.3f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
