"""Every frame the race tests receive is checked against its type in race/messages.py (a
room event's: race/room_events.py).

mypy checks each message where it is built; this checks what is sent, where mypy takes a
type on trust (an event stamped by the event log, an answer read back from its JSON for a
resend, practice's game row): the keys (each required one present, no other) and the
values' types, one level into rows.
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Mapping
from typing import Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

from scorpion.race import messages as m
from scorpion.race.room_events import RoomEvent

BY_TYPE: dict[str, type] = {
    "applied": m.Applied,
    "refused": m.Refused,
    "welcome": m.Welcome,
    "view": m.ViewMessage,
    "rank": m.RankMessage,
}
EVENTS: dict[str, type] = {
    get_args(get_type_hints(event)["event"])[0]: event
    for event in (*get_args(RoomEvent), m.Playing)
}


def check_frame(message: Mapping[str, object]) -> None:
    """Raise AssertionError when ``message`` is not one of the types it claims."""
    kind = message["type"]
    if kind == "event":
        assert isinstance(message["v"], int), message
        event = {k: v for k, v in message.items() if k not in ("type", "v")}
        check_value(event, EVENTS[str(message["event"])], f"event {message['event']}")
    else:
        check_value(message, BY_TYPE[str(kind)], str(kind))


def check_value(value: object, expected: object, where: str) -> None:
    if expected is object:
        return
    if expected is m.EventFrame:  # the head of an event: its fields are its event's
        assert isinstance(value, dict), (where, value)
        check_frame(value)
        return
    origin = get_origin(expected)
    if origin is Literal:
        assert value in get_args(expected), (where, value, expected)
    elif origin in (Union, types.UnionType):
        failures = []
        for option in get_args(expected):
            try:
                check_value(value, option, where)
                return
            except AssertionError as exc:
                failures.append(exc)
        raise AssertionError(where, value, expected, failures)
    elif is_typeddict(expected):
        assert isinstance(value, dict), (where, value)
        td = typing.cast(type, expected)
        keys = set(value)
        required = td.__required_keys__  # type: ignore[attr-defined]
        assert required <= keys, (where, "missing", required - keys, value)
        hints = _hints(td)
        assert keys <= set(hints), (where, "unknown", keys - set(hints), value)
        for key, item in value.items():
            check_value(item, hints[key], f"{where}.{key}")
    elif origin is list:
        assert isinstance(value, list), (where, value)
        (item,) = get_args(expected)
        for entry in value:
            check_value(entry, item, where)
    elif origin is dict:
        assert isinstance(value, dict), (where, value)
        key_type, item = get_args(expected)
        for key, entry in value.items():
            check_value(key, key_type, where)
            check_value(entry, item, where)
    elif expected is type(None):
        assert value is None, (where, value)
    elif expected is float:
        assert isinstance(value, int | float) and not isinstance(value, bool), (where, value)
    elif expected is int:
        assert isinstance(value, int) and not isinstance(value, bool), (where, value)
    else:
        assert isinstance(value, typing.cast(type, expected)), (where, value, expected)


@functools.cache
def _hints(td: type) -> dict[str, object]:
    return get_type_hints(td)
