"""Game records: a deal, its rules and every action with its elapsed time.

A record is the game's log; replaying it gives back the same game. JSON is for
machines, the text form (in the manner of PGN) for people; both parse back.

>>> game = Game.new(1, "classic")
>>> _ = game.play("5C>3", elapsed=2.5)
>>> game.undo(elapsed=4.0)
>>> record = GameRecord.from_game(game)
>>> print(record.text(), end="")
[Deal "1"]
[Preset "classic"]
[Result "playing"]
[Score "0"]
<BLANKLINE>
1. 5C>3 {2.5} 2. undo {4.0}
>>> GameRecord.parse(record.text()) == record
True
>>> record.replay().text() == game.text()
True
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, fields
from typing import Any, Final

from .errors import NotationError
from .game import Game
from .moves import Move, text_of
from .rules import Rules, get_rules, preset_name

Action = tuple[str, float | None]
UNDO: Final = "undo"
GIVE_UP: Final = "give-up"
_TAG = re.compile(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$')
_ACTION = re.compile(r"(\d+)\.\s+(\S+)(?:\s+\{([^}]*)\})?")


@dataclass(frozen=True)
class GameRecord:
    """``deal`` names the opening; a game set up from text keeps its ``start`` text instead."""

    rules: Rules
    deal: int | None = None
    start: str | None = None
    actions: tuple[Action, ...] = field(default=())

    def __post_init__(self) -> None:
        if (self.deal is None) == (self.start is None):
            raise ValueError("a record names either a deal number or a start position")

    @classmethod
    def from_game(cls, game: Game, start: str | None = None) -> GameRecord:
        """The record of ``game`` (pass ``start`` for a game made with Game.from_text)."""
        if game.deal is None and start is not None:
            start = Game.from_text(start, game.rules).text()  # one canonical spelling
        return cls(game.rules, game.deal, None if game.deal is not None else start, tuple(game.log))

    def replay(self, upto: int | None = None) -> Game:
        """The game after the first ``upto`` actions (all by default)."""
        game = Game.new(self.deal, self.rules) if self.deal is not None else None
        if game is None:
            assert self.start is not None
            game = Game.from_text(self.start, self.rules)
        for text, elapsed in self.actions[:upto]:
            apply_action(game, text, elapsed)
        return game

    @property
    def preset(self) -> str | None:
        return preset_name(self.rules)

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        rules = {f.name: getattr(self.rules, f.name) for f in fields(Rules)}
        out: dict[str, Any] = {"preset": self.preset, "rules": rules}
        out["deal" if self.deal is not None else "start"] = (
            self.deal if self.deal is not None else self.start
        )
        out["actions"] = [[text, elapsed] for text, elapsed in self.actions]
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        try:
            rules = Rules(**data["rules"]) if "rules" in data else get_rules(data["preset"])
            actions = tuple(
                (str(a[0]), None if a[1] is None else float(a[1])) for a in data["actions"]
            )
            return cls(rules, data.get("deal"), data.get("start"), actions)
        except (KeyError, TypeError, IndexError) as exc:
            raise NotationError(f"bad game record: {exc!r}") from None

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise NotationError(f"bad game record JSON: {exc}") from None
        if not isinstance(data, dict):
            raise NotationError("bad game record: expected a JSON object")
        return cls.from_dict(data)

    # ------------------------------------------------------------------ text
    def text(self) -> str:
        """Tags, a blank line, then numbered actions with elapsed seconds in braces."""
        game = self.replay()
        tags = [("Deal", str(self.deal))] if self.deal is not None else []
        tags.append(("Preset", self.preset or "custom"))
        if self.preset is None:
            rules = " ".join(f"{f.name}={getattr(self.rules, f.name)}" for f in fields(Rules))
            tags.append(("Rules", rules.replace("undo=None", "undo=unlimited")))
        if self.start is not None:
            tags.append(("Start", self.start.strip().replace("\n", "/")))
        result = (
            "won" if game.won else "gave-up" if game.gave_up else "lost" if game.lost else "playing"
        )
        tags += [("Result", result), ("Score", str(game.score))]
        lines = [f'[{name} "{value}"]' for name, value in tags]
        body = " ".join(
            f"{i}. {text}" + ("" if elapsed is None else f" {{{elapsed}}}")
            for i, (text, elapsed) in enumerate(self.actions, start=1)
        )
        return "\n".join([*lines, "", body]) + "\n"

    @classmethod
    def parse(cls, text: str) -> GameRecord:
        """Parse the text form; raise NotationError naming the bad line."""
        tags: dict[str, str] = {}
        actions: list[Action] = []
        for lineno, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line:
                continue
            if line.startswith("["):
                match = _TAG.match(line)
                if not match:
                    raise NotationError(f'line {lineno}: expected a tag like [Deal "5"]')
                tags[match[1]] = match[2]
                continue
            pos = 0
            for match in _ACTION.finditer(line):
                if line[pos : match.start()].strip() or int(match[1]) != len(actions) + 1:
                    raise NotationError(f"line {lineno}: expected action {len(actions) + 1}")
                try:
                    elapsed = None if match[3] is None else float(match[3])
                except ValueError:
                    raise NotationError(f"line {lineno}: bad elapsed time {match[3]!r}") from None
                if match[2] not in (UNDO, GIVE_UP):
                    try:
                        Move.parse(match[2])
                    except NotationError as exc:
                        raise NotationError(f"line {lineno}: {exc}") from None
                actions.append((match[2], elapsed))
                pos = match.end()
            if line[pos:].strip():
                raise NotationError(f"line {lineno}: cannot read {line[pos:].strip()!r}")
        try:
            rules = _rules_from_tags(tags)
            deal = int(tags["Deal"]) if "Deal" in tags else None
        except (KeyError, ValueError) as bad:  # not ``exc``: that name holds NotationErrors
            raise NotationError(f"bad record tags: {bad}") from None
        start = tags["Start"].replace("/", "\n") + "\n" if "Start" in tags else None
        return cls(rules, deal, start, tuple(actions))


def _rules_from_tags(tags: dict[str, str]) -> Rules:
    if "Rules" not in tags:
        return get_rules(tags["Preset"])
    options = dict(item.split("=", 1) for item in tags["Rules"].split())
    return Rules().with_options(**options)


def apply_action(game: Game, text: str, elapsed: float | None = None) -> str:
    """Apply one action (move text, ``deal``, ``undo`` or ``give-up``) to ``game``; return it
    as the log writes it (a tap-to-move's full move text, say). The one place where an
    action's text becomes an engine call: live play, replays and restores all come here.

    >>> game = Game.new(1, "classic")
    >>> apply_action(game, "5c>3"), apply_action(game, "undo")
    ('5C>3', 'undo')
    """
    if text == UNDO:
        game.undo(elapsed)
        return UNDO
    if text == GIVE_UP:
        game.give_up(elapsed)
        return GIVE_UP
    return text_of(game.play(text, elapsed).move)
