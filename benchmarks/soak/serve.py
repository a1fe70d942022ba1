"""``scorpion serve`` with a shorter idle close for rooms, for the soak run.

A room with nobody connected, in its lobby or results, closes after an hour
(``RoomConfig.idle_close``, not a setting): a 30-minute soak would then hold every room
it opened, and its memory would grow with them whatever else it does. Here the soak's
servers close such rooms after ``SECONDS``, so rooms open, race and close within the
run. Nothing else differs from ``scorpion serve``::

    python -m benchmarks.soak.serve SECONDS [scorpion serve flags...]
"""

from __future__ import annotations

import functools
import sys

import scorpion.web.services
from scorpion.cli import main as cli
from scorpion.race import RoomConfig


def main(argv: list[str]) -> int:
    idle_close, rest = float(argv[0]), argv[1:]
    # Services builds the referee's RoomConfig(grace=...): the same, with this idle close.
    shorter = functools.partial(RoomConfig, idle_close=idle_close)
    setattr(scorpion.web.services, "RoomConfig", shorter)  # noqa: B010
    return cli(["serve", *rest])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
