"""One player's game in a race or a daily attempt: actions on the race clock.

>>> from scorpion.engine import Game
>>> from .players import Player
>>> r = Racer(Player("p1", "Ada"), Game.new(1, "classic"), 100.0, place="room1", round=1)
>>> r.apply("give-up", r.elapsed(130.0))
'give-up'
>>> r.status, r.finished_elapsed, r.progress()["status"]
('gave-up', 30.0, 'gave-up')

Fair undo never takes back a move that showed a card (here the stock's three):

>>> fair = Racer(Player("p2", "Bo"), Game.new(1), 100.0, place="room1", round=1, undo="fair")
>>> fair.apply("deal", 1.0), fair.view()["can_undo"], fair.view()["undo_refusal"]
('deal', False, "Undo can't take back a move that showed a card")
>>> try:
...     fair.apply("undo", 2.0)
... except RaceError as exc:
...     print(exc.code, fair.game.moves_made)
undo-reveals 1
"""

from __future__ import annotations

from typing import Final

from scorpion.engine import Game, MoveError, apply_action

from .errors import RaceError
from .messages import ProgressRow
from .players import Player
from .records import ActionRecord, GameResult
from .searches import SearchTicket
from .states import Ended, Status, Stopped

HINT: Final = "hint"  # logged so that a restored game counts it (never searched again)
UNDO: Final = "undo"
UNDO_REVEALS: Final = "Undo can't take back a move that showed a card"


class Racer:
    """A player's game on a clock that started at ``started_at`` (server time), logged
    under ``place`` (a room id or ``daily:<date>``) and ``round`` (a daily's attempt).

    ``undo`` is "full" (any move the rules allow), "fair" (never a move that showed a
    card: a peek at the stock or under a card must not be free) or "off".
    """

    def __init__(
        self,
        player: Player,
        game: Game,
        started_at: float,
        *,
        place: str,
        round: int,
        preset: str | None = None,
        undo: str = "full",
        hints: bool = False,
        auto: bool = False,
    ) -> None:
        self.player = player
        self.preset = preset or game.preset or "custom"
        self.game = game
        self.started_at = started_at
        self.place = place
        self.round = round
        self.undo_policy = undo
        self.hints_allowed = hints
        self.auto_allowed = auto
        self.status: Status = "playing"
        self.finished_elapsed: float | None = None
        self.hints = 0
        self.autos = 0  # moves Auto played (logged with each, so a restore counts them)
        self.last_elapsed = 0.0
        self.search: SearchTicket | None = None  # a hint or Auto being searched
        # progress(): the last row, and the log's length, score, status, hints, Autos and
        # elapsed it shows (fields, not a key tuple: two objects a move for the collector).
        self._progress: ProgressRow | None = None
        self._progress_logged = self._progress_score = self._progress_hints = -1
        self._progress_autos = -1
        self._progress_status: Status = "playing"
        self._progress_elapsed = -1.0
        # The results chart, by action: see ``timeline``.
        self._times: list[float] = []
        self._runs: list[int] = []
        self._scores: list[int] = []

    @property
    def playing(self) -> bool:
        return self.status == "playing"

    def elapsed(self, now: float) -> float:
        """Seconds on this player's clock at ``now`` (never going backwards)."""
        if self.finished_elapsed is not None:
            return self.finished_elapsed
        # To the millisecond, as round(x, 3) but without its exact decimal conversion (a
        # tenth of a move's cost compiled): half up, so a tie may round the other way.
        return max(self.last_elapsed, int(max(0.0, now - self.started_at) * 1000 + 0.5) / 1000)

    def check_playing(self) -> None:
        if not self.playing:
            raise RaceError("finished", "Your game is over")

    def check_hints(self) -> None:
        if not self.hints_allowed:
            raise RaceError("hints-not-allowed", "Hints are not allowed here")

    def check_auto(self) -> None:
        if not self.auto_allowed:
            raise RaceError("auto-not-allowed", "Auto is not allowed here")

    @property
    def undo_refused(self) -> bool:
        """Whether fair undo refuses the next undo: the move it would take back showed a card."""
        return self.undo_policy == "fair" and self.game.undo_reveals

    def view(self) -> dict[str, object]:
        """The racer's own board (``Game.view()``), saying ahead when fair undo would refuse
        the next undo (``can_undo`` false, ``undo_refusal`` the refusal's sentence)."""
        view = self.game.view()
        if view["can_undo"] and self.undo_refused:
            return {**view, "can_undo": False, "undo_refusal": UNDO_REVEALS}
        return view

    def apply(self, action: str, elapsed: float, *, replayed: bool = False) -> str:
        """Apply one action (move text, ``deal``, ``undo``, ``give-up`` or ``hint``) at
        ``elapsed``, live or ``replayed`` from the log; return its logged text.

        Raises :class:`RaceError` or the engine's ``MoveError``; then nothing changed. A
        replayed hint or undo is applied whatever today's rules say: it was allowed when asked
        (a refused undo was never logged).
        """
        self.check_playing()
        if action == HINT:
            if not replayed:
                self.check_hints()
            self.hints += 1
            self.last_elapsed = elapsed
            return HINT
        if action == UNDO and self.undo_policy == "off":
            raise RaceError("undo-not-allowed", "Undo is not allowed here")
        if action == UNDO and not replayed and self.undo_refused:
            raise RaceError("undo-reveals", UNDO_REVEALS)
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
        self._chart(elapsed)
        return logged

    def _chart(self, elapsed: float) -> None:
        self._times.append(elapsed)
        self._runs.append(len(self.game.runs))
        self._scores.append(self.game.score)

    @property
    def timeline(self) -> list[tuple[float, int, int]]:
        """(elapsed, runs, score) after each change: the results chart. Kept in three
        lists: a tuple an action was one more object for the garbage collector to walk."""
        return list(zip(self._times, self._runs, self._scores, strict=True))

    @property
    def clean(self) -> bool:
        """No help used: no hint asked, no move played by Auto."""
        return not (self.hints or self.autos)

    def record(self, seq: int, action: str, *, auto: bool = False) -> ActionRecord:
        """The store's record of an action just applied (seq 0: no command asked for it;
        ``auto``: Auto played it)."""
        return ActionRecord(
            self.place, self.round, self.player.id, seq, action, self.last_elapsed, auto
        )

    def _finish(self, status: Ended, elapsed: float) -> None:
        self.status = status
        self.finished_elapsed = elapsed

    def stop(self, status: Stopped, elapsed: float) -> None:
        """End a game still playing from outside: ``timed-out`` or ``left``."""
        if self.playing:
            elapsed = max(elapsed, self.last_elapsed)
            self.game.tick(elapsed)  # timed scoring: the clock's deductions up to the end
            self.last_elapsed = elapsed
            self._finish(status, elapsed)
            self._chart(elapsed)

    def progress(self) -> ProgressRow:
        """Numbers only (never a card): the ``progress`` event's fields.

        The same dict comes back until the game or the clock changes (every move ranks the
        whole room with it): treat it as read-only.
        """
        game = self.game
        logged, score = game.logged, game.score
        if (
            self._progress is not None
            and self._progress_logged == logged
            and self._progress_score == score
            and self._progress_status == self.status
            and self._progress_hints == self.hints
            and self._progress_autos == self.autos
            and self._progress_elapsed == self.last_elapsed
        ):
            return self._progress
        # Cards in final order, the bars' measure: counted on the view's parts (sent too).
        ordered = game.ordered
        progress: ProgressRow = {
            "player": self.player.id,
            "runs": len(game.runs),
            "score": score,
            "moves": game.moves_made,
            "turned": game.cards_turned,
            "status": self.status,
            "elapsed": self.finished_elapsed
            if self.finished_elapsed is not None
            else self.last_elapsed,
            "hints": self.hints,
            "autos": self.autos,
            "clean": self.clean,  # ranked apart from assisted results
            "ordered": ordered,
        }
        self._progress, self._progress_logged, self._progress_score = progress, logged, score
        self._progress_status, self._progress_hints = self.status, self.hints
        self._progress_autos, self._progress_elapsed = self.autos, self.last_elapsed
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
            autos=self.autos,
        )
