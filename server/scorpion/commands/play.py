"""``scorpion play``: play a deal in the terminal (moves, undo, hints, the board)."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, TextIO

from scorpion.engine import PRESETS, Game, GameRecord, MoveError
from scorpion.race.searches import AUTO_NODES, HINT_NODES
from scorpion.solver import hints, solve

HELP = """Type a move and press Enter:
  4H>7    move the 4H (and every card on it) onto column 7
  4H      tap-to-move: the 4H goes wherever it fits
  deal    deal the stock onto columns 1-3
  undo    take back the last move        hint   the solver's hints (legal moves, winnable?)
  auto    play the solver's next move     board  show the board again
  record  print the game record           resign give up
  quit    leave
"""
PROMPT = "> "
MAX_DEAL = 2**64 - 1


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("play", help="play a deal in the terminal")
    parser.add_argument("number", nargs="?", type=int, help="deal number (random if omitted)")
    parser.add_argument("--preset", default="classic", choices=sorted(PRESETS))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    deal = args.number if args.number is not None else random_deal()
    try:
        game = Game.new(deal, args.preset)
    except ValueError as exc:
        raise SystemExit(f"scorpion play: {exc}") from None
    return play(game, sys.stdin, sys.stdout)


def random_deal() -> int:
    """A deal number drawn from all 2**64 of them."""
    import secrets

    return secrets.randbits(64)


def _hint(game: Game) -> str:
    """The server's hint: every legal move, marked by the solver (same node budget)."""
    marks = {True: "winnable", False: "loses", None: "?"}
    found = [f"{h.move} ({marks[h.winnable]})" for h in hints(game.copy(), max_nodes=HINT_NODES)]
    return "hints: " + (" ".join(found) or "none")


def _auto(game: Game) -> tuple[str, str | None]:
    """The server's Auto: the next move of a winning line, or the verdict without one."""
    solution = solve(game.copy(), max_nodes=AUTO_NODES)
    if solution.verdict == "won" and solution.line:
        return "won", str(solution.line[0])
    return solution.verdict, None


def _status(game: Game) -> str:
    state = (
        " | WON" if game.won else " | gave up" if game.gave_up else " | LOST" if game.lost else ""
    )
    runs = " ".join("SHDC"[s] for s in game.runs) or "none"
    return (
        f"deal {game.deal} ({game.preset}) | score {game.score} | moves {game.moves_made}"
        f" | runs {runs}{state}"
    )


def play(game: Game, stdin: TextIO, stdout: TextIO) -> int:
    """The play loop, reading commands from ``stdin`` until quit or end of input."""
    started = time.monotonic()
    out = stdout.write
    out(HELP + "\n" + game.view_text() + _status(game) + "\n")
    while True:
        out(PROMPT)
        stdout.flush()
        raw = stdin.readline()
        if not raw:  # end of input
            out("\n")
            break
        command = raw.strip()
        elapsed = round(time.monotonic() - started, 1)
        try:
            if command in ("quit", "exit", "q"):
                break
            if command in ("", "board"):
                pass
            elif command in ("help", "?"):
                out(HELP)
                continue
            elif command == "hint":
                out(_hint(game) + "\n")
                continue
            elif command == "auto":
                verdict, move = _auto(game)
                if move is None:
                    out(f"auto: no winning move found ({verdict})\n")
                    continue
                out(f"auto: {move}\n")
                game.play(move, elapsed)
            elif command == "record":
                out(GameRecord.from_game(game).text())
                continue
            elif command == "undo":
                game.undo(elapsed)
            elif command in ("resign", "give up", "give-up"):
                game.give_up(elapsed)
            else:
                game.play(command, elapsed)
        except MoveError as exc:
            out(f"refused ({exc.code}): {exc.message}\n")
            continue
        out(game.view_text() + _status(game) + "\n")
        if game.over:
            out("Game over. Type 'record' for the record or 'quit'.\n")
    return 0
