"""What a room's members see of its racers while they play: their numbers and their boards.

A racer's numbers go out in ``progress`` events, at most one every
``RoomConfig.progress_interval`` (:mod:`.progress_batch`): every racer that changed since
the last one, with everyone's live rank, and the boards of those racers to their
followers. A racer's own board goes to the racer's other tabs as it changes. Anyone but
the racer gets a board masked (:mod:`.masking`), and nobody gets one during the
countdown.
"""

from __future__ import annotations

from .masking import HiddenCards, face_up, mask_view
from .outputs import ConnId, Message, Output, Send
from .place import Place
from .progress_batch import ProgressBatch
from .racer import Racer
from .ranking import live_ranks


class RoomFeed(Place):
    """The progress and boards of a room's racers (``Room`` fills ``racers`` and ``phase``)."""

    racers: dict[str, Racer]
    phase: str

    def __init__(
        self, key: str, *, keep_events: int, version_base: int, progress_interval: float
    ) -> None:
        super().__init__(key, keep_events=keep_events, version_base=version_base)
        self.hidden = HiddenCards()  # cards face down on a playing board: masked for others
        self.progress_batch = ProgressBatch(progress_interval)

    def board(self, racer: Racer | None, viewer: str | None) -> dict[str, object] | None:
        """A racer's view as ``viewer`` may see it, or None before the start: nobody sees
        the deal during the countdown (a reconnect or a follow then would give a head
        start). Anyone but the racer gets it masked (see :mod:`.masking`)."""
        if racer is None or self.phase == "countdown":
            return None
        if viewer == racer.player.id:
            return racer.view()
        self.hidden.sync(self.racers)
        return mask_view(racer.game.view(), self.hidden.cards)

    def _view_message(self, racer: Racer, viewer: str | None) -> Message:
        return {
            "type": "view",
            "player": racer.player.id,
            "view": self.board(racer, viewer),
            "status": racer.status,
            "elapsed": racer.last_elapsed,
        }

    def _followers(self, player_id: str) -> tuple[ConnId, ...]:
        """The connections of everyone but ``player_id`` who follows that racer."""
        return tuple(
            conn
            for member in self.members.by_id.values()
            if member.following == player_id and member.id != player_id
            for conn in member.conns
        )

    def send_view(
        self, out: list[Output], racer: Racer, exclude: ConnId | None, followers: bool = True
    ) -> None:
        """The racer's board to the racer's other tabs, and masked to its followers (unless
        ``followers`` is False: after a move they get it with the progress announcement)."""
        if self.phase == "countdown":
            return  # see board()
        pid = racer.player.id
        own = self.members.get(pid)
        conns = tuple(c for c in own.conns if c != exclude) if own else ()
        if conns:
            out.append(Send(conns, self._view_message(racer, pid)))
        if followers:
            self._send_followers(out, racer)

    def _send_followers(self, out: list[Output], racer: Racer) -> None:
        followers = self._followers(racer.player.id)
        if followers:
            out.append(Send(followers, self._view_message(racer, None)))

    def progress(self, out: list[Output], racer: Racer, now: float) -> None:
        """``racer``'s numbers changed: announced at once, or with the next batch."""
        if self.progress_batch.changed(racer.player.id, now):
            self._announce_progress(out, now)
        self._unmask(out, racer)

    def _announce_progress(self, out: list[Output], now: float | None) -> None:
        changed = [self.racers[pid] for pid in self.progress_batch.take(now) if pid in self.racers]
        if not changed:
            return
        # Every racer's live rank: the server ranks, the client only shows it.
        ranks = live_ranks(r.progress() for r in self.racers.values())
        players = [r.progress() for r in changed]
        super().emit(out, {"event": "progress", "players": players, "ranks": ranks})
        if self.phase != "countdown":  # followers get the boards with their numbers
            for racer in changed:
                self._send_followers(out, racer)

    def emit(self, out: list[Output], event: Message, exclude: ConnId | None = None) -> None:
        if self.progress_batch.waiting:  # progress made before this event goes out before it
            self._announce_progress(out, None)
        super().emit(out, event, exclude)

    def _unmask(self, out: list[Output], changed: Racer) -> None:
        """After ``changed``'s board or status changed: cards that no playing board hides
        any more are shown at once to the followers of the other boards holding them."""
        if self.phase == "countdown" or not any(m.following for m in self.members.by_id.values()):
            return  # nobody follows a board: board() brings the hidden cards up to date
        released = self.hidden.sync_one(changed.player.id, changed)
        if not released:
            return
        for racer in self.racers.values():
            if racer is changed or released.isdisjoint(face_up(racer.game)):
                continue
            self._send_followers(out, racer)
