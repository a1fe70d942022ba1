"""One player's game in a race or a daily attempt: commands on the race clock.

>>> from scorpion.engine import Game
>>> from .players import Player
>>> r = Racer(Player("p1", "Ada"), Game.new(1, "classic"), started_at=100.0)
>>> r.apply("give-up", None, now=130.0)
{}
>>> r.status, r.finished_elapsed, r.progress()["status"]
('gave-up', 30.0, 'gave-up')
"""

from __future__ import annotations

from typing import Final

from scorpion.engine import Game, MoveError
from scorpion.engine.progress import ordered_cards

from .errors import RaceError
from .players import Player
from .records import GameResult
from .solver_bridge import auto_step, suggest

# Command type -> racer action.
GAME_ACTIONS: Final = {
    "move": "move", "deal": "move", "undo": "undo", "hint": "hint", "give-up": "give-up",
    "auto": "auto",
}  # fmt: skip


class Racer:
    """A player's game on a clock that started at ``started_at`` (server time)."""

    def __init__(
        self,
        player: Player,
        game: Game,
        started_at: float,
        *,
        preset: str | None = None,
        undo: bool = True,
        hints: bool = False,
    ) -> None:
        self.player = player
        self.preset = preset or game.preset or "custom"
        self.game = game
        self.started_at = started_at
        self.undo_allowed = undo
        self.hints_allowed = hints
        self.status = "playing"
        self.finished_elapsed: float | None = None
        self.hints = 0
        self.autos = 0  # issue 14: Auto used, for the results (not kept across a restart)
        self.last_elapsed = 0.0
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

    def apply(self, action: str, move: str | None, now: float) -> dict[str, object]:
        """Play one command (``move``, ``undo``, ``hint``, ``give-up``, ``auto``); answer
        fields.

        Raises :class:`RaceError` or the engine's ``MoveError``; then nothing changed.
        """
        if action == "auto":
            return self.auto(now)
        return self.replay(action, move, self.elapsed(now))

    def auto(self, now: float) -> dict[str, object]:
        """The seed's Auto: play the first move of a winning line, or concede a lost game.

        Where hints are allowed only. What it played goes through :meth:`replay` as a
        plain move or give-up (and is recorded so), so a restored room replays it exactly;
        ``auto`` in the answer says what that was (a move text or ``"give-up"``).
        Raises ``auto-unknown`` (nothing changed) when the search decided nothing in time.
        """
        if not self.playing:
            raise RaceError("finished", "Your game is over")
        if not self.hints_allowed:
            raise RaceError("hints-not-allowed", "Auto is a hint: hints are not allowed here")
        verdict, move = auto_step(self.game)
        elapsed = self.elapsed(now)
        if verdict == "won":
            extra = self.replay("move", move, elapsed)
            extra["auto"] = extra["move"]
            self.autos += 1  # issue 14
        elif verdict == "lost":
            extra = self.replay("give-up", None, elapsed)
            extra["auto"] = "give-up"
            self.autos += 1  # issue 14
        else:
            raise RaceError("auto-unknown", "Auto found no line within its time; the game goes on")
        return extra

    def replay(self, action: str, move: str | None, elapsed: float) -> dict[str, object]:
        """:meth:`apply` at a given elapsed time (also used to rebuild from the log)."""
        if not self.playing:
            raise RaceError("finished", "Your game is over")
        game = self.game
        extra: dict[str, object] = {}
        if action == "move":
            assert move is not None
            try:
                outcome = game.play(move, elapsed)
            except MoveError as exc:
                if exc.code == "face-down":
                    # The engine says where (a column or the stock): probing every unseen card
                    # would tell a player which three are in the stock. Say only "face down".
                    raise MoveError("face-down", "That card is face down") from None
                raise
            extra["move"] = str(outcome.move)
        elif action == "undo":
            if not self.undo_allowed:
                raise RaceError("undo-not-allowed", "Undo is not allowed here")
            game.undo(elapsed)
        elif action == "hint":
            if not self.hints_allowed:
                raise RaceError("hints-not-allowed", "Hints are not allowed here")
            extra["hints"] = suggest(game)
            self.hints += 1
        elif action == "give-up":
            game.give_up(elapsed)
        else:
            raise RaceError("unknown-type", f"Unknown action {action!r}")
        self.last_elapsed = elapsed
        if game.won:
            self._finish("won", elapsed)
        elif game.gave_up:
            self._finish("gave-up", elapsed)
        elif game.lost:
            self._finish("lost", elapsed)
        if action != "hint":
            self.timeline.append((elapsed, len(game.runs), game.score))
        return extra

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
        """Numbers only (never a card): the ``progress`` event's fields."""
        game = self.game
        return {
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
            "autos": self.autos,  # issue 14
            "ordered": ordered_cards(game),  # issue 14: cards in final order, the bars' measure
        }

    def entry(self) -> dict[str, object]:
        """The ranking entry (results, leaderboards)."""
        data = self.progress()
        data["name"] = self.player.name
        return data

    def result(self, room: str, round_: int, ranked: bool, now: float) -> GameResult:
        """The finished game's record for the store."""
        game = self.game
        assert game.deal is not None
        return GameResult(
            room=room,
            round=round_,
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
