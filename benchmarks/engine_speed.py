"""Engine speed: random playouts on this machine.

    .venv/bin/python benchmarks/engine_speed.py [--runs 5] [--deals 200]

Prints the median of several runs of each figure: play+undo pairs per second,
legal-move generations per second, full random games per second, and the
peak memory of one game with its whole undo history.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import tracemalloc
from collections.abc import Callable

from scorpion.engine import Game, Rules
from scorpion.solver import solve


def play_undo_pairs(deals: int, seed: int) -> tuple[int, float]:
    """Walk random games; at every step play a random legal move, undo it, then play it."""
    rng, pairs, spent = random.Random(seed), 0, 0.0
    for deal in range(deals):
        game = Game.new(deal, "classic")
        for _ in range(150):
            moves = game.legal_moves()
            if not moves:
                break
            move = rng.choice(moves)
            start = time.perf_counter()
            game.play(move)
            if game.over:
                spent += time.perf_counter() - start
                break
            game.undo()
            spent += time.perf_counter() - start
            pairs += 1
            game.play(move)
    return pairs, spent


def move_generations(deals: int, seed: int) -> tuple[int, float]:
    rng, games = random.Random(seed), []
    for deal in range(deals):
        game = Game.new(deal, "classic")
        for _ in range(rng.randrange(30)):
            moves = game.legal_moves()
            if not moves or game.over:
                break
            game.play(rng.choice(moves))
        games.append(game)
    start = time.perf_counter()
    for _ in range(50):
        for game in games:
            game.legal_moves()
    return 50 * len(games), time.perf_counter() - start


def random_games(deals: int, seed: int) -> tuple[int, float]:
    """Whole games of random legal moves (at most 300 moves, no undo), from the deal."""
    rng = random.Random(seed)
    start = time.perf_counter()
    for deal in range(deals):
        game = Game.new(deal, "classic")
        for _ in range(300):
            moves = game.legal_moves()
            if not moves or game.over:
                break
            game.play(rng.choice(moves))
    return deals, time.perf_counter() - start


def peak_game_memory(deal: int = 1988) -> tuple[int, int]:
    """Peak bytes while dealing ``deal`` and playing a whole winning line (found by the
    solver beforehand) with unlimited undo history, and the line's length."""
    line = solve(Game.new(deal, "classic")).line
    tracemalloc.start()
    game = Game.new(deal, Rules(undo=None))
    for move in line:
        game.play(move, elapsed=1.0)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert game.won
    return peak, len(line)


def median_rate(measure: Callable[[int, int], tuple[int, float]], deals: int, runs: int) -> float:
    return statistics.median(
        count / spent for count, spent in (measure(deals, s) for s in range(runs))
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--deals", type=int, default=200)
    args = parser.parse_args()
    deals, runs = args.deals, args.runs
    print(f"engine speed, median of {runs} runs over {deals} deals each (classic)")
    peak, moves = peak_game_memory()
    rows = [
        ("play+undo pairs per second", f"{median_rate(play_undo_pairs, deals, runs):,.0f}"),
        ("legal-move generations per second", f"{median_rate(move_generations, deals, runs):,.0f}"),
        ("full random games per second", f"{median_rate(random_games, deals, runs):,.1f}"),
        (f"peak memory of a won game ({moves} moves)", f"{peak / 1024:,.1f} KiB"),
    ]
    for name, value in rows:
        print(f"  {name:<36}{value:>14}")


if __name__ == "__main__":
    main()
