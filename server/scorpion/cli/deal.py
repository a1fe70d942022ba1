"""``scorpion deal N --preset P``: print a deal's opening position text."""

from __future__ import annotations

import argparse
from typing import Any

from scorpion.engine import PRESETS, Game


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("deal", help="print the position text of a deal number")
    parser.add_argument("number", type=int, help="deal number, 0 to 2**64-1")
    parser.add_argument("--preset", default="classic", choices=sorted(PRESETS))
    parser.add_argument("--view", action="store_true", help="hide face-down cards as ??")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        game = Game.new(args.number, args.preset)
    except ValueError as exc:
        raise SystemExit(f"scorpion deal: {exc}") from None
    print(game.view_text() if args.view else game.text(), end="")
    return 0
