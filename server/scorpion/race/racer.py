"""One player's game in a race or a daily attempt: actions on the race clock.

>>> from scorpion.engine import Game
>>> from .players import Player
>>> r = Racer(Player("p1", "Ada"), Game.new(1, "classic"), 100.0, place="room1", round=1)
>>> r.apply("give-up", r.elapsed(130.0))
'give-up'
>>> r.status, r.finished_elapsed, r.progress()["status"]
('gave-up', 30.0, 'gave-up')
"""

from __future__ import annotations

from typing import Final

from scorpion.engine import Game, MoveError, apply_action

from .errors import RaceError
from .players import Player
from .records import ActionRecord, GameResult
from .searches import SearchTicket

HINT: Final = "hint"  # logged so that a restored game counts it (never searched again)
UNDO: Final = "undo"


class Racer:
    """A player's game on a clock that started at ``started_at`` (server time), logged
    under ``place`` (a room id or ``daily:<date>``) and ``round`` (a daily's attempt)."""

    def __init__(
        self,
        player: Player,
        game: Game,
        started_at: float,
        *,
        place: str,
        round: int,
        preset: str | None = None,
        undo: bool = True,
        hints: bool = False,
    ) -> None:
        self.player = player
        self.preset = preset or game.preset or "custom"
        self.game = game
        self.started_at = started_at
        self.place = place
        self.round = round
        self.undo_allowed = undo
        self.hints_allowed = hints
        self.status = "playing"
        self.finished_elapsed: float | None = None
        self.hints = 0
        self.autos = 0  # Auto used, for the results (not kept across a restart)
        self.last_elapsed = 0.0
        self.search: SearchTicket | None = None  # a hint or Auto being searched
        self._progress: tuple[tuple[object, ...], dict[str, object]] | None = None
        # (elapsed, runs, score) after each change: the results chart.
        self.timeline: list[tuple[float, int, int]] = []

    @property
    def playing(self) -> bool:
        return self.status == "playing"

    def elapsed(self, now: float) -> float:
        """Seconds on this player's clock at ``now`` (never going backwards)."""
        if self.finished_elapsed is not None:
            return self.finished_elapsed
        return max(self.last_elapsed, round(max(0.0, now - self.started_at), 3))

    def check_playing(self) -> None:
        if not self.playing:
            raise RaceError("finished", "Your game is over")

    def check_hints(self, what: str = "Hints") -> None:
        if not self.hints_allowed:
            raise RaceError("hints-not-allowed", f"{what} are not allowed here")

    def apply(self, action: str, elapsed: float, *, replayed: bool = False) -> str:
        """Apply one action (move text, ``deal``, ``undo``, ``give-up`` or ``hint``) at
        ``elapsed``, live or ``replayed`` from the log; return its logged text.

        Raises :class:`RaceError` or the engine's ``MoveError``; then nothing changed. A
        replayed hint is counted whatever today's rules say: it was allowed when asked.
        """
        self.check_playing()
        if action == HINT:
            if not replayed:
                self.check_hints()
            self.hints += 1
            self.last_elapsed = elapsed
            return HINT
        if action == UNDO and not self.undo_allowed:
            raise RaceError("undo-not-allowed", "Undo is not allowed here")
        game = self.game
        try:
            logged = apply_action(game, action, elapsed)
        except MoveError as exc:
            if exc.code == "face-down":
                # The engine says where (a column or the stock): probing every unseen card
                # would tell a player which three are in the stock. Say only "face down".
                raise MoveError("face-down", "That card is face down") from None
            raise
        self.last_elapsed = elapsed
        if game.won:
            self._finish("won", elapsed)
        elif game.gave_up:
            self._finish("gave-up", elapsed)
        elif game.lost:
            self._finish("lost", elapsed)
        self.timeline.append((elapsed, len(game.runs), game.score))
        return logged

    def record(self, seq: int, action: str) -> ActionRecord:
        """The store's record of an action just applied (seq 0: no command asked for it)."""
        return ActionRecord(self.place, self.round, self.player.id, seq, action, self.last_elapsed)

    def _finish(self, status: str, elapsed: float) -> None:
        self.status = status
        self.finished_elapsed = elapsed

    def stop(self, status: str, elapsed: float) -> None:
        """End a game still playing from outside: ``timed-out`` or ``left``."""
        if self.playing:
            elapsed = max(elapsed, self.last_elapsed)
            self.game.tick(elapsed)  # timed scoring: the clock's deductions up to the end
            self.last_elapsed = elapsed
            self._finish(status, elapsed)
            self.timeline.append((elapsed, len(self.game.runs), self.game.score))

    def progress(self) -> dict[str, object]:
        """Numbers only (never a card): the ``progress`` event's fields.

        The same dict comes back until the game or the clock changes (every move ranks the
        whole room with it): treat it as read-only.
        """
        game = self.game
        key = (len(game.log), game.score, self.status, self.hints, self.autos, self.last_elapsed)
        if self._progress is not None and self._progress[0] == key:
            return self._progress[1]
        progress: dict[str, object] = {
            "player": self.player.id,
            "runs": len(game.runs),
            "score": game.score,
            "moves": game.moves_made,
            "turned": game.cards_turned,
            "status": self.status,
            "elapsed": self.finished_elapsed
            if self.finished_elapsed is not None
            else self.last_elapsed,
            "hints": self.hints,
            "autos": self.autos,
            # Cards in final order, the bars' measure: the view counts them (it is sent too).
            "ordered": game.view()["ordered"],
        }
        self._progress = (key, progress)
        return progress

    def entry(self) -> dict[str, object]:
        """The ranking entry (results, leaderboards): a copy, never the cached progress."""
        return {**self.progress(), "name": self.player.name}

    def result(self, ranked: bool, now: float) -> GameResult:
        """The finished game's record for the store."""
        game = self.game
        assert game.deal is not None
        return GameResult(
            room=self.place,
            round=self.round,
            player=self.player.id,
            name=self.player.name,
            preset=self.preset,
            deal=game.deal,
            status=self.status,
            runs=len(game.runs),
            score=game.score,
            moves=game.moves_made,
            turned=game.cards_turned,
            elapsed=self.elapsed(now),
            hints=self.hints,
            ranked=ranked,
            actions=tuple((text, t if t is not None else 0.0) for text, t in game.log),
            finished_at=now,
        )
