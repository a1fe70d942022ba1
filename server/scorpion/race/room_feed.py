"""What a room's members see of its racers while they play: their numbers and their boards.

A racer's numbers go out in ``progress`` events, at most one every
``RoomConfig.progress_interval`` (:mod:`.progress_batch`): every racer that changed since
the last one, with everyone's live rank, and the boards of those racers to their
followers. A racer's own board goes to the racer's other tabs as it changes. Anyone but
the racer gets a board masked (:mod:`.masking`) and numbers that add nothing to it
(:mod:`.observed`): the numbers in ``progress`` events, the room's snapshot and the ranks
are those everyone but the racer may see; the racer's exact ones are in her own view. Nobody
gets a board during the countdown.

A room holds its :class:`RoomFeed` (composition) and passes itself to each call: the feed
reads the room's racers and phase, keeps no reference to it (a cycle: place.py), and sends
through the room's :class:`~.place.PlaceCore`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .masking import HiddenCards, face_up_any, mask_view
from .messages import ProgressRow, ViewMessage
from .observed import shown_progress, shown_ranks
from .outputs import ConnId, Output, Send
from .place import PlaceCore
from .progress_batch import ProgressBatch
from .racer import Racer
from .room_events import Progress, RoomEvent
from .states import RACING

if TYPE_CHECKING:  # the room calls its feed with itself
    from .room import Room


class _Shown:
    """A racer's progress entry as others see it (``row``), with her own entry and the
    hidden set's version it was counted from; changed in place (a tuple a move was one
    more object for the garbage collector to walk)."""

    def __init__(self) -> None:
        self.progress: ProgressRow | None = None
        self.version = -1
        self.row: ProgressRow | None = None


class RoomFeed:
    """The progress and boards of a room's racers."""

    def __init__(self, core: PlaceCore, progress_interval: float) -> None:
        self.core = core
        self.members = core.members
        self.hidden = HiddenCards()  # cards face down on a playing board: masked for others
        self.progress_batch = ProgressBatch(progress_interval)
        self._shown: dict[str, _Shown] = {}  # by racer id

    def board(
        self, room: Room, racer: Racer | None, viewer: str | None
    ) -> dict[str, object] | None:
        """A racer's view as ``viewer`` may see it, or None before the start: nobody sees
        the deal during the countdown (a reconnect or a follow then would give a head
        start). Anyone but the racer gets it masked (see :mod:`.masking`), with the numbers
        others may see (see :mod:`.observed`)."""
        if racer is None or room.phase == "countdown":
            return None
        if viewer == racer.player.id:
            return racer.view()
        self.hidden.sync(room.racers)
        return self._masked_board(room, racer)

    def _masked_board(self, room: Room, racer: Racer) -> dict[str, object]:
        """:meth:`board` for anyone but the racer, the hidden cards synced."""
        masked = mask_view(racer.game.view(legal=False), self.hidden.cards)
        shown = self.shown(room, racer)
        masked["score"], masked["ordered"] = shown["score"], shown["ordered"]
        return masked

    def shown(self, room: Room, racer: Racer) -> ProgressRow:
        """``racer``'s progress entry as everyone but her may see it (exact once the round
        is over). Call after the hidden cards are synced; the same dict comes back until
        her game or the hidden cards change: treat it as read-only."""
        progress = racer.progress()
        if room.phase not in RACING:
            return progress
        pid, version = racer.player.id, self.hidden.version
        cached = self._shown.get(pid)
        if cached is None:
            cached = self._shown[pid] = _Shown()
        elif cached.row is not None and cached.progress is progress and cached.version == version:
            return cached.row
        row = shown_progress(progress, racer.game, self.hidden)
        # The entry compared by ``is`` is kept alive with it: its id is not reused.
        cached.row, cached.progress, cached.version = row, progress, version
        return row

    def shown_rows(self, room: Room) -> dict[str, ProgressRow]:
        """Every racer's :meth:`shown` entry by player id (hidden cards synced): read once
        for both the rows and the live ranks (``shown_ranks(rows.values())``)."""
        return {pid: self.shown(room, racer) for pid, racer in room.racers.items()}

    def progress_event(self, room: Room, changed: list[Racer]) -> Progress:
        """A ``progress`` event: the numbers of ``changed`` as others see them, and every
        racer's live rank (the server ranks, the client only shows them)."""
        rows = self.shown_rows(room)
        players = [rows[racer.player.id] for racer in changed]
        return {"event": "progress", "players": players, "ranks": shown_ranks(rows.values())}

    def _view_message(self, racer: Racer, board: dict[str, object] | None) -> ViewMessage:
        return {
            "type": "view",
            "player": racer.player.id,
            "view": board,
            "status": racer.status,
            "elapsed": racer.last_elapsed,
        }

    def _followers(self, player_id: str) -> tuple[ConnId, ...]:
        """The connections of everyone but ``player_id`` who follows that racer (or every
        racer)."""
        conns: list[ConnId] = []  # loops, not a generator: pure Python runs them faster
        for member in self.members.by_id.values():
            if member.follows(player_id):
                conns.extend(member.conns)
        return tuple(conns)

    def send_view(
        self,
        room: Room,
        out: list[Output],
        racer: Racer,
        exclude: ConnId | None,
        followers: bool = True,
    ) -> None:
        """The racer's board to the racer's other tabs, and masked to its followers (unless
        ``followers`` is False: after a move they get it with the progress announcement)."""
        if room.phase == "countdown":
            return  # see board()
        pid = racer.player.id
        own = self.members.get(pid)
        conns = tuple([c for c in own.conns if c != exclude]) if own else ()
        if conns:
            out.append(Send(conns, self._view_message(racer, self.board(room, racer, pid))))
        if followers:
            self._send_followers(room, out, racer)

    def _send_followers(self, room: Room, out: list[Output], racer: Racer) -> None:
        followers = self._followers(racer.player.id)
        if followers:
            out.append(Send(followers, self._view_message(racer, self.board(room, racer, None))))

    def progress(self, room: Room, out: list[Output], racer: Racer, now: float) -> None:
        """``racer``'s numbers changed: announced at once, or with the next batch. Cards whose
        masking changed with it (released by her last turn or her finish, or hidden again by
        her undo) change what others see of the boards showing them: those racers' boards
        go to their followers at once and their numbers with the announcement."""
        board = racer.game if racer.playing else None
        changed = self.hidden.sync_one_changes(racer.player.id, board)
        others = [
            other
            for other in room.racers.values()
            if changed and other is not racer and face_up_any(other.game, changed)
        ]
        due = self.progress_batch.changed(racer.player.id, now)
        for other in others:
            self.progress_batch.changed(other.player.id, now)
        if due:
            self.announce_progress(room, out, now)
        elif room.phase != "countdown":
            for other in others:
                self._send_followers(room, out, other)

    def announce_progress(self, room: Room, out: list[Output], now: float | None) -> None:
        """What the batch holds goes out now (``now`` None: whether its interval is up or
        not, before an event or a newcomer's welcome)."""
        racers = room.racers
        changed = [racers[pid] for pid in self.progress_batch.take(now) if pid in racers]
        if not changed:
            return
        self.core.emit(out, self.progress_event(room, changed))
        if room.phase == "countdown":
            return
        # Followers get the boards with their numbers: synced once (board() syncs for each).
        followed = [(r, conns) for r in changed if (conns := self._followers(r.player.id))]
        if followed:
            self.hidden.sync(racers)
        for racer, followers in followed:
            board = self._masked_board(room, racer)
            out.append(Send(followers, self._view_message(racer, board)))

    def emit(
        self, room: Room, out: list[Output], event: RoomEvent, exclude: ConnId | None = None
    ) -> None:
        """A room event, after the progress made before it (which goes out first)."""
        if self.progress_batch.waiting:
            self.announce_progress(room, out, None)
        self.core.emit(out, event, exclude)
