"""A race room: lobby → countdown → race on the server's clock → results → rematch.

Sans-I/O: every method takes ``now`` (server time, seconds) and returns outputs
(see :mod:`.outputs`). The room owns each racer's engine game; clients get views
(``Game.view()``: never a face-down card) and numbers only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from scorpion.engine import Game

from .commands import Command
from .events import EventLog
from .members import Member, Members
from .outputs import ConnId, Message, Output, Persist, Send
from .players import Player
from .racer import Racer
from .ranking import live_ranks, rank_entries
from .records import ActionRecord, RoomClosed, RoomOpened, RoundFinished, RoundStarted
from .settings import RoomSettings
from .solver_bridge import ROOM_DEAL_LIMIT, ROOM_DEAL_NODES, winnable_deal

COUNTDOWN: Final = 3.0
RACING: Final = ("countdown", "racing")


class Room:
    """One room. Build it with :meth:`open` (new) or :meth:`restore` (from records)."""

    def __init__(
        self,
        room_id: str,
        creator: Player,
        settings: RoomSettings,
        *,
        created_at: float,
        deal_source: Callable[[], int],
        grace: float = 60.0,
        keep_events: int = 50,
        idle_close: float = 3600.0,
        version_base: int = 0,
    ) -> None:
        self.id = room_id
        self.creator = creator
        self.settings = settings
        self.created_at = created_at
        self.deal_source = deal_source
        self.grace = grace
        self.idle_close = idle_close
        self.members = Members()
        self.log = EventLog(keep_events, base=version_base)
        self.phase = "lobby"
        self.round = 0
        self.deal: int | None = None
        self.verified = False  # the deal was checked winnable by the solver
        self.countdown_at: float | None = None
        self.started_at: float | None = None
        self.ends_at: float | None = None
        self.racers: dict[str, Racer] = {}
        self.results: list[dict[str, object]] | None = None
        self.idle_since: float | None = created_at
        self.closed = False
        # (preset) -> (deal, verified) or None: winnable deals found off the event loop.
        self.winnable_source: Callable[[str], tuple[int, bool] | None] | None = None

    # ------------------------------------------------------------------ building
    @classmethod
    def open(
        cls,
        room_id: str,
        creator: Player,
        settings: RoomSettings,
        now: float,
        *,
        deal_source: Callable[[], int],
        grace: float = 60.0,
        keep_events: int = 50,
        idle_close: float = 3600.0,
    ) -> tuple[Room, list[Output]]:
        """A new room and the record to persist."""
        room = cls(
            room_id,
            creator,
            settings,
            created_at=now,
            deal_source=deal_source,
            grace=grace,
            keep_events=keep_events,
            idle_close=idle_close,
        )
        record = RoomOpened(room_id, creator.id, creator.name, settings.to_dict(), now)
        return room, [Persist(record)]

    def back_to_lobby(self) -> None:
        """After the results (a rematch): the seated stay seated, nobody ready, no deal."""
        self.phase = "lobby"
        self.racers = {}
        self.results = None
        self.deal = None
        self.verified = False
        self.countdown_at = self.started_at = self.ends_at = None
        for member in self.members.by_id.values():
            member.ready = False
            member.following = None

    def begin_round(self, started: RoundStarted) -> None:
        rules = self.settings.rules()
        self.round = started.round
        self.deal = started.deal
        self.verified = started.verified
        self.countdown_at = started.started_at - COUNTDOWN
        self.started_at = started.started_at
        self.ends_at = started.started_at + started.time_limit if started.time_limit else None
        self.results = None
        self.racers = {
            pid: Racer(
                Player(pid, name),
                Game.new(started.deal, rules),
                started.started_at,
                preset=self.settings.preset,
                undo=self.settings.undo,
                hints=self.settings.hints,
            )
            for pid, name in started.players
        }

    # ------------------------------------------------------------------ helpers
    def emit(self, out: list[Output], event: Message, exclude: ConnId | None = None) -> None:
        message = self.log.append(event)
        conns = tuple(c for c in self.members.all_conns() if c != exclude)
        if conns:
            out.append(Send(conns, message))

    def board(self, racer: Racer | None) -> dict[str, object] | None:
        """A racer's view, or None before the start: nobody sees the deal during the
        countdown (a reconnect or a follow then would give a head start)."""
        if racer is None or self.phase == "countdown":
            return None
        return racer.game.view()

    def _view_message(self, racer: Racer) -> Message:
        return {
            "type": "view",
            "player": racer.player.id,
            "view": racer.game.view(),
            "status": racer.status,
            "elapsed": racer.last_elapsed,
        }

    def send_view(self, out: list[Output], racer: Racer, exclude: ConnId | None) -> None:
        if self.phase == "countdown":
            return  # see board()
        conns = tuple(c for c in self.members.watchers_of(racer.player.id) if c != exclude)
        if conns:
            out.append(Send(conns, self._view_message(racer)))

    def progress(self, out: list[Output], racer: Racer) -> None:
        # issue 14: every racer's live rank (the server ranks; the client only shows it).
        ranks = live_ranks(r.progress() for r in self.racers.values())
        self.emit(out, {"event": "progress", **racer.progress(), "ranks": ranks})

    # ------------------------------------------------------------------ snapshot
    def state(self, now: float) -> Message:
        """The public snapshot (docs/protocol.md section 5): numbers only, no cards."""
        players: list[Message] = []
        racing = bool(self.racers) and self.phase != "lobby"
        for member in self.members.players():
            if racing and member.id in self.racers:
                continue
            players.append(
                {
                    "id": member.id,
                    "name": member.player.name,
                    "ready": member.ready,
                    "connected": member.connected,
                    "status": None,
                }
            )
        if racing:
            ranks = live_ranks(r.progress() for r in self.racers.values())  # issue 14
            for pid, racer in self.racers.items():
                seat = self.members.get(pid)
                entry: Message = {
                    "id": pid,
                    "name": racer.player.name,
                    "ready": True,
                    "connected": bool(seat and seat.connected),
                }
                entry.update(racer.progress())
                entry["rank"] = ranks[pid]  # issue 14
                del entry["player"]
                players.append(entry)
        return {
            "room": self.id,
            "creator": self.creator.id,
            "settings": self.settings.public(),
            "phase": self.phase,
            "round": self.round,
            "countdown_at": self.countdown_at,
            "started_at": self.started_at,
            "ends_at": self.ends_at,
            "players": players,
            "spectators": [
                {"id": m.id, "name": m.player.name, "following": m.following}
                for m in self.members.spectators()
            ],
            "results": self.results,
            "timeline": self._timeline() if self.phase == "results" else None,
            # A string: deal numbers go up to 2**64-1, beyond JavaScript's exact integers.
            "deal": str(self.deal) if self.phase == "results" else None,
            "now": now,
        }

    def _timeline(self) -> dict[str, object]:
        return {pid: [list(p) for p in r.timeline] for pid, r in self.racers.items()}

    def summary(self, now: float) -> Message:
        """For the HTTP room summary: the snapshot without the spectators' follows."""
        data = self.state(now)
        data["spectators"] = len(self.members.spectators())
        return data

    # ------------------------------------------------------------------ connections
    def connect(
        self, conn: ConnId, player: Player, last_version: int | None, now: float
    ) -> list[Output]:
        """Attach a connection of ``player``; answer it with a ``welcome``."""
        out: list[Output] = []
        self.advance(now, out)
        member, new = self.members.ensure(player)
        was_away = member.away_since is not None
        self.members.attach(conn, member)
        self.idle_since = None
        if new:
            self.emit(
                out,
                {"event": "joined", "player": player.to_dict(), "role": "spectator"},
                exclude=conn,
            )
        elif was_away and member.conns == {conn} and member.role == "player":
            self.emit(
                out, {"event": "presence", "player": player.id, "connected": True}, exclude=conn
            )
        events = self.log.since(last_version) if last_version is not None else None
        racer = self.racers.get(player.id)
        watched = racer or (self.racers.get(member.following) if member.following else None)
        welcome: Message = {
            "type": "welcome",
            "room": self.id,
            "you": {
                **player.to_dict(),
                "role": member.role,
                "status": racer.status if racer else None,
            },
            "version": self.log.version,
            "recovered": events is not None,
            "last_seq": member.seqs.last,
            "events": events or [],
            "state": self.state(now),
            "view": self.board(watched),
            "now": now,
        }
        out.append(Send((conn,), welcome))
        return out

    def disconnect(self, conn: ConnId, now: float) -> list[Output]:
        """A connection closed: a player keeps the seat for the grace period."""
        out: list[Output] = []
        member = self.members.detach(conn)
        if member is None or member.conns:
            return out
        member.away_since = now
        racer = self.racers.get(member.id)
        if member.role == "player" or (racer and racer.playing):
            self.emit(
                out,
                {
                    "event": "presence",
                    "player": member.id,
                    "connected": False,
                    "grace_until": now + self.grace,
                },
            )
        if not self.members.by_conn:
            self.idle_since = now
        return out

    # ------------------------------------------------------------------ timers
    def next_deadline(self) -> float | None:
        """The earliest time :meth:`tick` has something to do."""
        times: list[float] = []
        if self.phase == "countdown" and self.started_at is not None:
            times.append(self.started_at)
        if self.phase == "racing" and self.ends_at is not None:
            times.append(self.ends_at)
        times.extend(
            m.away_since + self.grace
            for m in self.members.by_id.values()
            if m.away_since is not None
        )
        if self.idle_since is not None and self.phase in ("lobby", "results"):
            times.append(self.idle_since + self.idle_close)
        return min(times) if times else None

    def tick(self, now: float) -> list[Output]:
        out: list[Output] = []
        self.advance(now, out)
        return out

    def advance(self, now: float, out: list[Output]) -> None:
        if self.closed:
            return
        if self.phase == "countdown" and self.started_at is not None and now >= self.started_at:
            self._start_race(out)
        if self.phase == "racing" and self.ends_at is not None and now >= self.ends_at:
            limit = float(self.settings.time_limit)
            for racer in self.racers.values():
                if racer.playing:
                    racer.stop("timed-out", round(self.ends_at - racer.started_at, 3) or limit)
                    self.progress(out, racer)
            self.finish_round(now, out)
        for member in list(self.members.by_id.values()):
            if member.away_since is not None and now >= member.away_since + self.grace:
                self._lose_seat(member, now, out)
        if (
            self.phase == "racing"
            and self.racers
            and not any(r.playing for r in self.racers.values())
        ):
            self.finish_round(now, out)
        idle = self.idle_since is not None and now >= self.idle_since + self.idle_close
        if idle and not self.members.by_conn and self.phase in ("lobby", "results"):
            self.closed = True
            out.append(Persist(RoomClosed(self.id, now)))

    def _lose_seat(self, member: Member, now: float, out: list[Output]) -> None:
        racer = self.racers.get(member.id)
        if racer is not None and racer.playing and self.phase in RACING:
            racer.stop("left", racer.elapsed(now))
            # Seq 0: no command asked for it; replayed by restore like any action.
            record = ActionRecord(self.id, self.round, member.id, 0, "left", racer.last_elapsed)
            out.append(Persist(record))
            self.progress(out, racer)
        seated = member.role == "player"
        self.members.remove(member)
        for other in self.members.by_id.values():
            if other.following == member.id and member.id not in self.racers:
                other.following = None
        reason = "seat-lost" if seated else "left"
        self.emit(out, {"event": "left", "player": member.id, "reason": reason, "watching": False})

    def _start_race(self, out: list[Output]) -> None:
        self.phase = "racing"
        assert self.started_at is not None
        self.emit(
            out,
            {
                "event": "start",
                "round": self.round,
                "started_at": self.started_at,
                "time_limit": self.settings.time_limit,
                "ends_at": self.ends_at,
                "now": self.started_at,
                "players": list(self.racers),
            },
        )
        for racer in self.racers.values():
            self.send_view(out, racer, None)

    def finish_round(self, now: float, out: list[Output]) -> None:
        if self.phase != "racing":
            return
        assert self.deal is not None
        self.phase = "results"
        self.results = rank_entries(r.entry() for r in self.racers.values())
        out.append(Persist(RoundFinished(self.id, self.round, self.deal, tuple(self.results), now)))
        for racer in self.racers.values():
            out.append(Persist(racer.result(self.id, self.round, False, now)))
        self.emit(
            out,
            {
                "event": "results",
                "round": self.round,
                "deal": str(self.deal),
                "verified": self.verified,  # the solver proved the deal winnable
                "preset": self.settings.preset,
                "ranking": self.results,
                "timeline": self._timeline(),
            },
        )
        if not self.members.by_conn:
            self.idle_since = now

    # ------------------------------------------------------------------ commands
    def handle(self, conn: ConnId, command: Command, now: float) -> list[Output]:
        """One checked command from ``conn``: exactly one answer, plus its effects."""
        from .room_commands import handle

        return handle(self, conn, command, now)

    def choose_deal(self) -> int:
        """The next round's deal: the chosen number (first round only), random or winnable."""
        deal = self.settings.deal
        if isinstance(deal, int) and self.round == 0:
            self.verified = False
            return deal
        start = self.deal_source()
        if deal == "winnable":
            found = self.winnable_source(self.settings.preset) if self.winnable_source else None
            if found is None:  # nothing prepared: a short search here, else unverified
                found = winnable_deal(self.settings.preset, start, ROOM_DEAL_NODES, ROOM_DEAL_LIMIT)
            deal_number, self.verified = found
            return deal_number
        self.verified = False
        return start

    def start_round(self, racers: list[Player], now: float, out: list[Output]) -> None:
        """Deal, persist the round and begin the countdown (checks done by the caller)."""
        deal = self.choose_deal()
        started = RoundStarted(
            room=self.id,
            round=self.round + 1,
            deal=deal,
            started_at=now + COUNTDOWN,
            time_limit=float(self.settings.time_limit),
            players=tuple((p.id, p.name) for p in racers),
            verified=self.verified,
        )
        self.begin_round(started)
        self.phase = "countdown"
        out.append(Persist(started))
        self.emit(
            out,
            {
                "event": "countdown",
                "round": self.round,
                "starts_at": self.started_at,
                "now": now,
                "players": list(self.racers),
            },
        )
