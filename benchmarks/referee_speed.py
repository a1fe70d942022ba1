"""The race layer's cost per move, without sockets or a store: what one acknowledgement
costs the server in Python before any I/O.

    .venv/bin/python benchmarks/referee_speed.py [--rooms 100] [--moves 30000] [--runs 5]

Rooms of 4 racers and a follower (like ``benchmarks/load``'s play phase) replay winning
lines of solver-proved deals, every 8th move undone and played again, the racers taking
turns across rooms as a closed loop would bring their commands. The clock moves on by
``1 / --rate`` seconds per command, so progress is batched as under that load. Each
command's outputs are handled as ``web/bridge.py`` does before I/O: the records turned
into store writes and every message encoded. Prints the median of several runs of the
microseconds per command, for the referee alone and with the web layer's share.

The garbage collector runs as the server sets it (``--collector served``): what the set-up
built is frozen and young collections come from web/collector.py's ``Collections`` on the
benchmark's clock, as the server's come from its event loop's; their pauses are counted in
the referee's figure. ``--collector trigger`` leaves the young collections to CPython's own
trigger (700 objects born), as this benchmark did from 2026-12-02 to 2026-12-04: some 250
collections a second at this rate where the server runs 4 to 20. ``--collector default``
leaves CPython's as it comes, as before 2026-12-02: its full collections walk every room's
games again (py-spy put a fifth of the compiled build's time in them).
"""

from __future__ import annotations

import argparse
import gc
import itertools
import statistics
import sys
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.load.phases import winning_lines
from benchmarks.load.roles import replayed_line

from scorpion.race import Output, Persist, Player, Referee, RoomConfig, RoomSettings, Send
from scorpion.web import collector
from scorpion.web.records import RecordWriter

ROOM_SIZE = 4


class Seat:
    """One racer's connection and the commands it sends."""

    def __init__(self, conn: int, steps: list[tuple[str, dict[str, object]]], seq: int) -> None:
        # The steps made ahead, with the rooms (frozen with them): a generator's state,
        # made again at every step, was young objects for every collection to walk.
        self.conn, self.steps, self.seq = conn, steps, seq  # seq: the last one sent
        self.taken = 0

    def next_command(self) -> dict[str, object]:
        """The next command as a socket's reader hands it over: a new dict."""
        kind, fields = self.steps[self.taken]
        self.taken += 1
        self.seq += 1
        return {"type": kind, "seq": self.seq, **fields}


def seat_rooms(referee: Referee, rooms: int, now: float, steps: int) -> list[Seat]:
    """``rooms`` rooms seated and started, each racer's first ``steps`` commands made."""
    lines = winning_lines()
    conns = itertools.count(1)
    seats: list[Seat] = []

    def call(conn: int, kind: str, seq: int, **fields: object) -> None:
        referee.receive(conn, {"type": kind, "seq": seq, **fields}, now)

    for index in range(rooms):
        deal, line = lines[index % len(lines)]
        players = [Player(f"p{index}.{seat}", f"racer {seat}") for seat in range(ROOM_SIZE)]
        room = f"room{index}"
        settings = RoomSettings.from_dict(
            {"time_limit": 0, "max_players": ROOM_SIZE, "deal": deal, "undo": "full"}
        )  # full undo: every 8th move is undone, whatever it showed
        referee.create_room(room, players[0], settings, now)
        hello = {"type": "hello", "token": "t", "room": room}
        racers = []
        for player in players:
            conn = next(conns)
            referee.hello(conn, player, hello, now)
            call(conn, "join", 1, **{"as": "player"})
            call(conn, "ready", 2, ready=True)
            racers.append(conn)
        call(racers[0], "start", 3)
        follower = next(conns)
        referee.hello(follower, Player(f"f{index}", "follower"), hello, now)
        call(follower, "follow", 1, player=players[0].id)
        line_steps = list(itertools.islice(replayed_line(line, 8), steps))
        seats += [Seat(conn, line_steps, seq=3) for conn in racers]
    return seats


def run(rooms: int, moves: int, rate: float, collection: str) -> tuple[float, float]:
    """Microseconds per command: the referee's (with the collections as ``collection``
    says), and the records' and encoding's."""
    now = 1_796_000_000.0
    referee = Referee(secret=b"bench", config=RoomConfig(deal_source=lambda: 1))
    writer = RecordWriter(referee.room_settings)
    seats = seat_rooms(referee, rooms, now, steps=moves // (rooms * ROOM_SIZE) + 1)
    if collection != "default":
        collector.settle()  # what the set-up built is frozen, as the server freezes its own
    if collection == "trigger":
        gc.set_threshold(*collector.DEFAULT_THRESHOLDS)
    now += 5.0  # past the countdown
    referee.tick(now)
    collections = collector.Collections(now) if collection == "served" else None
    collect_at = now + collector.YOUNG_EVERY[0]
    step = 1.0 / rate
    race = web = 0.0
    for index in range(moves):
        seat = seats[index % len(seats)]
        command = seat.next_command()
        now += step
        started = time.perf_counter()
        if collections is not None and now >= collect_at:
            collect_at = now + collections.run(now)  # the server's loop would run it here
        outputs: list[Output] = referee.receive(seat.conn, command, now)
        deadline = referee.next_deadline()
        if deadline is not None and deadline <= now:
            outputs += referee.tick(now)
        middle = time.perf_counter()
        for out in outputs:
            if isinstance(out, Persist):
                writer.writes(out.record)
            elif isinstance(out, Send):
                (out.encoded or orjson.dumps(out.message)).decode()
                if out.message.get("type") == "refused":  # measure play, never refusals
                    raise SystemExit(f"command {command} refused: {out.message}")
        web += time.perf_counter() - middle
        race += middle - started
    return race / moves * 1e6, web / moves * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--moves", type=int, default=30_000)
    parser.add_argument("--rate", type=float, default=6000.0, help="commands per second")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--collector",
        choices=("served", "trigger", "default"),
        default="served",
        help="the garbage collector as the server runs it (web/collector.py), with CPython's "
        "trigger for young collections, or CPython's as it comes",
    )
    args = parser.parse_args()
    results = [run(args.rooms, args.moves, args.rate, args.collector) for _ in range(args.runs)]
    race = statistics.median(r[0] for r in results)
    web = statistics.median(r[1] for r in results)
    print(
        f"{args.rooms} rooms of {ROOM_SIZE} and a follower, {args.moves} commands at "
        f"{args.rate:g}/s, median of {args.runs}: referee {race:.1f} us, "
        f"records and encoding {web:.1f} us, together {race + web:.1f} us per command"
    )


if __name__ == "__main__":
    main()
