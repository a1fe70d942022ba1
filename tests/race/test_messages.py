"""race/messages.py: the types of the frames sent agree with docs/protocol.md, and the
frame check the race tests run on every frame (tests/race/typed_frames.py) catches a frame
that is not what its type says."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scorpion.race.messages import refused, switch_answer, switched

from .harness import solo
from .typed_frames import BY_TYPE, EVENTS, check_frame

PROTOCOL = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text()


def test_every_room_event_in_the_protocol_has_a_type_and_no_other():
    section = PROTOCOL.split("## 4. Room events")[1].split("| event | fields |")[1]
    section = section.split("\n\n")[0]  # the table of events
    documented = set(re.findall(r"^\| `([a-z-]+)` \|", section, flags=re.M))
    assert documented == set(EVENTS) - {"playing"}


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


def test_a_switch_s_event_and_answer_name_its_field():
    assert switched("rated", True, "p1") == {"event": "rating", "rated": True, "by": "p1"}
    assert switched("locked", False, "p1") == {"event": "locked", "locked": False, "by": "p1"}
    assert switch_answer("league", True) == {"league": True}
    assert list(refused(4, "same-suit", "no")) == ["type", "seq", "code", "message"]
