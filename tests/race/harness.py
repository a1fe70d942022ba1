"""A fake web layer for the race tests: a fake clock, inboxes, a list of persisted records."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field

from scorpion.race import (
    AutoSearch,
    Close,
    DealSearch,
    HintSearch,
    Output,
    Persist,
    Player,
    Record,
    Referee,
    RoomConfig,
    RoomSettings,
    SearchRequest,
    Send,
)
from scorpion.web.search_worker import run_search
from scorpion_dev.views import fair_view

from .typed_frames import check_frame

__all__ = ["INTERVAL", "T0", "Client", "Harness", "fair_view", "racing", "solo"]

INTERVAL = RoomConfig().progress_interval  # a room's progress events are this far apart
T0 = 1_796_000_000.0  # a fixed server time (2026-11-30 UTC)


@dataclass
class Client:
    """One websocket connection of one player."""

    harness: Harness
    conn: int
    player: Player
    seq: int = 0
    inbox: list[dict[str, object]] = field(default_factory=list)
    closed: tuple[int, str] | None = None

    def command(self, kind: str, **fields: object) -> dict[str, object]:
        """Send a command with the next seq; return its answer (exactly one)."""
        self.seq += 1
        return self.raw({"type": kind, "seq": self.seq, **fields})

    def raw(self, message: object) -> dict[str, object]:
        """Send any message; return the one answer (applied/refused) this connection got."""
        before = len(self.inbox)
        self.harness.feed(self.harness.referee.receive(self.conn, message, self.harness.now))
        answers = [m for m in self.inbox[before:] if m["type"] in ("applied", "refused")]
        seq = message.get("seq") if isinstance(message, dict) else None
        if len(answers) > 1 and seq is not None:  # another seq's answer came too (a stale search)
            answers = [m for m in answers if m.get("seq") == seq]
        assert len(answers) == 1, answers
        return answers[0]

    def events(self, name: str | None = None) -> list[dict[str, object]]:
        return [m for m in self.inbox if m["type"] == "event" and name in (None, m["event"])]

    def progress(self, player: str | None = None) -> list[dict[str, object]]:
        """Each racer's numbers as announced (a ``progress`` event carries every racer that
        changed since the last one), oldest first, each with the event's ranks."""
        return [
            {**entry, "ranks": event["ranks"]}
            for event in self.events("progress")
            for entry in event["players"]  # type: ignore[attr-defined]
            if player in (None, entry["player"])
        ]

    def last(self, kind: str) -> dict[str, object]:
        return [m for m in self.inbox if m["type"] == kind][-1]

    def disconnect(self) -> None:
        self.harness.feed(self.harness.referee.disconnect(self.conn, self.harness.now))


class Harness:
    """Drives a Referee like scorpion.web does, with a clock the test moves."""

    def __init__(
        self, *, deals: Iterator[int] | None = None, grace: float = 60.0, daily_shards: int = 1
    ) -> None:
        self.now = T0
        self.deals = deals or itertools.count(101)
        self.referee = Referee(
            secret=b"test-secret",
            config=RoomConfig(
                grace=grace, deal_source=lambda: next(self.deals), daily_shards=daily_shards
            ),
        )
        # Searches asked for and not yet answered. By default the harness answers each at
        # once, like a worker that is never busy; hold_searches keeps them for the test.
        self.hold_searches = False
        self.searches: list[SearchRequest] = []
        self.conns = itertools.count(1)
        self.clients: dict[int, Client] = {}
        self.records: list[Record] = []
        self.sent: list[tuple[int, dict[str, object]]] = []  # every frame, in order

    def feed(self, outputs: list[Output]) -> None:
        # Like the web layer: every record of the batch first, then the sends in order.
        self.records.extend(o.record for o in outputs if isinstance(o, Persist))
        for output in outputs:
            if isinstance(output, Send):
                check_frame(output.message)  # as its type in race/messages.py says
                for conn in output.conns:
                    self.sent.append((conn, output.message))
                    self.clients[conn].inbox.append(output.message)
            elif isinstance(output, Close):
                self.clients[output.conn].closed = (output.code, output.reason)
            elif isinstance(output, HintSearch | AutoSearch | DealSearch):
                self.searches.append(output)
        while self.searches and not self.hold_searches:
            self.answer_search()

    def answer_search(self, index: int = 0) -> None:
        """Run one search asked for (the first by default) and feed its answer back."""
        request = self.searches.pop(index)
        self.feed(self.referee.searched(run_search(request), self.now))

    def room(self, creator: Player, room_id: str = "room1", **settings: object) -> str:
        self.feed(
            self.referee.create_room(room_id, creator, RoomSettings.from_dict(settings), self.now)
        )
        return room_id

    def connect(self, player: Player, **hello: object) -> Client:
        client = Client(self, next(self.conns), player)
        self.clients[client.conn] = client
        message = {"type": "hello", "token": "t-" + player.id, **hello}
        self.feed(self.referee.hello(client.conn, player, message, self.now))
        return client

    def advance(self, seconds: float) -> None:
        self.now += seconds
        deadline = self.referee.next_deadline()
        while deadline is not None and deadline <= self.now:
            self.feed(self.referee.tick(self.now))
            following = self.referee.next_deadline()
            if following == deadline:
                break
            deadline = following


def solo(player: Player | None = None, **settings: object) -> tuple[Harness, Client]:
    """A room of one racer (Ada by default) whose race has just started."""
    player = player or Player("a", "Ada")
    h = Harness()
    h.room(player, **settings)
    a = h.connect(player, room="room1")
    a.command("join", **{"as": "player"})
    a.command("ready")
    a.command("start")
    h.advance(3)
    return h, a


def racing(grace: float = 60.0, **settings: object) -> tuple[Harness, Client, Client, Client]:
    """Ada ("a") and Bo ("b") racing on deal 7 (unless ``settings`` say otherwise), Cy watching."""
    players = Player("a", "Ada"), Player("b", "Bo"), Player("c", "Cy")
    h = Harness(grace=grace)
    h.room(players[0], **{"deal": 7, **settings})
    a, b, c = (h.connect(p, room="room1") for p in players)
    for cl in (a, b):
        cl.command("join", **{"as": "player"})
        cl.command("ready")
    a.command("start")
    h.advance(3)
    return h, a, b, c
