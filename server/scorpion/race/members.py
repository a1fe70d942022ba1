"""Who is in a room and on which connections: players, spectators, seq windows.

A member is one player (by id) in one room, with every connection they have open
there (several tabs are fine). Members outlive their connections: a player who
disconnects keeps their member (their seat, their seq answers) for the grace period.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Final

from .confusables import skeleton
from .errors import RaceError
from .outputs import ConnId
from .players import Player
from .seqs import KEEP_AWAY, SeqWindow
from .states import Role

EVERYONE: Final = "*"  # ``following`` every racer's board at once (a spectator's grid)


@dataclass(eq=False, slots=True)  # slots: one per socket, idle ones included
class Member:
    player: Player
    role: Role = "spectator"
    ready: bool = False
    conns: set[ConnId] = field(default_factory=set)
    seqs: SeqWindow = field(default_factory=SeqWindow)
    following: str | None = None  # a racer's id, EVERYONE, or None

    def follows(self, racer_id: str) -> bool:
        """Whether this member gets ``racer_id``'s board as it changes (never their own)."""
        return racer_id != self.player.id and self.following in (racer_id, EVERYONE)

    away_since: float | None = None  # every connection closed at this time

    @property
    def id(self) -> str:
        return self.player.id

    @property
    def connected(self) -> bool:
        return bool(self.conns)


class Members:
    """The members of one room, by player id and by connection."""

    def __init__(self) -> None:
        self.by_id: dict[str, Member] = {}
        self.by_conn: dict[ConnId, Member] = {}
        self._away: deque[tuple[float, Member]] = deque()  # in the order they went away

    def __len__(self) -> int:
        return len(self.by_id)

    def get(self, player_id: str) -> Member | None:
        return self.by_id.get(player_id)

    def ensure(self, player: Player) -> tuple[Member, bool]:
        """The member for ``player`` (name refreshed), and whether it is new."""
        member = self.by_id.get(player.id)
        if member is None:
            member = self.by_id[player.id] = Member(player)
            return member, True
        member.player = player
        return member, False

    def check_name(self, player: Player) -> None:
        """RaceError ``name-taken`` when another member's name looks the same as the
        player's (the same TR39 confusable skeleton: "Ada" and "Аda" with a Cyrillic А):
        nobody can pass for someone else in the room."""
        mine = skeleton(player.name)
        for member in self.by_id.values():
            if member.id != player.id and skeleton(member.player.name) == mine:
                raise RaceError(
                    "name-taken",
                    f"Your name {player.name!r} looks the same as another racer's name "
                    "in this room: change your name to join",
                )

    def attach(self, conn: ConnId, member: Member) -> None:
        member.conns.add(conn)
        member.away_since = None
        self.by_conn[conn] = member

    def detach(self, conn: ConnId) -> Member | None:
        member = self.by_conn.pop(conn, None)
        if member is not None:
            member.conns.discard(conn)
        return member

    def went_away(self, member: Member, now: float) -> None:
        """``member``'s last connection closed at ``now``."""
        member.away_since = now
        self._away.append((now, member))

    def forget_answers_of_away(self, now: float) -> None:
        """Drop the seq answers of members away for :data:`KEEP_AWAY` seconds: a place that
        lives long (a day's daily) would otherwise hold answers for every player it ever had.
        Each departure is looked at once, so this costs nothing when nobody left."""
        away = self._away
        while away and away[0][0] <= now - KEEP_AWAY:
            since, member = away.popleft()
            if member.away_since == since:  # not back since
                member.seqs.forget_answers()

    def remove(self, member: Member) -> None:
        for conn in member.conns:
            self.by_conn.pop(conn, None)
        member.conns.clear()
        self.by_id.pop(member.id, None)

    def players(self) -> list[Member]:
        return [m for m in self.by_id.values() if m.role == "player"]

    def spectators(self) -> list[Member]:
        return [m for m in self.by_id.values() if m.role == "spectator"]

    def all_conns(self) -> tuple[ConnId, ...]:
        return tuple(self.by_conn)
