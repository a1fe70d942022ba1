"""Any JSON value a client sends gets exactly one answer and never breaks the room."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorpion.race import Player
from scorpion.race.commands import COMMAND_NAMES as COMMANDS
from scorpion.race.errors import PROTOCOL_CODES

from .harness import Harness

ENGINE_CODES = {
    "same-suit", "not-one-higher", "onto-ace", "king-onto-card", "empty-needs-king",
    "whole-column", "same-column", "unknown-column", "face-down", "not-in-play", "stock-dealt",
    "no-stock", "ambiguous", "no-target", "bad-move", "nothing-to-undo", "undo-limit",
    "undo-off", "game-over",
}  # fmt: skip

scalars = (
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=8)
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=6,
)
commands = st.fixed_dictionaries(
    {"type": st.sampled_from(sorted(COMMANDS | {"hello", "nope"}))},
    optional={
        "seq": st.integers(-2, 2**54) | scalars,
        "move": st.sampled_from(["deal", "4H>7", "4H", "KS>1", "x", "10S>2"]) | scalars,
        "as": st.sampled_from(["player", "spectator"]) | scalars,
        "player": st.sampled_from(["a", "b", "zz"]) | scalars,
        "ready": scalars,
        "round": scalars,
    },
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(commands | json_values, min_size=1, max_size=12))
def test_any_message_gets_one_answer(messages: list[object]) -> None:
    h = Harness()
    ada, bo = Player("a", "Ada"), Player("b", "Bo")
    h.room(ada, deal=9)
    a, b = h.connect(ada, room="room1"), h.connect(bo, room="room1")
    for client in (a, b):
        client.command("join", **{"as": "player"})
        client.command("ready")
    a.command("start")
    h.advance(3)
    for i, message in enumerate(messages):
        client = (a, b)[i % 2]
        answer = client.raw(message)
        if answer["type"] == "refused":
            assert answer["code"] in PROTOCOL_CODES | ENGINE_CODES, answer
        h.advance(0.1)
    # The room still works for both players afterwards.
    for client in (a, b):
        client.seq = 2**53 - 10 + client.seq % 2
        answer = client.command("ping")
        assert answer["type"] == "applied"
    assert h.referee.room_summary("room1", h.now) is not None
