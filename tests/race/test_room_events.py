"""race/room_events.py: every room event of docs/protocol.md has a type, and the host's
on/off controls name their field in their event and answer."""

from __future__ import annotations

import re
from pathlib import Path

from scorpion.race.room_events import switch_answer, switched

from .typed_frames import EVENTS

PROTOCOL = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text()


def test_every_room_event_in_the_protocol_has_a_type_and_no_other():
    section = PROTOCOL.split("## 4. Room events")[1].split("| event | fields |")[1]
    section = section.split("\n\n")[0]  # the table of events
    documented = set(re.findall(r"^\| `([a-z-]+)` \|", section, flags=re.M))
    assert documented == set(EVENTS) - {"playing"}


def test_a_switch_s_event_and_answer_name_its_field():
    assert switched("rated", True, "p1") == {"event": "rating", "rated": True, "by": "p1"}
    assert switched("locked", False, "p1") == {"event": "locked", "locked": False, "by": "p1"}
    assert switch_answer("league", True) == {"league": True}
