"""The daily challenge: one deal per UTC day, one ranked attempt per player, a leaderboard.

The deal comes from the date and the server's secret, so nobody can know it in
advance: HMAC-SHA256(secret, "scorpion-daily:" + date), the first 8 bytes as a
64-bit deal number; then the first winnable deal from there when the solver is
available (else the daily says ``verified: false``).

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
from .errors import RaceError
from .leaderboard import Entry, Leaderboard
from .members import Member
from .outputs import ConnId, Message, Output, Persist, Send
from .place import Place, replay_action
from .players import Player
from .protocol import daily_key
from .racer import Racer
from .records import ActionRecord, DailyStarted, GameResult
from .searches import SearchTicket

DAILY_PRESET: Final = "classic"
PLAYING_EVERY: Final = 2.0  # seconds between the daily's ``playing`` events (at most)
TOP_ROWS: Final = 10  # leaderboard rows in the welcome and the ``playing`` events
TOP_LIVE: Final = 5  # attempts going on shown in "playing now"
# What others see of an attempt going on (docs/protocol.md, "What an observer sees").
PLAYING_FIELDS: Final = (
    "player", "name", "runs", "moves", "turned", "status", "elapsed", "hints", "autos",
)  # fmt: skip
DAYS_BACK: Final = 366  # how far back past dailies can be played (each costs a deal search)


def daily_seed(secret: bytes, date: str) -> int:
    """The 64-bit deal number the date and the secret give (before the winnable search)."""
    digest = hmac.new(secret, f"scorpion-daily:{date}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def utc_date(now: float) -> str:
    """The UTC date of server time ``now``, as YYYY-MM-DD."""
    return dt.datetime.fromtimestamp(now, dt.UTC).date().isoformat()


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


class Daily(Place):
    """Everyone playing one day's deal, each on their own clock.

    The whole world may share a daily, so nothing one player does is sent to everyone
    as it happens: the daily emits at most one ``playing`` event every ``every`` seconds
    (who plays now, the top of the leaderboard when it changed), from :meth:`tick`, and
    tells each finished player their new rank when it moves. Frames per socket per second
    stay bounded whatever the number of players.
    """

    own_game = "You can only play your own attempt"

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
    ) -> None:
        super().__init__(daily_key(date), keep_events=keep_events, version_base=version_base)
        self.date = date
        self.deal = deal
        self.verified = verified
        self.preset = preset
        self.every = every
        self.attempts: dict[str, list[Attempt]] = {}
        self.board = Leaderboard()  # ranked attempts that ended, in ranking order
        self.live: dict[str, Attempt] = {}  # each player's latest attempt, while it goes on
        self._changed = False  # since the last ``playing`` event: someone played
        self._board_changed = False  # ... and the leaderboard changed
        self._emitted_at = float("-inf")
        self._ranks_told: dict[str, int] = {}  # the rank last sent to each finished player

    # ------------------------------------------------------------------ reading
    def current(self, player_id: str) -> Attempt | None:
        attempts = self.attempts.get(player_id)
        return attempts[-1] if attempts else None

    def leaderboard(self) -> Message:
        """The top of the leaderboard (ranked attempts that ended) and its size."""
        return {"size": len(self.board), "top": self.board.page(0, TOP_ROWS)}

    def playing(self) -> Message:
        """How many attempts go on now, and the best few of them (numbers only)."""
        top = heapq.nsmallest(
            TOP_LIVE, self.live.values(), key=lambda a: (a.live_key(), a.player.id)
        )
        return {"count": len(self.live), "top": [a.playing_entry() for a in top]}

    def summary(self, now: float) -> Message:
        """For ``GET /api/daily/<date>``: never the deal number."""
        return {
            "date": self.date,
            "preset": self.preset,
            "rules": get_rules(self.preset).to_dict(),  # the client copies no rule
            "verified": self.verified,
            "today": self.date == utc_date(now),
            "leaderboard": self.leaderboard(),
            "playing": self.playing(),
            "now": now,
        }

    def state(self, player_id: str, now: float) -> Message:
        attempt = self.current(player_id)
        data = self.summary(now)
        data["daily"] = data.pop("date")
        data["leaderboard"] = {**self.leaderboard(), "you": self.board.row(player_id)}
        data["ranked"] = self.next_ranked(player_id, now) if attempt is None else attempt.ranked
        data["attempt"] = None
        if attempt is not None:
            data["attempt"] = {**attempt.entry(), **self._attempt_fields(attempt)}
        return data

    def next_ranked(self, player_id: str, now: float) -> bool:
        """Would a new attempt by this player now be the ranked one?"""
        return self.date == utc_date(now) and not self.attempts.get(player_id)

    # ------------------------------------------------------------------ connections
    def connect(
        self, conn: ConnId, player: Player, last_version: int | None, now: float
    ) -> list[Output]:
        member, _ = self.members.ensure(player)
        member.role = "player"
        self.members.attach(conn, member)
        rank = self.board.rank_of(player.id)
        if rank is not None:  # the welcome tells it: later moves come in ``rank`` frames
            self._ranks_told[player.id] = rank
        attempt = self.current(player.id)
        welcome = self.welcome(
            {"daily": self.date},
            member,
            last_version,
            now,
            status=attempt.status if attempt else None,
            state=self.state(player.id, now),
            view=attempt.game.view() if attempt else None,
        )
        return [Send((conn,), welcome)]

    # ------------------------------------------------------------------ commands
    def run(
        self, member: Member, conn: ConnId, command: Command, now: float, out: list[Output]
    ) -> Message | None:
        """Apply one command of ``member`` (ping is answered before it gets here)."""
        match command:
            case Move() | Deal() | Undo() | GiveUp() | Hint() | Auto():
                return self.play(member, conn, command, now, out)
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

    def answer_fields(self, racer: Racer) -> Message:
        assert isinstance(racer, Attempt)
        fields = {**super().answer_fields(racer), **self._attempt_fields(racer)}
        if racer.ranked and not racer.playing:
            fields["rank"] = self.board.row(racer.player.id)  # your row, at once
        return fields

    def after_change(
        self, racer: Racer, now: float, out: list[Output], exclude: ConnId | None
    ) -> None:
        assert isinstance(racer, Attempt)
        self._changed = True  # told in the next ``playing`` event (see tick)
        if not racer.playing:
            self._finish(racer, now, out)

    # ------------------------------------------------------------------ the clock
    def next_deadline(self) -> float | None:
        """When :meth:`tick` has an event to send: ``every`` seconds after the last one
        (at once when that is past), and only after a change."""
        return self._emitted_at + self.every if self._changed else None

    def tick(self, now: float) -> list[Output]:
        """The ``playing`` event when due (and the leaderboard when it changed), then each
        connected finished player whose rank moved gets a ``rank`` frame."""
        out: list[Output] = []
        if not self._changed or now < self._emitted_at + self.every:
            return out
        event: Message = {"event": "playing", "playing": self.playing(), "now": now}
        if self._board_changed:
            event["leaderboard"] = self.leaderboard()
            self._tell_ranks(out)
        self._changed = self._board_changed = False
        self._emitted_at = now
        self.emit(out, event)
        return out

    def _tell_ranks(self, out: list[Output]) -> None:
        for player, told in list(self._ranks_told.items()):
            member = self.members.get(player)
            if member is None or not member.conns:
                del self._ranks_told[player]  # the welcome tells it again
                continue
            row = self.board.row(player)
            if row is not None and row["rank"] != told:
                self._ranks_told[player] = cast(int, row["rank"])
                rank: Message = {"type": "rank", "daily": self.date, "row": row}
                out.append(Send(tuple(member.conns), {**rank, "size": len(self.board)}))

    def _attempt_fields(self, attempt: Attempt) -> Message:
        return {
            "attempt": attempt.round,
            "ranked": attempt.ranked,
            "started_at": attempt.started_at,
        }

    def new_attempt(self, player: Player, ranked: bool, started_at: float) -> Attempt:
        tries = self.attempts.get(player.id, [])
        number = tries[-1].round + 1 if tries else 1
        if not ranked and self.date != utc_date(started_at) and not tries:
            # A past day's daily may have been evicted and rebuilt: number its unranked
            # attempts by the clock (ms) so they never reuse a stored attempt's number.
            number = int(started_at * 1000)
        attempt = Attempt(
            player,
            Game.new(self.deal, get_rules(self.preset)),
            started_at,
            place=self.key,
            round=number,
            preset=self.preset,
            undo=True,
            # A ranked result is unassisted; so is every attempt of the day itself, else a
            # throwaway account's unranked attempt would let Auto play today's winning line.
            hints=not ranked and self.date != utc_date(started_at),
        )
        attempt.ranked = ranked
        self.attempts.setdefault(player.id, []).append(attempt)
        self.live[player.id] = attempt
        self._changed = True
        return attempt

    def _start(self, player: Player, now: float, out: list[Output]) -> Message:
        attempt = self.current(player.id)
        if attempt is not None and attempt.playing:
            return {**self.answer_fields(attempt), "resumed": True}
        attempt = self.new_attempt(player, self.next_ranked(player.id, now), now)
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
                )
            )
        )
        return {**self.answer_fields(attempt), "resumed": False}

    def _finish(self, attempt: Attempt, now: float, out: list[Output]) -> None:
        out.append(Persist(attempt.result(attempt.ranked, now)))
        self._ended(attempt)
        if attempt.ranked:
            rank = self.board.rank_of(attempt.player.id)
            self._ranks_told[attempt.player.id] = cast(int, rank)  # in the answer

    def _ended(self, attempt: Attempt) -> None:
        if self.live.get(attempt.player.id) is attempt:
            del self.live[attempt.player.id]
        if attempt.ranked:
            self._put(attempt.entry())

    def _put(self, entry: Entry) -> None:
        self.board.put(entry)
        self._changed = self._board_changed = True

    def forget_player(self, player_id: str) -> None:
        """A deleted player leaves the leaderboard and "playing now"."""
        self.live.pop(player_id, None)
        self._ranks_told.pop(player_id, None)
        if self.board.remove(player_id):
            self._changed = self._board_changed = True
        elif player_id in self.attempts:
            self._changed = True

    # ------------------------------------------------------------------ recovery
    def restore_attempt(self, started: DailyStarted, actions: list[ActionRecord]) -> None:
        """Replay one stored attempt (its actions in the order written)."""
        attempt = self.new_attempt(
            Player(started.player, started.name), started.ranked, started.started_at
        )
        attempt.round = started.attempt
        member, _ = self.members.ensure(attempt.player)
        for action in actions:
            skipped = replay_action(member, attempt, action)
            if skipped:
                self.skipped.append(skipped)
        if not attempt.playing:
            self._ended(attempt)

    def restore_result(self, result: GameResult) -> None:
        """A ranked result whose actions are no longer replayed (leaderboard only)."""
        if result.ranked:
            self._put(
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
                }
            )
