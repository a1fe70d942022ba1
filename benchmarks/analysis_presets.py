"""The turning-point analysis per preset: time per analysed game, with and without the
shared cache of positions proved lost.

    python benchmarks/analysis_presets.py --presets classic,wasp,strict,relaxed --games 100

Games: deal ``n`` (1 to ``--games``) of each preset, played by random legal moves (a
generator seeded with ``n``, one undo in ten) to a stuck game or ``--cap`` actions, then
given up. Each is analysed with the server's budgets (``web/analysis_worker.py``:
100,000 nodes a position, 1,000,000 a game), once with the cache and once without.
Printed per preset: seconds per game p50 and p99 and nodes per game, both ways, and how
many games came out undecided. Nothing is written.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter

from scorpion.engine import Game
from scorpion.engine.record import apply_action
from scorpion.solver import analyse
from scorpion.solver.stats import percentile
from scorpion.web.analysis_worker import GAME_NODES, POSITION_NODES


def random_game(preset: str, deal: int, cap: int) -> tuple[Game, list[str]]:
    rng = random.Random(deal)
    game = Game.new(deal, preset)
    trial, actions = game.copy(), list[str]()
    while not trial.over and not trial.won and len(actions) < cap:
        moves = trial.legal_moves()
        if not moves:
            break
        text = "undo" if actions and trial.can_undo and rng.random() < 0.1 else None
        text = text or str(rng.choice(moves))
        apply_action(trial, text, None)
        actions.append(text)
    if not trial.over and not trial.won:
        actions.append("give-up")
    return game, actions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presets", default="classic,wasp,strict,relaxed")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--cap", type=int, default=60)
    args = parser.parse_args()
    for preset in args.presets.split(","):
        for cache in (True, False):
            seconds, nodes, outcomes = [], [], Counter[str]()
            for deal in range(1, args.games + 1):
                game, actions = random_game(preset, deal, args.cap)
                start = time.perf_counter()
                analysis = analyse(
                    game, actions, max_nodes=POSITION_NODES, total_nodes=GAME_NODES, cache=cache
                )
                seconds.append(time.perf_counter() - start)
                nodes.append(float(analysis.nodes))
                outcomes[analysis.outcome] += 1
            print(
                f"{preset} ({'cache' if cache else 'no cache'}): {args.games} games, "
                f"seconds p50 {percentile(seconds, 0.5):.3f}, p99 {percentile(seconds, 0.99):.3f}; "
                f"nodes p50 {percentile(nodes, 0.5):.0f}, p99 {percentile(nodes, 0.99):.0f}; "
                f"undecided {outcomes['undecided']}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
