"""Replays: a finished round's (or daily attempt's) games rebuilt from their stored actions,
each board as a spectator of the live round could have seen it at every moment.

Every racer's game is replayed from ``Game.new(deal, rules)`` through
:func:`~scorpion.engine.apply_action` (the path live play took), all racers merged on the
race clock. After each action the boards are masked by the rule of a followed board
(:mod:`.masking`): a card face down on any board still playing at that moment is ``??``
on every other board; a finished racer stops hiding cards. The client never re-derives a
rule: it gets the masked boards.

The output is compact: each racer's masked board at 0:00 (``start``), then one step per
action, ``[t, racer, action, status, boards]``, where ``boards`` lists ``[racer, delta]``
for every board that changed (the actor's, and others whose masked cards the action hid or
showed): a delta holds only the view's keys that changed, and its ``columns`` (when a
column changed) has ``null`` for every column unchanged.

>>> from scorpion.engine import get_rules
>>> ada = ReplayGame("a", "Ada", 7, get_rules("classic"), [("deal", 1.5)], "timed-out", 9.0)
>>> bo = ReplayGame("b", "Bo", 7, get_rules("classic"), [], "timed-out", 9.0)
>>> replay = build_replay([ada, bo])
>>> [(t, racer, action, status) for t, racer, action, status, _ in replay["steps"]]
[(1.5, 0, 'deal', None), (9.0, 0, None, 'timed-out'), (9.0, 1, None, 'timed-out')]
>>> dealt = replay["steps"][0][4][0][1]["columns"]  # Ada's board after the deal
>>> [column["up"][-1] for column in dealt[:3]]  # still in Bo's stock: masked
['??', '??', '??']
>>> shown = replay["steps"][2][4][0]  # Bo ends: Ada's board shows the three cards
>>> shown[0], "??" in [column["up"][-1] for column in shown[1]["columns"][:3]]
(0, False)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, Final

from scorpion.engine import Game, MoveError, NotationError, Rules, apply_action

from .masking import HiddenCards, face_up_any
from .observed import shown_board
from .ranking import rank_entries
from .settings import RoomSettings, SettingsError

View = dict[str, Any]
ENDS_BY_ITSELF: Final = ("won", "lost", "gave-up")  # the game's last action ended it


class ReplayError(ValueError):
    """Stored games that cannot be replayed (an action the rules refuse, no games)."""


@dataclass(frozen=True, slots=True)
class ReplayGame:
    """What a replay needs of one stored game: whose, its deal and rules, its actions with
    their race-clock times, and how and when it ended (``elapsed``: its final time)."""

    player: str
    name: str
    deal: int
    rules: Rules
    actions: Sequence[tuple[str, float | None]]
    status: str
    elapsed: float
    hints: int = 0
    autos: int = 0


def rules_of(settings: Mapping[str, object]) -> Rules:
    """The rules of a game row's stored settings (a room's, without its deal; a daily's or a
    practice's ``{"preset": ...}``), as the room made them.

    >>> from scorpion.engine import get_rules
    >>> rules_of({"preset": "classic", "undo": False}).undo
    0
    >>> rules_of({"preset": "wasp", "max_players": 4, "unknown": 1}) == get_rules("wasp")
    True
    """
    known = {f.name for f in fields(RoomSettings)} - {"deal"}
    try:
        return RoomSettings.from_dict({k: v for k, v in settings.items() if k in known}).rules()
    except SettingsError as exc:
        raise ReplayError(f"the stored settings give no rules: {exc}") from None


class _Board:
    """One racer's game being replayed (``game`` and ``playing``: what masking reads)."""

    def __init__(self, source: ReplayGame) -> None:
        self.source = source
        self.game = Game.new(source.deal, source.rules)
        self.playing = True
        self.shown: View = {}  # the masked view last sent

    def status(self) -> str | None:
        game = self.game
        return "won" if game.won else "gave-up" if game.gave_up else "lost" if game.lost else None


def _delta(before: View, after: View) -> View:
    """The keys of ``after`` that differ from ``before``; changed columns only.

    >>> _delta({"columns": [{"up": ["4H"]}, {"up": []}], "score": 0},
    ...        {"columns": [{"up": []}, {"up": []}], "score": 0})
    {'columns': [{'up': []}, None]}
    """
    out: View = {}
    for key, value in after.items():
        old = before.get(key)
        if value == old:
            continue
        if key == "columns" and isinstance(old, list) and len(old) == len(value):
            out[key] = [None if c == o else c for c, o in zip(value, old, strict=True)]
        else:
            out[key] = value
    return out


def _events(games: Sequence[ReplayGame]) -> list[tuple[float, int, str | None]]:
    """Every action, and every end no action made (out of time, left), on the race clock:
    (t, racer, action or None for an end), in time order (a racer's own in their order)."""
    events: list[tuple[float, int, str | None]] = []
    for index, game in enumerate(games):
        t = 0.0
        for text, elapsed in game.actions:
            t = max(t, elapsed or 0.0)  # a log's times never go back
            events.append((t, index, text))
        events.append((max(t, game.elapsed), index, None))
    events.sort(key=lambda e: e[0])  # stable: equal times keep their order
    return events


def build_replay(games: Sequence[ReplayGame]) -> dict[str, Any]:
    """The replay of ``games`` (one round's racers, or one daily attempt): ``racers`` (their
    results, ranked as the results were), ``start``, ``steps`` (see the module), the
    results chart's ``timeline`` ({player: [[t, runs, score], ...]}) and ``end``."""
    if not games:
        raise ReplayError("no game to replay")
    boards = [_Board(g) for g in games]
    by_id = {str(i): b for i, b in enumerate(boards)}
    hidden = HiddenCards()
    hidden.sync(by_id)
    for board in boards:
        board.shown = shown_board(board.game, hidden, racing=True)
    start = [b.shown for b in boards]
    steps: list[list[Any]] = []
    timeline: dict[str, list[list[float | int]]] = {g.player: [] for g in games}
    for t, index, action in _events(games):
        board = boards[index]
        game = board.game
        if action is not None:
            if not board.playing:
                raise ReplayError(f"{board.source.player} acted after the game ended")
            try:
                apply_action(game, action, t)
            except (MoveError, NotationError) as exc:
                raise ReplayError(f"{board.source.player}: {action!r} refused: {exc}") from None
            ended = board.status()
        elif board.playing:  # ended by the clock or by leaving: the timed score's last charge
            if board.source.status in ENDS_BY_ITSELF or board.source.status == "playing":
                raise ReplayError(
                    f"{board.source.player}'s game is stored as {board.source.status!r}, "
                    "which its actions do not give"
                )
            game.tick(t)
            ended = board.source.status
        else:
            continue  # the last action ended it
        if ended is not None:
            board.playing = False
        timeline[board.source.player].append([t, len(game.runs), game.score])
        before = hidden.cards
        hidden.sync_one(str(index), board.game if board.playing else None)
        changed = before ^ hidden.cards
        racing = any(b.playing for b in boards)  # after the last: the results, exact
        views = []
        for other_index, other in enumerate(boards):
            if (
                racing
                and other is not board
                and (not changed or not face_up_any(other.game, changed))
            ):
                continue
            view = shown_board(other.game, hidden, racing)
            if view != other.shown:
                views.append([other_index, _delta(other.shown, view)])
                other.shown = view
        steps.append([t, index, action, ended, views])
    entries = [
        {
            "player": b.source.player,
            "name": b.source.name,
            "status": b.status() or b.source.status,
            "elapsed": max(b.source.elapsed, timeline[b.source.player][-1][0]),
            "runs": len(b.game.runs),
            "score": b.game.score,
            "moves": b.game.moves_made,
            "hints": b.source.hints,
            "autos": b.source.autos,
            "clean": not (b.source.hints or b.source.autos),
        }
        for b in boards
    ]
    ranked = {str(e["player"]): e["rank"] for e in rank_entries(entries)}
    racers = [{**e, "rank": ranked[str(e["player"])]} for e in entries]
    end = max(float(str(e["elapsed"])) for e in entries)
    return {"racers": racers, "start": start, "steps": steps, "timeline": timeline, "end": end}
