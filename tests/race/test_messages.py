"""race/messages.py: the types of the frames sent agree with docs/protocol.md, and the
frame check the race tests run on every frame (tests/race/typed_frames.py) catches a frame
that is not what its type says. The room events' types: test_room_events.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorpion.race.messages import refused

from .harness import solo
from .typed_frames import BY_TYPE, check_frame

PROTOCOL = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text()


def test_the_daily_event_and_every_message_type_are_documented():
    assert '"event": "playing"' in PROTOCOL
    for kind in BY_TYPE:
        assert f'"type": "{kind}"' in PROTOCOL, kind


def test_a_race_s_frames_pass_and_a_wrong_frame_is_caught():
    _, ada = solo()
    answer = ada.command("move", move="deal")
    check_frame(answer)
    check_frame(ada.inbox[0])  # the welcome, with its snapshot and board
    with pytest.raises(AssertionError, match="unknown"):
        check_frame({**answer, "mvoe": "deal"})
    with pytest.raises(AssertionError, match="missing"):
        check_frame({k: v for k, v in answer.items() if k != "command"})
    with pytest.raises(AssertionError):
        check_frame({**answer, "status": "winning"})  # not a Status
    with pytest.raises(AssertionError):
        check_frame({**answer, "elapsed": "12"})


def test_an_event_is_checked_against_its_own_type():
    left = {"type": "event", "v": 3, "event": "left", "player": "p1", "reason": "left"}
    with pytest.raises(AssertionError, match="missing"):
        check_frame(left)  # no "watching"
    check_frame({**left, "watching": True})
    with pytest.raises(AssertionError):
        check_frame({**left, "watching": True, "reason": "bored"})
    with pytest.raises(AssertionError):
        check_frame({**left, "watching": True, "v": None})


def test_a_refusal_s_keys_come_in_the_wire_s_order():
    assert list(refused(4, "same-suit", "no")) == ["type", "seq", "code", "message"]
