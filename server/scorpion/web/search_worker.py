"""A search worker process: reads search requests on stdin, writes answers on stdout.

Frames are a 4-byte big-endian length and a pickle (parent and child are the same
program: nothing else writes to these pipes). Started by
``scorpion.web.searches.Worker.start``; its warnings and log lines go to the server's
stderr in the server's format.
"""

from __future__ import annotations

import os
import pickle
import signal
import struct
import sys
from collections.abc import Callable
from typing import Any, BinaryIO

from scorpion.race import (
    AutoFound,
    AutoSearch,
    DealFound,
    HintSearch,
    HintsFound,
    SearchAnswer,
    SearchRequest,
)
from scorpion.solver import hints, next_winnable_deal, solve

HEADER = struct.Struct(">I")


def run_search(request: SearchRequest) -> SearchAnswer:
    """The answer to one search request (CPU work: run it in a worker process).

    >>> from scorpion.engine import Game
    >>> from scorpion.race import SearchTicket
    >>> ticket = SearchTicket("room1", 1, "p1", 3, "auto")
    >>> run_search(AutoSearch(ticket, Game.new(1, "classic"))).verdict
    'lost'
    """
    ticket = request.ticket
    if isinstance(request, HintSearch):
        found = hints(request.game, max_nodes=request.max_nodes)
        return HintsFound(ticket, tuple((h.move, h.winnable) for h in found))
    if isinstance(request, AutoSearch):
        solution = solve(request.game, max_nodes=request.max_nodes)
        return AutoFound.from_verdict(ticket, solution.verdict, solution.line)
    start = request.first
    try:
        deal = next_winnable_deal(
            request.preset, start, max_nodes=request.max_nodes, limit=request.limit
        )
    except ValueError:  # none of them proved winnable within the budget: unverified
        return DealFound(ticket, start, False)
    return DealFound(ticket, deal, True)


def read_frame(stream: BinaryIO) -> bytes | None:
    header = stream.read(HEADER.size)
    if len(header) < HEADER.size:
        return None
    return stream.read(HEADER.unpack(header)[0])


def frame(data: bytes) -> bytes:
    return HEADER.pack(len(data)) + data


def yield_to_everything() -> None:
    """Run only when no other process wants the CPU (Linux SCHED_IDLE, else the lowest
    priority): a search may wait, the event loop serving every socket may not."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        os.nice(19)


def serve(run: Callable[[Any], object]) -> None:
    """A worker process's loop: each pickled job from stdin, ``run``, its answer to stdout,
    until stdin closes. The worker yields the CPU to everything else."""
    # Ctrl+C reaches the whole process group: the server stops its workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from . import logs

    logs.setup(*sys.argv[1:3])  # the server's level and format (Worker.start gives them)
    yield_to_everything()
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while (data := read_frame(stdin)) is not None:
        stdout.write(frame(pickle.dumps(run(pickle.loads(data)))))
        stdout.flush()


def main() -> None:
    serve(run_search)


if __name__ == "__main__":
    main()
