"""Answers to a player's command seqs: a resent seq is answered again, never applied twice.

>>> w = SeqWindow(keep=2)
>>> w.check(1) is None
True
>>> w.remember(1, {"seq": 1})
b'{"seq":1}'
>>> w.check(1)
{'seq': 1}
>>> _ = w.remember(2, {"seq": 2}), w.remember(3, {"seq": 3})
>>> try:
...     w.check(1)
... except RaceError as exc:
...     print(exc.code, exc)
old-seq Command 1 is too old to be answered again
"""

from __future__ import annotations

from collections.abc import Callable, Set
from typing import Final, TypeAlias, cast

import orjson

from scorpion.engine import MoveError

from .commands import Command
from .errors import RaceError
from .messages import Answer, AnswerFields, refused
from .outputs import ConnId, Output, Persist, Send

# A resend only ever asks again for what was in flight when a socket dropped; the client
# keeps at most this many commands in flight (client/js/socket.js MAX_IN_FLIGHT).
DEFAULT_KEEP: Final = 16
# The answers of a member with no connection are kept this long for their reconnect (the
# client's backoff tops out at 10 s), then dropped: a day's daily keeps a member for every
# player of the day, and answers hold whole boards.
KEEP_AWAY: Final = 60.0
_NONE: Final[frozenset[int]] = frozenset()

Apply: TypeAlias = Callable[[list[Output]], AnswerFields | None]
"""Applies a command, appending its effects; its answer's fields (None: a search's answer
will give them)."""


class SeqWindow:
    """The last ``keep`` answers of one player in one room (or daily), by seq, while they
    are connected and for :data:`KEEP_AWAY` seconds after (see :class:`~.members.Members`).

    A member who never sends a command (a watcher) holds no containers: the answers and the
    pending seqs are created by their first use (every idle socket has a member).

    Answers are kept as JSON text: an answer holds a whole board, and thousands of players'
    last answers as dicts would be millions of objects for the garbage collector to walk
    (pauses of a second at 10,000 sockets), besides several times the memory.
    """

    __slots__ = ("_answers", "_pending", "keep", "last")

    def __init__(self, keep: int = DEFAULT_KEEP) -> None:
        self.keep = keep
        self.last = 0  # highest seq answered
        self._answers: dict[int, bytes] | None = None  # in the order answered
        self._pending: set[int] | None = None

    @property
    def pending(self) -> Set[int]:
        """The seqs waiting for a search (answered later)."""
        return self._pending if self._pending is not None else _NONE

    def hold(self, seq: int) -> None:
        if self._pending is None:
            self._pending = set()
        self._pending.add(seq)

    def release(self, seq: int) -> None:
        if self._pending is not None:
            self._pending.discard(seq)
            if not self._pending:
                self._pending = None

    def check(self, seq: int) -> Answer | None:
        """The stored answer when ``seq`` was answered already, None when it is new.

        Raises ``old-seq`` for a seq at or below the highest answered one that is no
        longer remembered (it might have been applied: it must not be applied again).
        """
        answer = self._answers.get(seq) if self._answers is not None else None
        if answer is not None:
            # The JSON of an Answer this window was given (remember): read back as one.
            return cast(Answer, orjson.loads(answer))
        if seq <= self.last:
            raise RaceError("old-seq", f"Command {seq} is too old to be answered again", seq)
        return None

    def forget_answers(self) -> None:
        """Drop the stored answers (the member left): a later resend is ``old-seq``."""
        self._answers = None

    def remember(self, seq: int, answer: Answer) -> bytes:
        """Keep ``answer`` for a resend of ``seq``; its JSON (sent as it is)."""
        answers = self._answers
        if answers is None:
            answers = self._answers = {}
        answers[seq] = encoded = orjson.dumps(answer)
        self.last = max(self.last, seq)
        while len(answers) > self.keep:
            for oldest in answers:  # a dict keeps its order: the first is the oldest
                del answers[oldest]
                break  # before the loop would see the dict changed
        return encoded


def answer_once(conn: ConnId, seqs: SeqWindow, command: Command, run: Apply) -> list[Output]:
    """Apply ``command`` at most once per seq and answer it exactly once.

    ``run`` applies it, appending its effects, and returns the answer's extra fields; it
    checks everything before changing anything, so a refusal changes nothing. It returns
    None when the answer must wait for a search: the seq is then pending (a resend gets
    nothing more) until :func:`answer_pending` answers it. The records to persist come
    first in the result, then the answer, then the other effects.
    """
    if command.seq in seqs.pending:
        return []  # its search is running: the answer comes when it ends
    try:
        cached = seqs.check(command.seq)
    except RaceError as exc:
        return [Send((conn,), refused(command.seq, exc.code, exc.message))]
    if cached is not None:
        return [Send((conn,), cached)]
    return _answer((conn,), seqs, command.seq, command.name, run)


def answer_pending(
    conns: tuple[ConnId, ...], seqs: SeqWindow, seq: int, name: str, run: Apply
) -> list[Output]:
    """Answer a pending seq (its search ended) like :func:`answer_once` would have."""
    seqs.release(seq)
    return _answer(conns, seqs, seq, name, run)


def _answer(
    conns: tuple[ConnId, ...], seqs: SeqWindow, seq: int, name: str, run: Apply
) -> list[Output]:
    effects: list[Output] = []
    try:
        extra = run(effects)
    except (RaceError, MoveError) as exc:
        answer: Answer = refused(seq, exc.code, exc.message)
        effects = []
    else:
        if extra is None:
            seqs.hold(seq)
            return effects
        answer = {"type": "applied", "seq": seq, "command": name, **extra}
    encoded = seqs.remember(seq, answer)
    out: list[Output] = [p for p in effects if isinstance(p, Persist)]
    if conns:
        out.append(Send(conns, answer, encoded))
    out.extend(p for p in effects if not isinstance(p, Persist))
    return out
