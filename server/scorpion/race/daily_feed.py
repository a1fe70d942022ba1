"""What a day's daily tells everyone: "playing now", the top of its leaderboard, and each
finished player's rank.

The whole world may share a daily, so nothing one player does is sent to everyone as it
happens: at most one ``playing`` event every ``every`` seconds (who plays now, the top of
the leaderboard when it changed), and each finished player gets a ``rank`` frame when
their rank moves. Frames per socket per second stay bounded whatever the number of
players. With the day split in shards over processes, "playing now" merges the parts the
other owners tell (:func:`merge_playing`) and the leaderboard is the store's whole day.

A :class:`~.daily.Daily` holds its :class:`DailyFeed` (composition), as a room holds its
:class:`~.room_feed.RoomFeed`; the daily says when something changed, and sends the event
the feed builds (:meth:`DailyFeed.event`) through its :class:`~.place.PlaceCore`.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping, Sequence
from typing import Final, Protocol, cast

from .leaderboard import Entry, Leaderboard
from .members import Members
from .messages import LeaderboardTop, Playing, PlayingNow, RankMessage, Row
from .outputs import Message, Output, Send
from .players import Player

PLAYING_EVERY: Final = 2.0  # seconds between the daily's ``playing`` events (at most)
TOP_ROWS: Final = 10  # leaderboard rows in the welcome and the ``playing`` events
TOP_LIVE: Final = 5  # attempts going on shown in "playing now"
STALE_PARTS: Final = 3  # another owner's "playing now" silent for this many events is dropped


class LiveAttempt(Protocol):
    """An attempt going on, as "playing now" shows it (:class:`~.daily.Attempt`)."""

    @property
    def player(self) -> Player: ...

    def live_key(self) -> tuple[float, ...]: ...

    def playing_entry(self) -> Row: ...


def merge_playing(parts: Sequence[Mapping[str, object]]) -> PlayingNow:
    """ "Playing now" of a whole day from its shards' parts: counts added, the best few of
    the parts' tops (each part's top is its best few, so the merged top is exact).

    >>> a = {"count": 2, "top": [{"player": "a", "runs": 2, "turned": 0, "moves": 9}]}
    >>> b = {"count": 1, "top": [{"player": "b", "runs": 3, "turned": 0, "moves": 5}]}
    >>> merged = merge_playing([a, b])
    >>> merged["count"], [e["player"] for e in merged["top"]]
    (3, ['b', 'a'])
    """
    entries = [entry for part in parts for entry in cast(list[Message], part["top"])]

    def key(entry: Message) -> tuple[int, int, int, str]:
        runs, turned, moves = (cast(int, entry[k]) for k in ("runs", "turned", "moves"))
        return (-runs, -turned, moves, str(entry["player"]))

    count = sum(cast(int, part["count"]) for part in parts)
    return {"count": count, "top": heapq.nsmallest(TOP_LIVE, entries, key=key)}


def _standings(board: Leaderboard) -> list[tuple[object, ...]]:
    """What a leaderboard shows of each row, in order, as the store keeps it too."""
    keys = ("player", "status", "elapsed", "runs", "moves")
    return [tuple(row.get(k) for k in keys) for row in board.page(0, len(board))]


class DailyFeed:
    """ "Playing now", the leaderboard and the ranks told of one day's daily."""

    def __init__(self, date: str, live: Mapping[str, LiveAttempt], every: float) -> None:
        self.date = date
        self.live = live  # the daily's: each player's latest attempt, while it goes on
        self.every = every
        # "Playing now" of the shards owned elsewhere: their owners' parts, by owner, with
        # when each was heard (a silent owner's part is dropped after STALE_PARTS events).
        self.elsewhere: dict[str, tuple[Message, float]] = {}
        self.board = Leaderboard()  # ranked attempts that ended, in ranking order
        self.changed = False  # since the last ``playing`` event: someone played
        self.board_changed = False  # ... and the leaderboard changed
        self.emitted_at = float("-inf")
        self.ranks_told: dict[str, int] = {}  # the rank last sent to each finished player

    # ------------------------------------------------------------------ reading
    def leaderboard(self) -> LeaderboardTop:
        """The top of the leaderboard (ranked attempts that ended) and its size."""
        return {"size": len(self.board), "top": self.board.page(0, TOP_ROWS)}

    def playing(self) -> PlayingNow:
        """How many attempts go on now, and the best few of them (numbers only), merged
        with the parts of the shards owned elsewhere."""
        own = self.playing_part()
        if not self.elsewhere:
            return own
        return merge_playing([own, *(part for part, _ in self.elsewhere.values())])

    def playing_part(self) -> PlayingNow:
        """ "Playing now" of the attempts held here only: what this owner tells the others."""
        top = heapq.nsmallest(
            TOP_LIVE, self.live.values(), key=lambda a: (a.live_key(), a.player.id)
        )
        return {"count": len(self.live), "top": [a.playing_entry() for a in top]}

    # ------------------------------------------------------------------ what changes it
    def put(self, entry: Entry) -> None:
        """A ranked attempt ended: its row."""
        self.board.put(entry)
        self.changed = self.board_changed = True

    def remove(self, player: str) -> bool:
        """Forget a player's row (and the rank told them); whether they had one."""
        self.ranks_told.pop(player, None)
        if self.board.remove(player):
            self.board_changed = True
            return True
        return False

    def hear_playing(self, source: str, part: Message, now: float) -> None:
        """Another owner's part of "playing now" (its shards'); told in the next event."""
        self.elsewhere[source] = (part, now)
        self.changed = True

    def hear_board(self, entries: list[Entry], own: Iterable[Entry]) -> None:
        """The day's whole leaderboard read from the store, with this owner's ``own`` ended
        ranked results kept in case the read began before their commit; told in the next
        event when it changed."""
        board = Leaderboard(entries)
        for entry in own:
            board.put(entry)
        if _standings(board) != _standings(self.board):
            self.board = board
            self.changed = self.board_changed = True

    # ------------------------------------------------------------------ the clock
    def deadline(self) -> float | None:
        """When the next ``playing`` event is due (after a change), or a silent owner's
        part is dropped (and told)."""
        playing = self.emitted_at + self.every if self.changed else None
        if self.elsewhere:
            stale = min(heard for _, heard in self.elsewhere.values()) + STALE_PARTS * self.every
            playing = stale if playing is None else min(playing, stale)
        return playing

    def event(self, now: float, members: Members, out: list[Output]) -> Playing | None:
        """The ``playing`` event when due (with the leaderboard when it changed; then each
        connected finished player whose rank moved gets a ``rank`` frame, in ``out``)."""
        self._drop_stale_parts(now)
        if not self.changed or now < self.emitted_at + self.every:
            return None
        event: Playing = {"event": "playing", "playing": self.playing(), "now": now}
        if self.board_changed:
            event["leaderboard"] = self.leaderboard()
            self._tell_ranks(members, out)
        self.changed = self.board_changed = False
        self.emitted_at = now
        return event

    def _drop_stale_parts(self, now: float) -> None:
        for source, (_, heard) in list(self.elsewhere.items()):
            if now - heard >= STALE_PARTS * self.every:
                del self.elsewhere[source]
                self.changed = True

    def _tell_ranks(self, members: Members, out: list[Output]) -> None:
        for player, told in list(self.ranks_told.items()):
            member = members.get(player)
            if member is None or not member.conns:
                del self.ranks_told[player]  # the welcome tells it again
                continue
            row = self.board.row(player)
            if row is not None and row["rank"] != told:
                self.ranks_told[player] = cast(int, row["rank"])
                rank: RankMessage = {
                    "type": "rank",
                    "daily": self.date,
                    "row": row,
                    "size": len(self.board),
                }
                out.append(Send(tuple(member.conns), rank))
