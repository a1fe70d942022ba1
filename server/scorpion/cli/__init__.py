"""The ``scorpion`` command: one sub-command per module in :mod:`scorpion.cli`."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Each module defines ``add_parser(subparsers)``, which registers its sub-command and
# sets ``func`` (taking the parsed arguments, returning an exit code) as a default.
COMMANDS = ("backup", "deal", "play", "reports", "restore", "serve", "solve")


def build_parser() -> argparse.ArgumentParser:
    from scorpion import __version__
    from scorpion.build import build

    parser = argparse.ArgumentParser(prog="scorpion", description="Scorpion solitaire races.")
    version = f"scorpion {__version__} ({build()} build)"
    parser.add_argument("--version", action="version", version=version)
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"scorpion.cli.{name}").add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    code: int = args.func(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
