"""What the race layer asks its caller to do: send, persist, close, search.

The race layer never touches a socket, the store or the solver. Each call returns
a list of outputs; the caller (scorpion.web) must **persist every Persist of the
list (one transaction) before sending any Send of it**, so that nothing is
acknowledged before it is written. A search request (:mod:`.searches`) is run
elsewhere; its answer comes back through ``Referee.searched``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from .messages import ServerMessage, refused
from .records import Record
from .searches import SearchRequest

ConnId: TypeAlias = int
"""The caller's id for one websocket connection (any int it chooses, unique while open)."""

Message: TypeAlias = dict[str, object]
"""A JSON object the HTTP API serves (a room's or a daily's summary). What a websocket gets
is a :data:`~.messages.ServerMessage` (typed, :mod:`.messages`)."""

__all__ = ["Close", "ConnId", "Message", "Output", "Persist", "Send", "refused"]


# Not frozen, with their own __init__, for the cost of building them per move (see
# records.py); never changed.
@dataclass(slots=True, init=False)
class Send:
    """Send ``message`` (one JSON object) to every connection in ``conns``.

    The same dict goes to all of them: serialize it once. ``encoded``, when given, is
    ``message`` already serialized (an answer is, to be remembered for a resend).
    """

    conns: tuple[ConnId, ...]
    message: ServerMessage
    encoded: bytes | None = None

    def __init__(
        self, conns: tuple[ConnId, ...], message: ServerMessage, encoded: bytes | None = None
    ) -> None:
        self.conns, self.message, self.encoded = conns, message, encoded


@dataclass(slots=True, init=False)
class Persist:
    """Write ``record`` to the store before sending anything in the same batch."""

    record: Record

    def __init__(self, record: Record) -> None:
        self.record = record


@dataclass(slots=True)
class Close:
    """Close the connection with a websocket close code (after sending what came before)."""

    conn: ConnId
    code: int
    reason: str


Output: TypeAlias = Send | Persist | Close | SearchRequest
