"""Practice: a player's own games, one after another, never ranked (docs/protocol.md, section 8).

A :class:`Practice` is a place (:class:`~.place.AnyPlace`) of one member: the player, on
every tab they open. There is no lobby, countdown, race clock, ranking or event for
anyone else. The player deals with ``new-deal`` (any preset), then plays through
the shared game path with undo, hints and Auto always allowed. A finished game
is a :class:`~.records.GameResult` like any other (unranked), so it counts in the
per-preset statistics. A new deal while a game is under way ends that game as
given up (a loss) when a move was made; an untouched deal is dropped unscored.

Not to be confused with the daily's *unranked attempts* (:mod:`.daily`): those
replay a day's shared deal; practice deals a new random deal for you alone.

>>> from .players import Player
>>> practice = Practice(Player("p1", "Ada"), deal_source=lambda: 7)
>>> practice.core.key, practice.current is None
('practice:p1', True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from scorpion.engine import PRESETS, Game, get_rules

from .commands import Auto, Command, Deal, GiveUp, Hint, Move, NewDeal, Undo
from .errors import RaceError
from .members import Member
from .messages import AnswerFields, GameFields, PracticeGame, ViewMessage
from .outputs import ConnId, Message, Output, Persist, Send
from .place import PlaceCore, as_answer, game_answer, replay_action
from .place_hooks import AnyPlace
from .players import Player
from .protocol import practice_key
from .racer import Racer
from .records import ActionRecord, PracticeDealt
from .searches import SearchTicket

PRACTICE_PRESET: Final = "classic"  # the first deal's preset when new-deal names none


class Practice(AnyPlace):
    """One player's practice: the game in hand, dealt and played on demand."""

    def __init__(
        self,
        player: Player,
        *,
        deal_source: Callable[[], int],
        keep_events: int = 10,
        version_base: int = 0,
    ) -> None:
        self.core = PlaceCore(
            practice_key(player.id),
            own_game="You can only play your own practice game",
            keep_events=keep_events,
            version_base=version_base,
        )
        self.player = player
        self.deal_source = deal_source
        self.current: Racer | None = None

    @property
    def playing(self) -> bool:
        return self.current is not None and self.current.playing

    # ------------------------------------------------------------------ reading
    def state(self) -> Message:
        """The snapshot in the welcome: the game in hand (numbers, its deal), or null."""
        game = self.current
        if game is None:
            return {"practice": True, "game": None}
        return {"practice": True, "game": self._game_fields(game)}

    def _game_fields(self, game: Racer) -> PracticeGame:
        assert game.game.deal is not None
        return {
            **game.progress(),
            "game": game.round,
            "preset": game.preset,
            "rules": game.game.rules.to_dict(),  # the client copies no rule
            "deal": str(game.game.deal),  # a string: beyond JavaScript's exact integers
            "started_at": game.started_at,
        }

    # ------------------------------------------------------------------ connections
    def connect(
        self, conn: ConnId, player: Player, last_version: int | None, now: float
    ) -> list[Output]:
        self.player = player  # the referee keys practices by player id; the name may be new
        member, _ = self.core.members.ensure(player)
        member.role = "player"
        self.core.members.attach(conn, member)
        game = self.current
        welcome = self.core.welcome(
            {"practice": True},
            member,
            last_version,
            now,
            status=game.status if game else None,
            state=self.state(),
            view=game.view() if game else None,
        )
        return [Send((conn,), welcome)]

    def disconnect(self, conn: ConnId, now: float) -> list[Output]:
        """A connection closed: the game in hand stays (resumed on the next hello)."""
        self.core.disconnect(conn, now)
        return []

    # ------------------------------------------------------------------ commands
    def advance(self, now: float, out: list[Output]) -> None:
        """A practice has no clock of its own."""

    def next_deadline(self) -> float | None:
        return None  # see advance()

    def run(
        self, member: Member, conn: ConnId, command: Command, now: float, out: list[Output]
    ) -> AnswerFields | None:
        """Apply one command of the player (ping is answered before it gets here)."""
        match command:
            case Move() | Deal() | Undo() | GiveUp() | Hint() | Auto():
                return self.core.play(self, member, conn, command, now, out)
            case NewDeal(preset=preset):
                return self.new_deal(member, conn, preset, now, out)
        raise RaceError("not-allowed", f"There is no {command.name} in practice")

    def racer_for(self, member: Member) -> Racer:
        game = self.current
        if game is None:
            raise RaceError("not-started", "Deal a practice game first (new-deal)")
        if not game.playing:
            raise RaceError("finished", "This game is over: deal a new one")
        return game

    def racer_by_ticket(self, ticket: SearchTicket) -> Racer | None:
        game = self.current
        return game if game is not None and game.round == ticket.round else None

    def answer_fields(self, racer: Racer) -> GameFields:
        return {**game_answer(racer), "game": racer.round}

    def help_used(self, racer: Racer, now: float, out: list[Output]) -> None:
        """Nobody else watches a practice: the answer carries the hint."""

    def after_change(
        self, racer: Racer, now: float, out: list[Output], exclude: ConnId | None
    ) -> None:
        """The board to the player's other tabs; the result to the store when it ends."""
        own = tuple(c for c in self.core.members.all_conns() if c != exclude)
        if own:
            fields = self.answer_fields(racer)  # the board first: view, status, elapsed, game
            view: ViewMessage = {"type": "view", "player": self.player.id, **fields}
            out.append(Send(own, view))
        if not racer.playing:
            out.append(Persist(racer.result(False, now)))

    def new_deal(
        self, member: Member, conn: ConnId, preset: str | None, now: float, out: list[Output]
    ) -> AnswerFields:
        old = self.current
        preset = preset or (old.preset if old is not None else PRACTICE_PRESET)
        if preset not in PRESETS:
            known = ", ".join(PRESETS)
            raise RaceError("bad-field", f"Unknown preset {preset!r} (known: {known})")
        if old is not None and old.playing:
            out.extend(self.core.drop_search(old, member))
            if old.game.logged:  # a game begun and dropped counts as given up
                logged = old.apply("give-up", old.elapsed(now))
                out.append(Persist(old.record(0, logged)))
                out.append(Persist(old.result(False, now)))
        number = old.round + 1 if old is not None else 1
        dealt = PracticeDealt(
            self.player.id, self.player.name, number, self.deal_source(), preset, now
        )
        out.append(Persist(dealt))
        game = self.deal(dealt)
        # The other tabs follow: the new board, as any change of the game in hand.
        self.after_change(game, now, out, exclude=conn)
        # The game row (as the state's ``game``) first, then the board: one key order.
        return {**self._game_fields(game), **as_answer(self.answer_fields(game))}

    def deal(self, dealt: PracticeDealt) -> Racer:
        """Put a dealt game in hand (live, or replayed by a restore)."""
        self.current = Racer(
            Player(dealt.player, dealt.name),
            Game.new(dealt.deal, get_rules(dealt.preset)),
            dealt.started_at,
            place=self.core.key,
            round=dealt.game,
            preset=dealt.preset,
            undo="full",
            hints=True,
            auto=True,
        )
        return self.current

    # ------------------------------------------------------------------ recovery
    def restore(self, dealt: PracticeDealt, actions: list[ActionRecord]) -> None:
        """Replay the game in hand from its records (in the order written)."""
        game = self.deal(dealt)
        member, _ = self.core.members.ensure(self.player)
        member.role = "player"
        for action in actions:
            skipped = replay_action(member, game, action)
            if skipped:
                self.core.skipped.append(skipped)
