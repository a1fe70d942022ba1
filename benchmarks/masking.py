"""Masking cost: what a follower's view costs on top of the plain ``Game.view()``.

    .venv/bin/python benchmarks/masking.py [--racers 10] [--moves 2000] [--runs 5]

A room of N racers on one deal; at each step one racer (in turn) plays a random legal
move, then its followers' view is built the way the room builds it: ``HiddenCards.sync``
over every racer (only the mover is read again) and ``mask_view``. Prints the median of
several runs: microseconds per plain view, per masked view (sync + view + mask) and the
difference, and how many cards were hidden on average.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from scorpion.engine import Game
from scorpion.race.masking import Board, HiddenCards, mask_view


def run(racers: int, moves: int, seed: int) -> tuple[float, float, float]:
    rng = random.Random(seed)
    deal = rng.randrange(1, 2**32)
    games = [Game.new(deal, "classic") for _ in range(racers)]
    hidden = HiddenCards()
    plain = masked = 0.0
    hidden_total = steps = 0
    for step in range(moves):
        game = games[step % racers]
        legal = game.legal_moves()
        if not legal:  # this racer is stuck: start it again (a new game object)
            games[step % racers] = game = Game.new(deal, "classic")
            legal = game.legal_moves()
        game.play(rng.choice(legal))
        boards = {str(i): Board(g, True) for i, g in enumerate(games)}
        start = time.perf_counter()
        game.view()
        middle = time.perf_counter()
        hidden.sync(boards)
        mask_view(game.view(), hidden.cards)
        end = time.perf_counter()
        plain += middle - start
        masked += end - middle
        hidden_total += len(hidden.cards)
        steps += 1
    return plain / steps * 1e6, masked / steps * 1e6, hidden_total / steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--racers", type=int, default=10)
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    results = [run(args.racers, args.moves, seed) for seed in range(args.runs)]
    plain = statistics.median(r[0] for r in results)
    masked = statistics.median(r[1] for r in results)
    cards = statistics.median(r[2] for r in results)
    print(f"racers {args.racers}, moves {args.moves}, median of {args.runs} runs")
    print(f"plain view:  {plain:8.1f} us")
    print(f"masked view: {masked:8.1f} us (sync + view + mask)")
    print(f"masking adds {masked - plain:8.1f} us per followed board change")
    print(f"cards hidden on average: {cards:.1f}")


if __name__ == "__main__":
    main()
