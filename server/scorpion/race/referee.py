"""The referee: every room and daily of one process, fed with messages and the clock.

This is the one object the web layer drives (sans-I/O, like the websockets
library: no sockets, no asyncio, no store). Every method returns a list of
:mod:`outputs <scorpion.race.outputs>`: persist the ``Persist`` records of the list
first (one transaction), then perform its ``Send`` and ``Close`` in order.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable

from .commands import parse_command, parse_hello
from .config import RoomConfig
from .daily import Daily, check_date, daily_seed, utc_date
from .disclosure import live_numbers
from .errors import RaceError
from .outputs import Close, ConnId, Message, Output, Send, refused
from .place_hooks import AnyPlace
from .players import Player
from .practice import Practice
from .protocol import (
    PROTOCOL,
    UNKNOWN_ROOM,
    date_of,
    parse_game_id,
    practice_player,
    shard_of_key,
)
from .quick_room import QuickSeats
from .racer import Racer
from .records import Record
from .recovery import Logs, restore_room
from .room import Room
from .searches import SearchAnswer, SearchTicket
from .settings import RoomSettings


def unverified_daily(date: str, seed: int) -> tuple[int, bool]:
    """A daily's deal with no search: the seed itself, marked unverified."""
    return seed, False


class Referee:
    """All rooms and dailies of one process.

    ``secret`` derives the daily deals; ``config`` says how rooms run (grace, events
    kept, idle close, random deals). ``daily_deal`` maps (date, seed) to (deal,
    verified) for a daily not prepared ahead (:meth:`prepare_daily`); the referee never
    searches, so by default such a daily's deal is its seed, unverified.
    """

    def __init__(
        self,
        *,
        secret: bytes,
        config: RoomConfig | None = None,
        daily_deal: Callable[[str, int], tuple[int, bool]] = unverified_daily,
    ) -> None:
        self.secret = secret
        self.config = config or RoomConfig()
        self.daily_deal = daily_deal
        self.rooms: dict[str, Room] = {}
        self._deadlines: dict[str, float | None] = {}  # by room id or daily key
        self._heap: list[tuple[float, str]] = []
        self.dailies: dict[str, Daily] = {}
        self.practices: dict[str, Practice] = {}  # by player id
        self.places: dict[ConnId, AnyPlace] = {}  # where each connection is
        self.restore_errors: list[str] = []  # rooms restore could not rebuild (logged by web)

    # ------------------------------------------------------------------ metrics
    @property
    def connection_count(self) -> int:
        return len(self.places)

    # ------------------------------------------------------------------ rooms
    def create_room(
        self,
        room_id: str,
        creator: Player,
        settings: RoomSettings,
        now: float,
        quick: QuickSeats | None = None,
    ) -> list[Output]:
        """Open a room (HTTP "create a room", or a quick race the queue formed: ``quick``);
        outputs hold its ``RoomOpened`` record."""
        if room_id in self.rooms:
            raise ValueError(f"room {room_id!r} already exists")
        room, out = Room.open(room_id, creator, settings, now, self.config, quick)
        self.rooms[room_id] = room
        self._touch(room)
        return out

    def rated_round(self, room_id: str, round_: int, ratings: dict[str, Message]) -> list[Output]:
        """A quick race's round was rated (web/ratings.py): the room shows the changes."""
        room = self.rooms.get(room_id)
        return [] if room is None else room.rated_round(round_, ratings)

    def league_round(self, room_id: str, round_: int, points: dict[str, int]) -> list[Output]:
        """A league round's points were kept (web/leagues.py): the room is told."""
        room = self.rooms.get(room_id)
        if room is None or room.closed:
            return []
        out: list[Output] = []
        room.emit(out, {"event": "league-points", "round": round_, "points": points})
        return out

    def room_settings(self, room_id: str) -> dict[str, object] | None:
        """The settings a room was opened with (its chosen deal included: not for the wire)."""
        room = self.rooms.get(room_id)
        return room.settings.to_dict() if room is not None else None

    def room_summary(self, room_id: str, now: float) -> Message | None:
        """The room's public snapshot (protocol section 5), None for an unknown room."""
        room = self.rooms.get(room_id)
        return room.summary(now) if room is not None else None

    # ------------------------------------------------------------------ dailies
    def daily(self, date: str, now: float) -> Daily:
        """The daily of ``date`` (YYYY-MM-DD, not in the future); RaceError unknown-room."""
        date = check_date(date, now)
        daily = self.dailies.get(date)
        if daily is None:
            self.evict_dailies(now)
            deal, verified = self.daily_deal(date, daily_seed(self.secret, date))
            daily = self.prepare_daily(date, deal, verified)
        return daily

    def evict_dailies(self, now: float) -> None:
        """Forget past days' dailies nobody is connected to or playing (memory stays bounded
        however many dates clients ask for). Their results are in the store."""
        today = utc_date(now)
        for date, daily in list(self.dailies.items()):
            if date < today and not daily.core.members.by_conn and not daily.live:
                del self.dailies[date]
                self._deadlines.pop(daily.core.key, None)

    def prepare_daily(self, date: str, deal: int, verified: bool) -> Daily:
        """Install a daily whose deal was found elsewhere (``daily.daily_deal`` in a thread).

        A daily already in memory is kept as it is.
        """
        if date not in self.dailies:
            self.dailies[date] = Daily(
                date,
                deal,
                verified,
                keep_events=self.config.keep_events,
                shards=self.config.daily_shards,
            )
        return self.dailies[date]

    def hear_board(self, date: str, entries: list[Message]) -> None:
        """A day's whole leaderboard from the store (its shards' results): ranks, the
        top and ``rank`` frames then count every shard, not only those held here."""
        daily = self.dailies.get(date)
        if daily is not None:
            daily.hear_board(entries)
            self._touch(daily)

    def hear_playing(self, date: str, source: str, part: Message, now: float) -> None:
        """Another owner's part of a day's "playing now" (the shards it holds): merged into
        the ``playing`` events of this process's part of the day."""
        daily = self.dailies.get(date)
        if daily is not None:
            daily.feed.hear_playing(source, part, now)
            self._touch(daily)

    def forget_player(self, player_id: str) -> None:
        """A deleted player: off every daily's leaderboard and "playing now"."""
        for daily in self.dailies.values():
            daily.forget_player(player_id)
            self._touch(daily)

    def daily_summary(self, date: str, now: float) -> Message | None:
        """For ``GET /api/daily/<date>``: leaderboard, live players, verified; never the deal."""
        try:
            return self.daily(date, now).summary(now)
        except RaceError:
            return None

    # ------------------------------------------------------------------ practice
    def practice(self, player: Player) -> Practice:
        """The player's practice (made on first use)."""
        practice = self.practices.get(player.id)
        if practice is None:
            practice = Practice(
                player, deal_source=self.config.deal_source, keep_events=self.config.keep_events
            )
            self.practices[player.id] = practice
        return practice

    def racer(self, place: str, round_: int, player: str) -> Racer | None:
        """The game a player is playing in a room's round, a daily attempt or practice."""
        if practice_player(place) is not None:
            game = self.practices[player].current if player in self.practices else None
            return game if game is not None and game.round == round_ else None
        date = date_of(place)
        if date is not None:
            daily = self.dailies.get(date)
            tries = daily.attempts.get(player, []) if daily is not None else []
            return next((a for a in tries if a.round == round_), None)
        room = self.rooms.get(place)
        return room.racers.get(player) if room is not None and room.round == round_ else None

    def live_game(self, game_id: str) -> Message | None:
        """The live numbers of the game ``game_id`` names if it is still being played here
        (:func:`~.disclosure.live_numbers`), else None."""
        try:
            racer = self.racer(*parse_game_id(game_id))
        except ValueError:
            return None
        return live_numbers(racer) if racer is not None else None

    # ------------------------------------------------------------------ connections
    def hello(self, conn: ConnId, player: Player, message: object, now: float) -> list[Output]:
        """Attach a new connection whose hello token the web layer resolved to ``player``."""
        if conn in self.places:
            return [Send((conn,), refused(None, "already-authenticated", "Hello was said"))]
        try:
            hello = parse_hello(message)
            place: AnyPlace
            if hello.practice:
                place = self.practice(player)
            elif hello.room is not None:
                room = self.rooms.get(hello.room)
                if room is None or room.closed:
                    raise RaceError("unknown-room", f"There is no room {hello.room!r}")
                room.core.members.check_name(player)
                place = room
            else:
                assert hello.daily is not None
                place = self.daily(hello.daily, now)
        except RaceError as exc:
            code = UNKNOWN_ROOM if exc.code == "unknown-room" else PROTOCOL
            return [
                Send((conn,), refused(None, exc.code, exc.message)),
                Close(conn, code, exc.code),
            ]
        self.places[conn] = place
        out = place.connect(conn, player, hello.last_version, now)
        self._touch(place)
        return out

    def receive(self, conn: ConnId, message: object, now: float) -> list[Output]:
        """A decoded JSON message from an attached connection."""
        place = self.places.get(conn)
        try:
            command = parse_command(message)
        except RaceError as exc:
            return [Send((conn,), refused(exc.seq, exc.code, exc.message))]
        if place is None:
            return [Send((conn,), refused(command.seq, "not-authenticated", "Say hello first"))]
        out = place.core.handle(place, conn, command, now)
        self._touch(place)
        return out

    # ------------------------------------------------------------------ searches
    def _place_of(self, ticket: SearchTicket) -> AnyPlace | None:
        player = practice_player(ticket.place)
        if player is not None:
            return self.practices.get(player)
        date = date_of(ticket.place)
        return self.rooms.get(ticket.place) if date is None else self.dailies.get(date)

    def search_wanted(self, ticket: SearchTicket) -> bool:
        """Whether a search's answer would still be used (a caller may skip the search)."""
        place = self._place_of(ticket)
        return place is not None and place.core.search_wanted(place, ticket)

    def searched(self, answer: SearchAnswer, now: float) -> list[Output]:
        """The answer of a search this referee asked for (an output of an earlier call)."""
        place = self._place_of(answer.ticket)
        if place is None:
            return []
        out = place.core.searched(place, answer, now)
        self._touch(place)
        return out

    def disconnect(self, conn: ConnId, now: float) -> list[Output]:
        """The connection closed (for any reason); a seat is kept for the grace period."""
        place = self.places.pop(conn, None)
        if place is None:
            return []
        out = place.disconnect(conn, now)
        if isinstance(place, Practice) and not place.core.members.by_conn and not place.playing:
            del self.practices[place.player.id]  # nothing to resume: its games are stored
        self._touch(place)
        return out

    # ------------------------------------------------------------------ timers
    # Each place's next deadline, and a heap of (deadline, room id or daily key) with stale
    # entries dropped lazily: next_deadline() runs after every batch, so it must not visit
    # every place. A daily's deadline is its next ``playing`` event.
    def _touch(self, place: AnyPlace | None) -> None:
        if place is None:
            return
        if isinstance(place, Room) and place.closed:
            self.rooms.pop(place.id, None)
            self._deadlines.pop(place.id, None)
            return
        deadline = place.next_deadline()
        if self._deadlines.get(place.core.key) != deadline:
            self._deadlines[place.core.key] = deadline
            if deadline is not None:
                heapq.heappush(self._heap, (deadline, place.core.key))

    def _timed(self, key: str) -> Room | Daily | None:
        date = date_of(key)
        return self.rooms.get(key) if date is None else self.dailies.get(date)

    def tick(self, now: float) -> list[Output]:
        """Advance every timer due by ``now`` (countdowns, time limits, grace, idle rooms,
        the dailies' ``playing`` events)."""
        out: list[Output] = []
        due: list[Room | Daily] = []
        while self._heap and self._heap[0][0] <= now:
            deadline, key = heapq.heappop(self._heap)
            place = self._timed(key)
            if place is not None and self._deadlines.get(key) == deadline:
                self._deadlines[key] = None
                due.append(place)
        for place in due:
            out.extend(place.tick(now))
            self._touch(place)
        return out

    def next_deadline(self) -> float | None:
        """The earliest time ``tick`` has something to do, or None."""
        while self._heap:
            deadline, key = self._heap[0]
            if self._timed(key) is not None and self._deadlines.get(key) == deadline:
                return deadline
            heapq.heappop(self._heap)
        return None

    # ------------------------------------------------------------------ recovery
    def restore(self, records: Iterable[Record], now: float) -> list[Output]:
        """Rebuild rooms and dailies from stored records (in the order written).

        Give it every record of the rooms not closed and of the dailies to keep
        (at least today's). Returns outputs of timers that fell due meanwhile.
        """
        logs = Logs.group(records)
        out: list[Output] = []
        for opened in logs.open_rooms():
            try:
                room, due = restore_room(opened, logs, now, self.config)
            except (ValueError, KeyError) as exc:  # a damaged log must not stop the others
                self.restore_errors.append(f"room {opened.room}: {exc!r}")
                continue
            self.rooms[room.id] = room
            self._touch(room)
            out.extend(due)
        for result in logs.results:
            self.daily(str(date_of(result.room)), now).restore_result(result)
        for attempt in logs.attempts:
            try:
                self.daily(attempt.date, now).restore_attempt(
                    attempt, logs.attempt_actions(attempt)
                )
            except (ValueError, KeyError) as exc:
                self.restore_errors.append(f"daily {attempt.date} {attempt.player}: {exc!r}")
        for dealt in logs.practice.values():
            practice = self.practice(Player(dealt.player, dealt.name))
            try:
                practice.restore(dealt, logs.practice_actions(dealt))
            except (ValueError, KeyError) as exc:
                self.restore_errors.append(f"practice {dealt.player}: {exc!r}")
        places: list[AnyPlace] = [*self.rooms.values(), *self.dailies.values()]
        places.extend(self.practices.values())
        for place in places:
            self.restore_errors.extend(place.core.skipped)
            place.core.skipped.clear()
        for daily in self.dailies.values():
            daily.advance(now, out)  # ranked attempts whose time ran out meanwhile
            self._touch(daily)
        return out

    def forget(self, key: str) -> list[ConnId]:
        """Drop a room, a daily (``daily:<date>``, or one shard of it: ``daily:<date>:<n>``)
        or a practice (``practice:<player>``)
        from memory, to be restored from its log (its last writes failed: memory may be
        ahead of the store); the connections that were in it (the caller closes them)."""
        player, date, shard = practice_player(key), date_of(key), shard_of_key(key)
        place: AnyPlace | None
        if date is not None and shard is not None:  # one shard: the day's others stay
            daily = self.dailies.get(date)
            conns = daily.drop_shard(shard) if daily is not None else []
            for conn in conns:
                self.places.pop(conn, None)
            if daily is not None:
                self._touch(daily)
            return conns
        if player is not None:
            place = self.practices.pop(player, None)
        elif date is not None:
            place = self.dailies.pop(date, None)
        else:
            place = self.rooms.pop(key, None)
        self._deadlines.pop(key, None)
        conns = [conn for conn, where in self.places.items() if where is place]
        for conn in conns:
            del self.places[conn]
        return conns
