"""The daily challenge: one deal per UTC day, one ranked attempt per player, a leaderboard.

The deal comes from the date and the server's secret, so nobody can know it in
advance: HMAC-SHA256(secret, "scorpion-daily:" + date), the first 8 bytes as a
64-bit deal number; then the first winnable deal from there when the solver is
available (else the daily says ``verified: false``). What everyone is told of the day
("playing now", the leaderboard, ranks) is :mod:`.daily_feed`'s.

>>> daily_seed(b"secret", "2026-11-29") == daily_seed(b"secret", "2026-11-29")
True
>>> daily_seed(b"secret", "2026-11-29") != daily_seed(b"other", "2026-11-29")
True
>>> utc_date(0.0)
'1970-01-01'
"""

from __future__ import annotations

import datetime as dt
import hashlib
import heapq
import hmac
from typing import Final, cast

from scorpion.engine import Game, get_rules

from .commands import Auto, Command, Deal, GiveUp, Hint, Move, Start, Undo
from .daily_feed import PLAYING_EVERY, DailyFeed
from .errors import RaceError
from .leaderboard import Entry
from .members import Member
from .messages import (
    AnswerFields,
    GameFields,
    ViewMessage,
)
from .outputs import ConnId, Message, Output, Persist, Send
from .place import PlaceCore, as_answer, game_answer, replay_action
from .place_hooks import AnyPlace
from .players import Player
from .protocol import daily_key, shard_of
from .racer import Racer
from .records import ActionRecord, DailyStarted, GameResult
from .search_queue import UNLIMITED
from .searches import DAILY_LIMIT, DAILY_NODES, DealSearch, SearchTicket

DAILY_PRESET: Final = "classic"
# What others see of an attempt going on (docs/protocol.md, "What an observer sees").
PLAYING_FIELDS: Final = (
    "player", "name", "runs", "moves", "turned", "status", "elapsed", "hints", "autos",
    "clean", "new_player",
)  # fmt: skip
DAYS_BACK: Final = 366  # how far back past dailies can be played (each costs a deal search)
# A ranked attempt's time limit: plenty for a slow, careful honest game. It
# bounds how long after midnight a day's deal must stay secret (see closes_at).
RANKED_LIMIT: Final = 3600.0
NEW_PLAYER: Final = 86_400.0  # seconds: a player younger than this at the start is marked


def daily_seed(secret: bytes, date: str) -> int:
    """The 64-bit deal number the date and the secret give (before the winnable search)."""
    digest = hmac.new(secret, f"scorpion-daily:{date}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def daily_search(date: str, secret: bytes, player: str = UNLIMITED) -> DealSearch:
    """The search for the date's deal: the first winnable deal from its seed. ``player``:
    who asked for a past day (counted against their searches), the server's own by default."""
    ticket = SearchTicket(daily_key(date), 0, player, 0, "daily")
    return DealSearch(ticket, DAILY_PRESET, daily_seed(secret, date), DAILY_NODES, DAILY_LIMIT)


def utc_date(now: float) -> str:
    """The UTC date of server time ``now``, as YYYY-MM-DD."""
    return dt.datetime.fromtimestamp(now, dt.UTC).date().isoformat()


def closes_at(date: str) -> float:
    """When the day ``date`` closes: the last ranked attempt may start just before midnight
    UTC and lasts at most ``RANKED_LIMIT``. Until then nothing discloses or helps with the
    day's deal (its number, hints, Auto).

    >>> closes_at("2026-11-30") - dt.datetime(2026, 12, 1, tzinfo=dt.UTC).timestamp()
    3600.0
    """
    after = dt.date.fromisoformat(date) + dt.timedelta(days=1)
    midnight = dt.datetime(after.year, after.month, after.day, tzinfo=dt.UTC).timestamp()
    return midnight + RANKED_LIMIT


def day_closed(date: str, now: float) -> bool:
    """Whether every ranked attempt of ``date`` has ended by server time ``now``.

    >>> midnight = dt.datetime(2026, 12, 1, tzinfo=dt.UTC).timestamp()
    >>> day_closed("2026-11-30", midnight + 1), day_closed("2026-11-30", midnight + 3600)
    (False, True)
    """
    return now >= closes_at(date)


def check_date(date: str, now: float, days_back: int = DAYS_BACK) -> str:
    """``date`` when it is a real YYYY-MM-DD day, not after today and not older than
    ``days_back`` days; RaceError ``unknown-room`` otherwise."""
    try:
        day = dt.date.fromisoformat(date)
    except ValueError:
        raise RaceError("unknown-room", f"No daily challenge {date!r}: use YYYY-MM-DD") from None
    today = dt.date.fromisoformat(utc_date(now))
    if len(date) != 10 or day > today:
        raise RaceError("unknown-room", f"No daily challenge for {date!r} yet")
    if (today - day).days > days_back:
        raise RaceError("unknown-room", f"Dailies go back {days_back} days, not to {date}")
    return day.isoformat()


class Attempt(Racer):
    """One player's attempt at a daily (``round`` is its number: 1 of the day itself is the
    ranked one)."""

    ranked: bool = False
    deadline: float | None = None  # a ranked attempt times out then (server time)
    new_player: bool = False  # the player was younger than NEW_PLAYER when it started

    def entry(self) -> dict[str, object]:
        return {**super().entry(), "new_player": self.new_player}

    def live_key(self) -> tuple[float, ...]:
        """Its place among the attempts going on, from the numbers others see of it
        (:meth:`playing_entry`): runs, then cards turned, then fewest moves."""
        game = self.game
        return (-len(game.runs), -game.cards_turned, game.moves_made)

    def playing_entry(self) -> dict[str, object]:
        """Its row in "playing now": counts of what the player did, never a number worked
        out from the cards (score, cards in order), since everyone plays the same deal."""
        entry = self.entry()
        return {key: entry[key] for key in PLAYING_FIELDS}


class Daily(AnyPlace):
    """Everyone playing one day's deal, each on their own clock: their attempts, the
    commands, the time limits. What everyone is told of it ("playing now", the leaderboard,
    ranks: at most one ``playing`` event every ``every`` seconds, from :meth:`tick`) is its
    :class:`~.daily_feed.DailyFeed`'s."""

    def __init__(
        self,
        date: str,
        deal: int,
        verified: bool,
        *,
        preset: str = DAILY_PRESET,
        keep_events: int = 50,
        version_base: int = 0,
        every: float = PLAYING_EVERY,
        shards: int = 1,
    ) -> None:
        self.core = PlaceCore(
            daily_key(date),
            own_game="You can only play your own attempt",
            keep_events=keep_events,
            version_base=version_base,
        )
        self.date = date
        # The day is split in ``shards`` places by a hash of the player (protocol.shard_of);
        # this object holds the attempts of the shards this process owns (all, alone).
        self.shards = shards
        self.deal = deal
        self.verified = verified
        self.preset = preset
        self.attempts: dict[str, list[Attempt]] = {}
        self.live: dict[str, Attempt] = {}  # each player's latest attempt, while it goes on
        self.feed = DailyFeed(date, self.live, every)  # "playing now", leaderboard, ranks
        # (deadline, player, attempt) of ranked attempts; entries of ended ones stay until due
        self._deadlines: list[tuple[float, str, int]] = []

    # ------------------------------------------------------------------ reading
    def current(self, player_id: str) -> Attempt | None:
        attempts = self.attempts.get(player_id)
        return attempts[-1] if attempts else None

    def hear_board(self, entries: list[Entry]) -> None:
        """The day's whole leaderboard read from the store (every shard's ranked results:
        each is committed before it is announced), with this owner's own results kept in
        case the read began before their commit (:meth:`.DailyFeed.hear_board`)."""
        own = (
            tries[0].entry()
            for tries in self.attempts.values()
            if tries[0].ranked and not tries[0].playing
        )
        self.feed.hear_board(entries, own)

    def summary(self, now: float) -> Message:
        """For ``GET /api/daily/<date>``: never the deal number."""
        return {
            "date": self.date,
            "preset": self.preset,
            "rules": get_rules(self.preset).to_dict(),  # the client copies no rule
            "verified": self.verified,
            "today": self.date == utc_date(now),
            "ranked_limit": RANKED_LIMIT,  # seconds a ranked attempt may last
            "leaderboard": self.feed.leaderboard(),
            "playing": self.feed.playing(),
            "now": now,
        }

    def state(self, player_id: str, now: float) -> Message:
        attempt = self.current(player_id)
        data = self.summary(now)
        data["daily"] = data.pop("date")
        data["leaderboard"] = {**self.feed.leaderboard(), "you": self.feed.board.row(player_id)}
        data["ranked"] = self.next_ranked(player_id, now) if attempt is None else attempt.ranked
        data["unranked_reason"] = (
            self.unranked_reason(player_id, now) if attempt is None else self._why(attempt)
        )
        data["attempt"] = None
        if attempt is not None:
            data["attempt"] = {**attempt.entry(), **self._attempt_fields(attempt)}
        return data

    def next_ranked(self, player_id: str, now: float) -> bool:
        """Would a new attempt by this player now be the ranked one?"""
        return self.unranked_reason(player_id, now) is None

    def unranked_reason(self, player_id: str, now: float) -> str | None:
        """Why a new attempt by this player now would be unranked: ``not-today``,
        ``played`` (they started one today), ``linked`` (a player sharing a device with
        them, known from their hello, has the day's ranked attempt); None: it is ranked."""
        if self.date != utc_date(now):
            return "not-today"
        if self.attempts.get(player_id):
            return "played"
        member = self.core.members.get(player_id)
        linked = member.player.linked if member is not None else frozenset()
        if any(tries[0].ranked for other in linked if (tries := self.attempts.get(other))):
            return "linked"  # a ranked attempt is a player's first
        if member is not None and member.player.ranked_linked:
            return "linked"  # on another shard of the day: known from the store
        return None

    def _why(self, attempt: Attempt) -> str | None:
        """Why an attempt is unranked, from what its record keeps (restored alike): a
        first attempt of its own day is unranked only for a linked player's."""
        if attempt.ranked:
            return None
        if self.date != utc_date(attempt.started_at):
            return "not-today"
        return "played" if attempt.round > 1 else "linked"

    # ------------------------------------------------------------------ connections
    def connect(
        self, conn: ConnId, player: Player, last_version: int | None, now: float
    ) -> list[Output]:
        member, _ = self.core.members.ensure(player)
        member.role = "player"
        self.core.members.attach(conn, member)
        rank = self.feed.board.rank_of(player.id)
        if rank is not None:  # the welcome tells it: later moves come in ``rank`` frames
            self.feed.ranks_told[player.id] = rank
        attempt = self.current(player.id)
        welcome = self.core.welcome(
            {"daily": self.date},
            member,
            last_version,
            now,
            status=attempt.status if attempt else None,
            state=self.state(player.id, now),
            view=attempt.view() if attempt else None,
        )
        return [Send((conn,), welcome)]

    def disconnect(self, conn: ConnId, now: float) -> list[Output]:
        """A connection closed: the attempt goes on (its clock too) until it ends."""
        self.core.disconnect(conn, now)
        return []

    # ------------------------------------------------------------------ commands
    def run(
        self, member: Member, conn: ConnId, command: Command, now: float, out: list[Output]
    ) -> AnswerFields | None:
        """Apply one command of ``member`` (ping is answered before it gets here)."""
        match command:
            case Move() | Deal() | Undo() | GiveUp() | Hint() | Auto():
                return self.core.play(self, member, conn, command, now, out)
            case Start():
                return self._start(member.player, now, out)
        raise RaceError("not-allowed", f"There is no {command.name} in a daily challenge")

    def racer_for(self, member: Member) -> Racer:
        attempt = self.current(member.id)
        if attempt is None:
            raise RaceError("not-started", "Start the daily challenge first")
        if not attempt.playing:
            raise RaceError("finished", "This attempt is over: start another (unranked)")
        return attempt

    def racer_by_ticket(self, ticket: SearchTicket) -> Racer | None:
        attempt = self.current(ticket.player)
        return attempt if attempt is not None and attempt.round == ticket.round else None

    def answer_fields(self, racer: Racer) -> GameFields:
        assert isinstance(racer, Attempt)
        fields: GameFields = {**game_answer(racer), **self._attempt_fields(racer)}
        if racer.ranked and not racer.playing:
            fields["rank"] = self.feed.board.row(racer.player.id)  # your row, at once
        return fields

    def after_change(
        self, racer: Racer, now: float, out: list[Output], exclude: ConnId | None
    ) -> None:
        assert isinstance(racer, Attempt)
        self.feed.changed = True  # told in the next ``playing`` event (see tick)
        if not racer.playing:
            self._finish(racer, now, out)

    def help_used(self, racer: Racer, now: float, out: list[Output]) -> None:
        self.feed.changed = True  # told in the next ``playing`` event

    # ------------------------------------------------------------------ the clock
    def next_deadline(self) -> float | None:
        """When :meth:`tick` has something to do: the feed's next ``playing`` event
        (:meth:`.DailyFeed.deadline`), or a ranked attempt's time limit."""
        playing = self.feed.deadline()
        deadlines = self._deadlines
        while deadlines and not self._still_running(deadlines[0]):
            heapq.heappop(deadlines)
        if not deadlines:
            return playing
        return deadlines[0][0] if playing is None else min(playing, deadlines[0][0])

    def _still_running(self, entry: tuple[float, str, int]) -> bool:
        attempt = self.current(entry[1])
        return attempt is not None and attempt.round == entry[2] and attempt.playing

    def advance(self, now: float, out: list[Output]) -> None:
        """Ranked attempts past their time limit end as ``timed-out`` at the limit."""
        self.core.members.forget_answers_of_away(now)
        deadlines = self._deadlines
        while deadlines and deadlines[0][0] <= now:
            entry = heapq.heappop(deadlines)
            if not self._still_running(entry):
                continue
            attempt = self.current(entry[1])
            assert attempt is not None
            attempt.stop("timed-out", RANKED_LIMIT)
            member = self.core.members.get(attempt.player.id)
            if member is not None:
                out.extend(self.core.drop_search(attempt, member))
            self.after_change(attempt, now, out, exclude=None)
            if member is not None and member.conns:  # the player's tabs: the attempt is over
                fields = self.answer_fields(attempt)
                view: ViewMessage = {"type": "view", "player": attempt.player.id, **fields}
                out.append(Send(tuple(member.conns), view))

    def tick(self, now: float) -> list[Output]:
        """Ranked attempts past their limit end; the ``playing`` event when due (and the
        leaderboard when it changed), then each connected finished player whose rank moved
        gets a ``rank`` frame (:meth:`.DailyFeed.event`)."""
        out: list[Output] = []
        self.advance(now, out)
        event = self.feed.event(now, self.core.members, out)
        if event is not None:
            self.core.emit(out, event)
        return out

    def _attempt_fields(self, attempt: Attempt) -> GameFields:
        return {
            "attempt": attempt.round,
            "ranked": attempt.ranked,
            "started_at": attempt.started_at,
            "ends_at": attempt.deadline,  # null: no time limit (unranked)
            "hints_allowed": attempt.hints_allowed,
        }

    def new_attempt(
        self, player: Player, ranked: bool, started_at: float, number: int | None = None
    ) -> Attempt:
        """A new attempt (``number``: a stored one's, when restored)."""
        tries = self.attempts.get(player.id, [])
        if number is None:
            number = tries[-1].round + 1 if tries else 1
            if not ranked and self.date != utc_date(started_at) and not tries:
                # A past day's daily may have been evicted and rebuilt: number its unranked
                # attempts by the clock (ms) so they never reuse a stored attempt's number.
                number = int(started_at * 1000)
        # A ranked result is unassisted; so is every attempt until the day closes, else a
        # throwaway account's unranked attempt would let Auto play the winning line into a
        # ranked attempt still open.
        helped = not ranked and day_closed(self.date, started_at)
        attempt = Attempt(
            player,
            Game.new(self.deal, get_rules(self.preset)),
            started_at,
            place=self.core.key,
            round=number,
            preset=self.preset,
            undo="fair" if ranked else "full",  # a ranked undo never peeks at a card
            hints=helped,
            auto=helped,
        )
        attempt.ranked = ranked
        if ranked:
            attempt.deadline = started_at + RANKED_LIMIT
            heapq.heappush(self._deadlines, (attempt.deadline, player.id, number))
        tries = self.attempts.setdefault(player.id, [])
        tries.append(attempt)
        # Memory holds a player's first attempt (the day's ranked one is a first) and the
        # latest (the one that may go on); those between are ended and stored.
        del tries[1:-1]
        self.live[player.id] = attempt
        self.feed.changed = True
        return attempt

    def _start(self, player: Player, now: float, out: list[Output]) -> AnswerFields:
        attempt = self.current(player.id)
        if attempt is not None and attempt.playing:
            return {**as_answer(self.answer_fields(attempt)), "resumed": True}
        attempt = self.new_attempt(player, self.next_ranked(player.id, now), now)
        attempt.new_player = player.created is not None and now - player.created < NEW_PLAYER
        out.append(
            Persist(
                DailyStarted(
                    self.date,
                    player.id,
                    player.name,
                    attempt.round,
                    self.deal,
                    self.preset,
                    attempt.ranked,
                    now,
                    new_player=attempt.new_player,
                )
            )
        )
        return {**as_answer(self.answer_fields(attempt)), "resumed": False}

    def _finish(self, attempt: Attempt, now: float, out: list[Output]) -> None:
        out.append(Persist(attempt.result(attempt.ranked, now)))
        self._ended(attempt)
        if attempt.ranked:
            rank = self.feed.board.rank_of(attempt.player.id)
            self.feed.ranks_told[attempt.player.id] = cast(int, rank)  # in the answer

    def _ended(self, attempt: Attempt) -> None:
        if self.live.get(attempt.player.id) is attempt:
            del self.live[attempt.player.id]
        if attempt.ranked:
            self.feed.put(attempt.entry())

    def drop_shard(self, shard: int) -> list[ConnId]:
        """Forget the attempts of one shard's players (the shard is owned elsewhere now, or
        comes back from its log); the connections that were theirs (the caller closes them)."""
        gone = [
            member
            for player, member in list(self.core.members.by_id.items())
            if shard_of(player, self.shards) == shard
        ]
        players = {m.id for m in gone} | {
            p for p in self.attempts if shard_of(p, self.shards) == shard
        }
        conns: list[ConnId] = []
        for member in gone:
            conns.extend(member.conns)
            self.core.members.remove(member)
        for player in players:
            self.attempts.pop(player, None)
            self.live.pop(player, None)
            self.feed.remove(player)
        self.feed.changed = True
        return conns

    def forget_player(self, player_id: str) -> None:
        """A deleted player leaves the leaderboard and "playing now"."""
        self.live.pop(player_id, None)
        if self.feed.remove(player_id) or player_id in self.attempts:
            self.feed.changed = True

    # ------------------------------------------------------------------ recovery
    def restore_attempt(self, started: DailyStarted, actions: list[ActionRecord]) -> None:
        """Replay one stored attempt (its actions in the order written)."""
        attempt = self.new_attempt(
            Player(started.player, started.name),
            started.ranked,
            started.started_at,
            started.attempt,
        )
        attempt.new_player = started.new_player
        member, _ = self.core.members.ensure(attempt.player)
        for action in actions:
            skipped = replay_action(member, attempt, action)
            if skipped:
                self.core.skipped.append(skipped)
        if not attempt.playing:
            self._ended(attempt)

    def restore_result(self, result: GameResult) -> None:
        """A ranked result whose actions are no longer replayed (leaderboard only)."""
        if result.ranked:
            self.feed.put(
                {
                    "player": result.player,
                    "name": result.name,
                    "status": result.status,
                    "elapsed": result.elapsed,
                    "runs": result.runs,
                    "score": result.score,
                    "moves": result.moves,
                    "turned": result.turned,
                    "hints": result.hints,
                    "autos": result.autos,
                    "clean": not (result.hints or result.autos),
                }
            )
