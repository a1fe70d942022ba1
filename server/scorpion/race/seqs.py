"""Answers to a player's command seqs: a resent seq is answered again, never applied twice.

>>> w = SeqWindow(keep=2)
>>> w.check(1) is None
True
>>> w.remember(1, {"seq": 1}); w.check(1)
{'seq': 1}
>>> w.remember(2, {"seq": 2}); w.remember(3, {"seq": 3})
>>> try:
...     w.check(1)
... except RaceError as exc:
...     print(exc.code, exc)
old-seq Command 1 is too old to be answered again
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Final

from scorpion.engine import MoveError

from .commands import Command
from .errors import RaceError
from .outputs import ConnId, Message, Output, Persist, Send, refused

DEFAULT_KEEP: Final = 64


class SeqWindow:
    """The last ``keep`` answers of one player in one room (or daily), by seq."""

    def __init__(self, keep: int = DEFAULT_KEEP) -> None:
        self.keep = keep
        self.last = 0  # highest seq answered
        self._answers: OrderedDict[int, dict[str, object]] = OrderedDict()

    def check(self, seq: int) -> dict[str, object] | None:
        """The stored answer when ``seq`` was answered already, None when it is new.

        Raises ``old-seq`` for a seq at or below the highest answered one that is no
        longer remembered (it might have been applied: it must not be applied again).
        """
        answer = self._answers.get(seq)
        if answer is not None:
            return answer
        if seq <= self.last:
            raise RaceError("old-seq", f"Command {seq} is too old to be answered again", seq)
        return None

    def remember(self, seq: int, answer: dict[str, object]) -> None:
        self._answers[seq] = answer
        self.last = max(self.last, seq)
        while len(self._answers) > self.keep:
            self._answers.popitem(last=False)

    def note_applied(self, seq: int) -> None:
        """After a restore: ``seq`` was applied (its answer is lost; a resend gets old-seq)."""
        self.last = max(self.last, seq)


def answer_ping(conn: ConnId, seqs: SeqWindow, seq: int, now: float) -> list[Output]:
    """A ``ping``: answered with the server time and never remembered, but its seq is
    checked like any command's (a remembered seq gets its stored answer, an older one
    ``old-seq``).

    >>> w = SeqWindow(keep=1)
    >>> w.remember(1, {"type": "applied", "seq": 1}); w.remember(2, {"type": "refused", "seq": 2})
    >>> [o.message.get("code", o.message["type"]) for s in (1, 2) for o in answer_ping(7, w, s, 1)]
    ['old-seq', 'refused']
    >>> answer_ping(7, w, 3, 10.0)[0].message
    {'type': 'applied', 'seq': 3, 'command': 'ping', 'now': 10.0}
    """
    try:
        cached = seqs.check(seq)
    except RaceError as exc:
        return [Send((conn,), refused(seq, exc.code, exc.message))]
    if cached is not None:
        return [Send((conn,), cached)]
    return [Send((conn,), {"type": "applied", "seq": seq, "command": "ping", "now": now})]


def answer_once(
    conn: ConnId, seqs: SeqWindow, command: Command, run: Callable[[list[Output]], Message]
) -> list[Output]:
    """Apply ``command`` at most once per seq and answer it exactly once.

    ``run`` applies it, appending its effects, and returns the answer's extra fields; it
    checks everything before changing anything, so a refusal changes nothing. The records
    to persist come first in the result, then the answer, then the other effects.
    """
    try:
        cached = seqs.check(command.seq)
    except RaceError as exc:
        return [Send((conn,), refused(command.seq, exc.code, exc.message))]
    if cached is not None:
        return [Send((conn,), cached)]
    effects: list[Output] = []
    try:
        extra = run(effects)
    except (RaceError, MoveError) as exc:
        answer = refused(command.seq, exc.code, exc.message)
        effects = []
    else:
        answer = {"type": "applied", "seq": command.seq, "command": command.type, **extra}
    seqs.remember(command.seq, answer)
    out: list[Output] = [p for p in effects if isinstance(p, Persist)]
    out.append(Send((conn,), answer))
    out.extend(p for p in effects if not isinstance(p, Persist))
    return out
