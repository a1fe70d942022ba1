"""What issue 14's fields cost per move: the legal moves in every view, the ``ordered``
progress measure and the live ranks in every ``progress`` event.

    .venv/bin/python benchmarks/progress_fields.py [--racers 10] [--moves 2000] [--runs 5]

A room of N racers on one deal; at each step one racer (in turn) plays a random legal
move, then the numbers the room sends are built as the room builds them: the mover's
``Game.view()`` (which lists the legal moves) and ``live_ranks`` over every racer's
progress (each with its ``ordered_cards``). Prints the median of several runs, in
microseconds per move: the view, the legal moves within it, ``ordered_cards`` for one
board, and the ranks of the whole room.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from scorpion.engine import Game
from scorpion.engine.progress import ordered_cards
from scorpion.race.ranking import live_ranks


def progress(pid: str, game: Game) -> dict[str, object]:
    """The fields ``Racer.progress`` sends that the ranking and the bars read."""
    return {
        "player": pid,
        "status": "playing",
        "elapsed": 0.0,
        "runs": len(game.runs),
        "score": game.score,
        "moves": game.moves_made,
        "ordered": ordered_cards(game),
    }


def run(racers: int, moves: int, seed: int) -> tuple[float, float, float, float]:
    rng = random.Random(seed)
    deal = rng.randrange(1, 2**32)
    games = [Game.new(deal, "classic") for _ in range(racers)]
    totals = [0.0, 0.0, 0.0, 0.0]
    for step in range(moves):
        game = games[step % racers]
        legal = game.legal_moves()
        if not legal:  # this racer is stuck: start it again
            games[step % racers] = game = Game.new(deal, "classic")
            legal = game.legal_moves()
        game.play(rng.choice(legal))
        t0 = time.perf_counter()
        game.view()
        t1 = time.perf_counter()
        [str(m) for m in game.legal_moves()]
        t2 = time.perf_counter()
        ordered_cards(game)
        t3 = time.perf_counter()
        live_ranks(progress(str(i), g) for i, g in enumerate(games))
        t4 = time.perf_counter()
        for i, dt in enumerate((t1 - t0, t2 - t1, t3 - t2, t4 - t3)):
            totals[i] += dt
    return tuple(t / moves * 1e6 for t in totals)  # type: ignore[return-value]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--racers", type=int, default=10)
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    results = [run(args.racers, args.moves, seed) for seed in range(args.runs)]
    view, legal, ordered, ranks = (statistics.median(r[i] for r in results) for i in range(4))
    print(f"{args.racers} racers, {args.moves} moves, median of {args.runs} runs, us per move:")
    print(f"  Game.view() {view:.1f} (of which the legal moves {legal:.1f})")
    print(f"  ordered_cards, one board {ordered:.1f}")
    print(f"  live ranks of the room (every racer's ordered_cards included) {ranks:.1f}")


if __name__ == "__main__":
    main()
