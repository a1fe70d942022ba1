"""A race room: lobby → countdown → race on the server's clock → results → rematch.

Sans-I/O: every method takes ``now`` (server time, seconds) and returns outputs
(see :mod:`.outputs`). The room owns each racer's engine game; clients get views
(``Game.view()``: never a face-down card) and numbers only.
"""

from __future__ import annotations

from scorpion.engine import Game

from . import room_commands, room_host, room_start
from .commands import (
    Auto,
    Command,
    Deal,
    Follow,
    GiveUp,
    HandHost,
    Hint,
    Join,
    Kick,
    League,
    Leave,
    List,
    Lock,
    Move,
    Rating,
    Ready,
    Rematch,
    Report,
    Start,
    Undo,
)
from .config import RoomConfig
from .errors import RaceError
from .members import EVERYONE, Member
from .messages import AnswerFields, GameFields, Row
from .outputs import ConnId, Message, Output, Persist, Send
from .place import PlaceCore, game_answer
from .place_hooks import AnyPlace
from .players import Player
from .quick_room import QuickSeats
from .racer import Racer
from .ranking import rank_entries
from .records import RoomClosed, RoomOpened, RoundFinished, RoundStarted
from .room_events import Joined, LeftReason, RoomEvent
from .room_feed import RoomFeed
from .room_host import LEAGUE, LIST, LOCK, RATING
from .room_snapshot import snapshot, timeline
from .room_snapshot import summary as room_summary
from .room_start import COUNTDOWN
from .searches import DealFound, SearchAnswer, SearchFailed, SearchTicket
from .settings import RoomSettings
from .states import RACING, Phase


class Room(AnyPlace):
    """One room. Build it with :meth:`open` (new) or ``recovery.restore_room`` (from records)."""

    def __init__(
        self,
        room_id: str,
        creator: Player,
        settings: RoomSettings,
        *,
        created_at: float,
        config: RoomConfig,
        version_base: int = 0,
        quick: QuickSeats | None = None,
    ) -> None:
        self.core = PlaceCore(
            room_id,
            own_game="You can only play on your own seat",
            keep_events=config.keep_events,
            version_base=version_base,
        )
        self.feed = RoomFeed(self.core, config.progress_interval)
        self.id = room_id
        self.creator = creator
        self.host = creator.id  # who may start, remove, lock and hand over (host controls)
        self.locked = False  # nobody new may take a seat (spectators still come and watch)
        self.listed = False  # among the home page's open rooms: anyone may join
        self.removed: set[str] = set()  # players the host removed: they may only watch
        self.reports: set[tuple[str, str]] = set()  # (by, player) reported: kept once
        self.settings = settings
        self.created_at = created_at
        self.config = config
        self.phase: Phase = "lobby"
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
        self.dealing: SearchTicket | None = None  # a start waiting for a winnable deal
        # Set while the room is told a winnable deal is being searched: then, if the search
        # has not answered, it deals an unverified one (and says so).
        self.dealing_until: float | None = None
        self.quick = quick  # a quick race's matched players, until its first round starts
        self.quick_race = quick is not None  # strangers matched by the queue: nobody hosts
        self.ratings: dict[str, Message] | None = None  # the round's rating changes, by player

    def emit(self, out: list[Output], event: RoomEvent, exclude: ConnId | None = None) -> None:
        """A room event to everyone here (``exclude``: but that connection), after the
        progress made before it."""
        self.feed.emit(self, out, event, exclude)

    # ------------------------------------------------------------------ building
    @classmethod
    def open(
        cls,
        room_id: str,
        creator: Player,
        settings: RoomSettings,
        now: float,
        config: RoomConfig,
        quick: QuickSeats | None = None,
    ) -> tuple[Room, list[Output]]:
        """A new room and the record to persist (``quick``: a quick race's room)."""
        room = cls(room_id, creator, settings, created_at=now, config=config, quick=quick)
        seats = quick.to_dict() if quick is not None else None
        record = RoomOpened(room_id, creator.id, creator.name, settings.to_dict(), now, seats)
        return room, [Persist(record)]

    def back_to_lobby(self) -> None:
        """After the results (a rematch): the seated stay seated, nobody ready, no deal."""
        self.phase = "lobby"
        self.ratings = None
        self.racers = {}
        self.results = None
        self.deal = None
        self.verified = False
        self.dealing = self.dealing_until = None
        self.countdown_at = self.started_at = self.ends_at = None
        for member in self.core.members.by_id.values():
            member.ready = False
            if member.following != EVERYONE:  # watching everyone goes on into the next round
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
                place=self.id,
                round=started.round,
                preset=self.settings.preset,
                undo=self.settings.undo_policy,
                hints=self.settings.hints,
                auto=self.settings.auto,
            )
            for pid, name in started.players
        }
        self.feed.hidden.sync(self.racers)  # the last round's boards hide nothing any more

    # ------------------------------------------------------------------ the game path
    def racer_for(self, member: Member) -> Racer:
        racer = self.racers.get(member.id)
        if racer is None:
            if self.phase in RACING or member.role == "spectator":
                raise RaceError("spectator", "Spectators cannot play: join before the start")
            raise RaceError("not-started", "The race has not started")
        if self.phase == "countdown":
            raise RaceError("not-started", "The race has not started yet")
        if self.phase != "racing" or not racer.playing:
            raise RaceError("finished", "Your game is over")
        return racer

    def racer_by_ticket(self, ticket: SearchTicket) -> Racer | None:
        return self.racers.get(ticket.player) if ticket.round == self.round else None

    def after_change(
        self, racer: Racer, now: float, out: list[Output], exclude: ConnId | None
    ) -> None:
        self.feed.progress(self, out, racer, now)
        self.feed.send_view(self, out, racer, exclude=exclude, followers=False)
        if not any(r.playing for r in self.racers.values()):
            self.finish_round(now, out)

    def help_used(self, racer: Racer, now: float, out: list[Output]) -> None:
        self.feed.progress(self, out, racer, now)

    def answer_fields(self, racer: Racer) -> GameFields:
        return game_answer(racer)

    # ------------------------------------------------------------------ its deals' searches
    # (race/room_start.py: a start's, and a quick race's own)
    def dealer(self) -> Room:
        return self

    def dealt(
        self, member: Member, found: DealFound | SearchFailed, now: float, out: list[Output]
    ) -> AnswerFields:
        return room_start.dealt(self, member, found, now, out)

    def after_search(self, out: list[Output]) -> None:
        room_start.after_search(self, out)

    def quick_search(self, ticket: SearchTicket) -> bool:
        return room_start.quick_search(ticket)

    def quick_wanted(self, ticket: SearchTicket) -> bool:
        return room_start.quick_wanted(self, ticket)

    def quick_dealt(self, answer: SearchAnswer, now: float) -> list[Output]:
        return room_start.quick_dealt(self, answer, now)

    # ------------------------------------------------------------------ commands
    def run(
        self, member: Member, conn: ConnId, command: Command, now: float, out: list[Output]
    ) -> AnswerFields | None:
        """Apply one command of ``member`` (ping is answered before it gets here)."""
        match command:
            case Move() | Deal() | Undo() | GiveUp() | Hint() | Auto():
                return self.core.play(self, member, conn, command, now, out)
            case Join(role=role):
                return room_commands.join(self, member, role, out)
            case Leave():
                return room_commands.leave(self, member, now, out)
            case Ready(ready=ready):
                return room_commands.set_ready(self, member, ready, out)
            case Start(seq=seq):
                return room_commands.start(self, member, seq, now, out)
            case Follow(player=player):
                return room_commands.follow(self, member, player)
            case Rematch(round=round_):
                return room_commands.rematch(self, member, round_, now, out)
            case Kick(player=player):
                return room_host.kick(self, member, player, now, out)
            case Lock(locked=locked):
                return room_host.switch(self, member, LOCK, locked, now, out)
            case List(listed=listed):
                return room_host.switch(self, member, LIST, listed, now, out)
            case Rating(rated=rated):
                return room_host.switch(self, member, RATING, rated, now, out)
            case League(league=league):
                return room_host.switch(self, member, LEAGUE, league, now, out)
            case HandHost(player=player):
                return room_host.hand_host(self, member, player, now, out)
            case Report(player=player, reason=reason):
                return room_host.report(self, member, player, reason, now, out)
        raise RaceError("not-allowed", f"There is no {command.name} in a room")

    # ------------------------------------------------------------------ snapshot
    def state(self, now: float) -> Message:
        """The public snapshot (:func:`~.room_snapshot.snapshot`)."""
        return snapshot(self, now)

    def summary(self, now: float) -> Message:
        """For the HTTP room summary: the snapshot without the spectators' follows."""
        return room_summary(self, now)

    # ------------------------------------------------------------------ connections
    def connect(
        self, conn: ConnId, player: Player, last_version: int | None, now: float
    ) -> list[Output]:
        """Attach a connection of ``player``; answer it with a ``welcome``."""
        out: list[Output] = []
        self.advance(now, out)
        # What waits goes to those already here; the newcomer's welcome holds it.
        self.feed.announce_progress(self, out, None)
        member, new = self.core.members.ensure(player)
        was_away = member.away_since is not None
        self.core.members.attach(conn, member)
        self.idle_since = None
        if self.seat_matched(member):  # a matched player arrives: seated and ready
            # Not to the newcomer: their welcome's snapshot holds the seat (sent after this).
            joined: Joined = {"event": "joined", "player": player.to_dict(), "role": "player"}
            self.emit(out, joined, exclude=conn)
            self.emit(out, {"event": "ready", "player": player.id, "ready": True}, exclude=conn)
        elif new:
            self.emit(
                out,
                {"event": "joined", "player": player.to_dict(), "role": "spectator"},
                exclude=conn,
            )
        elif was_away and member.conns == {conn} and member.role == "player":
            self.emit(
                out, {"event": "presence", "player": player.id, "connected": True}, exclude=conn
            )
        racer = self.racers.get(player.id)
        watched = racer or (self.racers.get(member.following) if member.following else None)
        welcome = self.core.welcome(
            {"room": self.id},
            member,
            last_version,
            now,
            status=racer.status if racer else None,
            state=self.state(now),
            view=self.feed.board(self, watched, player.id),
        )
        out.append(Send((conn,), welcome))
        room_start.quick_start(self, now, out)  # the last matched player is here: deal
        return out

    def disconnect(self, conn: ConnId, now: float) -> list[Output]:
        """A connection closed: a player keeps the seat for the grace period."""
        out: list[Output] = []
        member = self.core.disconnect(conn, now)
        if member is None:
            return out
        racer = self.racers.get(member.id)
        if member.role == "player" or (racer and racer.playing):
            self.emit(
                out,
                {
                    "event": "presence",
                    "player": member.id,
                    "connected": False,
                    "grace_until": now + self.config.grace,
                },
            )
        if not self.core.members.by_conn:
            self.idle_since = now
        return out

    # ------------------------------------------------------------------ timers
    def next_deadline(self) -> float | None:
        """The earliest time :meth:`tick` has something to do."""
        # Asked after every command: plain loops, no generator.
        times: list[float] = []
        announce = self.feed.progress_batch.deadline()
        if announce is not None:
            times.append(announce)
        phase = self.phase
        if phase == "countdown" and self.started_at is not None:
            times.append(self.started_at)
        if self.quick is not None and self.dealing is None and phase == "lobby":
            times.append(self.quick.start_by)
        if phase == "racing" and self.ends_at is not None:
            times.append(self.ends_at)
        grace = self.config.grace
        for member in self.core.members.by_id.values():
            if member.away_since is not None:
                times.append(member.away_since + grace)
        if self.idle_since is not None and phase in ("lobby", "results") and not self.league:
            times.append(self.idle_since + self.config.idle_close)
        if self.dealing_until is not None:
            times.append(self.dealing_until)
        if not times:
            return None
        earliest = times[0]
        for at in times:  # min() of two, not of a list: compiled, that one is a generic call
            earliest = min(earliest, at)
        return earliest

    def tick(self, now: float) -> list[Output]:
        out: list[Output] = []
        self.advance(now, out)
        return out

    def advance(self, now: float, out: list[Output]) -> None:
        if self.closed:
            return
        self.core.members.forget_answers_of_away(now)
        if self.feed.progress_batch.due(now):
            self.feed.announce_progress(self, out, now)
        if self.dealing_until is not None and now >= self.dealing_until:
            room_start.deal_unverified(self, now, out)
        room_start.quick_start(self, now, out)
        if self.phase == "countdown" and self.started_at is not None and now >= self.started_at:
            self._start_race(out)
        if self.phase == "racing" and self.ends_at is not None and now >= self.ends_at:
            limit = float(self.settings.time_limit)
            for racer in self.racers.values():
                if racer.playing:
                    racer.stop("timed-out", round(self.ends_at - racer.started_at, 3) or limit)
                    self.feed.progress(self, out, racer, now)
            self.finish_round(now, out)
        for member in list(self.core.members.by_id.values()):
            if member.away_since is not None and now >= member.away_since + self.config.grace:
                self._lose_seat(member, now, out)
        if (
            self.phase == "racing"
            and self.racers
            and not any(r.playing for r in self.racers.values())
        ):
            self.finish_round(now, out)
        idle = self.idle_since is not None and now >= self.idle_since + self.config.idle_close
        idle = idle and not self.league  # a league's link works every week: it stays open
        if idle and not self.core.members.by_conn and self.phase in ("lobby", "results"):
            self.closed = True
            out.append(Persist(RoomClosed(self.id, now)))

    def _lose_seat(self, member: Member, now: float, out: list[Output]) -> None:
        racer = self.racers.get(member.id)
        if racer is not None and racer.playing and self.phase in RACING:
            racer.stop("left", racer.elapsed(now))
            # Seq 0: no command asked for it; replayed by restore like any action.
            out.append(Persist(racer.record(0, "left")))
            self.feed.progress(self, out, racer, now)
        seated = member.role == "player"
        self.core.members.remove(member)
        for other in self.core.members.by_id.values():
            if other.following == member.id and member.id not in self.racers:
                other.following = None
        reason: LeftReason = "seat-lost" if seated else "left"
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
        # Every racer's numbers on the fresh deal (cards already in order count), as a
        # newcomer's snapshot has them: the progress events after it carry only changes.
        racers = list(self.racers.values())
        self.emit(out, self.feed.progress_event(self, racers))
        for racer in racers:
            self.feed.send_view(self, out, racer, None)

    def finish_round(self, now: float, out: list[Output]) -> None:
        if self.phase != "racing":
            return
        assert self.deal is not None
        self.phase = "results"
        self.results = rank_entries(r.entry() for r in self.racers.values())
        out.append(Persist(RoundFinished(self.id, self.round, self.deal, tuple(self.results), now)))
        for racer in self.racers.values():
            out.append(Persist(racer.result(False, now)))
        self.emit(
            out,
            {
                "event": "results",
                "round": self.round,
                "deal": str(self.deal),
                "verified": self.verified,  # the solver proved the deal winnable
                "preset": self.settings.preset,
                "ranking": self.results,
                "timeline": timeline(self),
            },
        )
        if not self.core.members.by_conn:
            self.idle_since = now

    # ------------------------------------------------------------------ a quick race
    # (quick_room.py; its start by itself and its deal: room_start.quick_start, quick_dealt)
    def seat_matched(self, member: Member) -> bool:
        """Seat a matched player as they arrive, ready (a quick race has no Start button)."""
        quick = self.quick
        if quick is None or self.phase != "lobby" or member.id not in quick.players:
            return False
        if member.role == "player":
            return False
        member.role, member.ready = "player", True
        return True

    @property
    def rated(self) -> bool:
        """Whether the round just finished is rated: a quick race's race (its first round;
        a rematch among the same strangers is a friends' round, unrated), or any round of
        a friends' room its host made rated (settled in the lobby, before the round)."""
        if self.quick_race:
            return self.round == 1
        return self.settings.rated

    @property
    def league(self) -> bool:
        """A standing league (race/league.py): points per round; never closed when idle."""
        return self.settings.league and not self.quick_race

    def rated_round(self, round_: int, ratings: dict[str, Row]) -> list[Output]:
        """The store rated round ``round_``: tell the room (the results show the changes)."""
        out: list[Output] = []
        if round_ != self.round or self.phase != "results":
            return out
        self.ratings = ratings
        self.emit(out, {"event": "rated", "round": round_, "ratings": ratings})
        return out
