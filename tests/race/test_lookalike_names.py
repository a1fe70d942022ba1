"""One room seats no two names that look the same (TR39 confusable skeletons)."""

from __future__ import annotations

from scorpion.race import Player

from .harness import Harness

LATIN = Player("a", "Ada")
ZERO_WIDTH = Player("z", "A\u200bda")  # with a zero-width space (refused by clean_name too)
CYRILLIC = Player("c", "Ad\u0430")  # with a Cyrillic а
BO = Player("b", "Bo")


def test_three_adas_cannot_share_one_lobby() -> None:
    h = Harness()
    h.room(LATIN)
    h.connect(LATIN, room="room1")
    for twin in (ZERO_WIDTH, CYRILLIC):
        client = h.connect(twin, room="room1")
        (refusal,) = client.inbox
        assert refusal["code"] == "name-taken"
        assert "looks the same as another racer's name" in str(refusal["message"])
        assert client.closed == (4000, "name-taken")
    room = h.referee.rooms["room1"]
    assert [m.player.name for m in room.core.members.by_id.values()] == ["Ada"]
    assert h.connect(BO, room="room1").inbox[0]["type"] == "welcome"


def test_the_same_player_comes_back_and_other_case_is_not_a_lookalike() -> None:
    h = Harness()
    h.room(BO)
    ada = h.connect(LATIN, room="room1")
    assert h.connect(LATIN, room="room1").inbox[0]["type"] == "welcome"  # a second tab
    assert ada.command("leave")["type"] == "applied"
    # Ada still watches (a member); a lookalike waits until she is gone.
    assert h.connect(CYRILLIC, room="room1").inbox[0]["code"] == "name-taken"
    assert h.connect(Player("d", "ada"), room="room1").inbox[0]["type"] == "welcome"
