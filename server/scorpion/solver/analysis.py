"""Where the win slipped away: the solver's verdict on every position of a finished game.

``analyse`` replays a game and judges the position after every action: winnable
(True), lost (False) or undecided in budget (None). It never guesses: a verdict is
either the solver's own or follows from one by the rules of reachability (a move
out of a lost position leads to a lost one; a position with a move into a
winnable one is winnable), so the moves of a game's line, which can only go from
winnable to lost once, are searched by bisection.

The *turning point* is the first move of the game's final line (undone moves
apart) after which it could no longer be won: the position before it proved
winnable, the one after it proved lost, with a move that would have kept it
winnable.

>>> from scorpion.engine import Game
>>> game = Game.from_text('''
... stock: -
... 1: | KS QS JS TS 9S 8S 7S 6S 5S 4S 3S
... 2: | KH QH JH TH 9H 8H 7H 6H 2S
... 3: | 5H AS 4H
... 4: | 3H 2H AH
... runs: D C
... ''')
>>> analysis = analyse(game, ["2S>1", "AS>1"])
>>> analysis.outcome, analysis.verdicts
('slipped', [False, False])
>>> analysis.turning_point
TurningPoint(index=0, move='2S>1', kept='3H>3')
>>> analyse(game, ["AS>2"]).outcome  # ended (the round, the clock) still winnable
'still-winnable'
>>> analyse(game, ["2S>1"], max_nodes=1).describe()
'undecided after move 0'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from scorpion.engine import Game, GameRecord
from scorpion.engine.record import GIVE_UP, UNDO, apply_action

from .cache import LostPositions
from .solve import solve

ANALYSE_NODES: Final = 2_000_000  # per position searched
NO_MOVE: Final = (UNDO, GIVE_UP)  # actions that are not moves

Outcome = Literal["won", "slipped", "never-winnable", "still-winnable", "undecided"]
VERDICT_NAMES: Final = {True: "winnable", False: "lost", None: "undecided"}
_FROM_NAME: Final = {name: verdict for verdict, name in VERDICT_NAMES.items()}


@dataclass(frozen=True, slots=True)
class TurningPoint:
    """Action ``index`` (0-based), its text ``move``, and ``kept``: a move from the
    position before it that kept the game winnable (None if the budget found none)."""

    index: int
    move: str
    kept: str | None


@dataclass(frozen=True, slots=True)
class Analysis:
    """What the solver says about a finished game.

    ``verdicts[i]``: whether the game could still be won after ``actions[i]`` (None:
    undecided). ``outcome``: "won"; "never-winnable" (the deal was proved lost);
    "slipped" (``turning_point`` says where); "still-winnable" (the game ended, by the
    clock or the round, in a position proved winnable); "undecided" (the budget could
    not tell where or whether the win slipped away: ``undecided_after`` moves, the last
    proved winnable on the game's line, 0 for the deal itself). ``mistakes``: every
    move, undone ones too, from a proved-winnable position to a proved-lost one;
    ``lost_after``: the turning point's index, kept for older callers.
    """

    winnable: bool | None
    lost_after: int | None
    mistakes: list[int] = field(default_factory=list)
    verdicts: list[bool | None] = field(default_factory=list)
    outcome: Outcome = "undecided"
    turning_point: TurningPoint | None = None
    undecided_after: int | None = None
    nodes: int = 0

    def describe(self) -> str:
        """One line for people (docs/solver.md has the same words)."""
        if self.outcome == "slipped" and self.turning_point is not None:
            tp = self.turning_point
            kept = f": {tp.kept} kept it winnable" if tp.kept else ""
            return f"the win slipped away at move {tp.index + 1} ({tp.move}){kept}"
        if self.outcome == "undecided":
            return f"undecided after move {self.undecided_after or 0}"
        return {"won": "won", "never-winnable": "never winnable"}.get(
            self.outcome, "still winnable when the game ended"
        )

    def to_dict(self) -> dict[str, Any]:
        """The wire and storage form: one verdict name per action index."""
        tp = self.turning_point
        return {
            "outcome": self.outcome,
            "start": VERDICT_NAMES[self.winnable],
            "verdicts": [VERDICT_NAMES[v] for v in self.verdicts],
            "turning_point": None
            if tp is None
            else {"index": tp.index, "move": tp.move, "kept": tp.kept},
            "undecided_after": self.undecided_after,
            "mistakes": list(self.mistakes),
            "nodes": self.nodes,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Analysis:
        tp = data.get("turning_point")
        point = None if tp is None else TurningPoint(int(tp["index"]), tp["move"], tp["kept"])
        return cls(
            winnable=_FROM_NAME[data["start"]],
            lost_after=None if point is None else point.index,
            mistakes=[int(i) for i in data["mistakes"]],
            verdicts=[_FROM_NAME[v] for v in data["verdicts"]],
            outcome=data["outcome"],
            turning_point=point,
            undecided_after=data["undecided_after"],
            nodes=int(data.get("nodes", 0)),
        )


class _Judge:
    """Verdicts by position, from the solver and by reachability along the game's moves."""

    def __init__(
        self, max_nodes: int | None, total_nodes: int | None, lost: LostPositions | None
    ) -> None:
        self.max_nodes = max_nodes
        self.lost = lost  # shared by every search of the game
        self.left = total_nodes
        self.nodes = 0
        self.known: dict[str, bool] = {}
        self.tried: set[str] = set()
        self.first_move: dict[str, str] = {}  # a winning line's first move, where found
        self.games: dict[str, Game] = {}
        self.children: dict[str, list[tuple[str, str]]] = {}  # key -> [(move, key after)]
        self.parents: dict[str, list[str]] = {}

    def add(self, key: str, game: Game) -> None:
        self.games.setdefault(key, game)

    def edge(self, before: str, move: str, after: str) -> None:
        self.children.setdefault(before, []).append((move, after))
        self.parents.setdefault(after, []).append(before)

    def settle(self, key: str, verdict: bool) -> None:
        """Record a proved verdict and everything reachability says follows from it."""
        work = [(key, verdict)]
        while work:
            k, v = work.pop()
            if k in self.known:
                continue
            self.known[k] = v
            if v:
                work += [(p, True) for p in self.parents.get(k, [])]
            else:
                work += [(c, False) for _, c in self.children.get(k, [])]

    def search(self, key: str) -> None:
        """Ask the solver about one position, within what is left of the budget."""
        if key in self.known or key in self.tried:
            return
        self.tried.add(key)
        budget = self.max_nodes
        if self.left is not None:
            if self.left <= 0:
                return
            budget = self.left if budget is None else min(budget, self.left)
        solution = solve(self.games[key], max_nodes=budget, lost=self.lost)
        self.nodes += solution.nodes
        if self.left is not None:
            self.left -= solution.nodes
        if solution.verdict == "won":
            if solution.line:
                self.first_move[key] = solution.line[0]
                for move, after in self.children.get(key, []):
                    if move == solution.line[0]:
                        self.settle(after, True)
            self.settle(key, True)
        elif solution.verdict == "lost":
            self.settle(key, False)

    def bisect(self, line: list[str]) -> None:
        """Judge a line of moves: winnable up to some point, lost after it (or not known)."""
        while True:
            won_to = max((i for i, k in enumerate(line) if self.known.get(k) is True), default=-1)
            lost_from = min(
                (i for i, k in enumerate(line) if self.known.get(k) is False), default=len(line)
            )
            open_ = [i for i in range(won_to + 1, lost_from) if line[i] not in self.tried]
            if not open_ or (self.left is not None and self.left <= 0):
                return
            self.search(line[open_[len(open_) // 2]])

    def kept(self, key: str) -> str | None:
        """A move from a winnable position that keeps it winnable."""
        for move, after in self.children.get(key, []):
            if self.known.get(after) is True:
                return move
        if key not in self.first_move:
            solution = solve(self.games[key], max_nodes=self.max_nodes, lost=self.lost)
            self.nodes += solution.nodes
            if solution.verdict == "won" and solution.line:
                self.first_move[key] = solution.line[0]
        return self.first_move.get(key)


def analyse(
    record_or_game: GameRecord | Game,
    actions: Iterable[str] | None = None,
    *,
    max_nodes: int | None = ANALYSE_NODES,
    total_nodes: int | None = None,
    cache: bool = True,
) -> Analysis:
    """Replay a game and judge the position after every action.

    Pass a :class:`~scorpion.engine.GameRecord`, or the game as it stood at the start
    and its action texts (moves, ``undo``, ``give-up``). ``max_nodes`` bounds each
    search, ``total_nodes`` the whole game's (None: no bound); node counts, so the same
    game gets the same answer on any machine. ``cache``: the searches share the
    positions proved lost (:mod:`.cache`; off only to measure what it saves). Node
    counts then depend on the order of the searches, which is fixed: still the same
    answer everywhere.
    """
    if isinstance(record_or_game, Game):
        if actions is None:
            raise ValueError("analyse(game, actions): the action texts are missing")
        game = record_or_game.copy()
        steps: list[tuple[str, float | None]] = [(text, None) for text in actions]
    else:
        game = record_or_game.replay(0)
        steps = list(record_or_game.actions)
    judge = _Judge(max_nodes, total_nodes, LostPositions() if cache else None)
    start = key = game.text()
    judge.add(key, game.copy())
    keys: list[str] = []
    befores: list[str] = []
    standing: list[int] = []  # the game's line: indices of the moves not taken back
    for i, (text, elapsed) in enumerate(steps):
        before = key
        apply_action(game, text, elapsed)
        if text == UNDO:
            standing.pop()
            key = game.text()
        elif text == GIVE_UP:
            standing.append(i)
            key = f"{before}\ngave up"
        else:
            standing.append(i)
            key = game.text()
            judge.edge(before, text, key)
        judge.add(key, game.copy())
        keys.append(key)
        befores.append(before)
    for i, text in enumerate(t for t, _ in steps):
        if text == GIVE_UP:
            judge.settle(keys[i], False)
    if game.won:
        judge.settle(key, True)
    line = [start] + [keys[i] for i in standing]
    judge.bisect(line)
    for k in keys:  # moves taken back: off the line
        judge.search(k)
    verdicts = [judge.known.get(k) for k in keys]
    mistakes = [
        i
        for i, (text, _) in enumerate(steps)
        if text not in NO_MOVE
        and judge.known.get(befores[i]) is True
        and judge.known.get(keys[i]) is False
    ]
    on_line = [judge.known.get(k) for k in line]
    outcome: Outcome
    point = undecided_after = None
    lost_from = next((j for j, v in enumerate(on_line) if v is False), None)
    if game.won:
        outcome = "won"
    elif on_line[0] is False:
        outcome = "never-winnable"
    elif lost_from is not None and on_line[lost_from - 1] is True:
        outcome = "slipped"
        index = standing[lost_from - 1]
        point = TurningPoint(index, steps[index][0], judge.kept(line[lost_from - 1]))
    elif lost_from is None and on_line[-1] is True:
        outcome = "still-winnable"
    else:
        outcome = "undecided"
        end = len(on_line) if lost_from is None else lost_from
        last = max((j for j in range(end) if on_line[j] is True), default=0)
        undecided_after = 0 if last == 0 else standing[last - 1] + 1
    return Analysis(
        winnable=on_line[0],
        lost_after=None if point is None else point.index,
        mistakes=mistakes,
        verdicts=verdicts,
        outcome=outcome,
        turning_point=point,
        undecided_after=undecided_after,
        nodes=judge.nodes,
    )
