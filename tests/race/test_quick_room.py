"""A quick race's room on a fake clock: matched players seated as they come, a start by
itself under fair rules on a winnable deal, a void room, no host controls, a restart."""

from __future__ import annotations

from scorpion.race import Player, Referee, RoomConfig
from scorpion.race.quick_room import ARRIVAL, QuickSeats, quick_settings
from scorpion.race.records import RoomOpened, RoundStarted

from .harness import Harness

ADA, BO, CY = Player("a", "Ada"), Player("b", "Bo"), Player("c", "Cy")


def quick_room(h: Harness, *players: Player, room: str = "q1") -> str:
    seats = QuickSeats(tuple(p.id for p in players), h.now + ARRIVAL)
    h.feed(h.referee.create_room(room, players[0], quick_settings("classic"), h.now, seats))
    return room


def test_all_matched_here_starts_on_a_winnable_deal_with_fair_rules() -> None:
    h = Harness()
    quick_room(h, ADA, BO)
    a = h.connect(ADA, room="q1")
    state = a.last("welcome")["state"]
    assert state["phase"] == "lobby" and state["quick_race"] is True  # type: ignore[index]
    assert state["quick"] == {"players": ["a", "b"], "start_by": h.now + ARRIVAL}  # type: ignore[index]
    assert state["players"][0]["ready"] is True  # type: ignore[index]  # seated, ready
    assert a.events("ready") == []  # the welcome says it: no event before the welcome
    b = h.connect(BO, room="q1")
    assert [e["player"] for e in a.events("ready")] == ["b"]
    countdown = b.events("countdown")
    assert countdown and countdown[0]["players"] == ["a", "b"]
    started = [r for r in h.records if isinstance(r, RoundStarted)]
    assert len(started) == 1 and started[0].verified  # the solver proved the deal winnable
    h.advance(3)
    assert a.events("start")
    room = h.referee.rooms["q1"]
    public = room.settings.public()
    assert (public["undo"], public["hints"], public["auto"]) == ("fair", False, False)
    assert a.command("hint")["code"] == "hints-not-allowed"


def test_a_stranger_waits_for_the_arrival_time_then_two_race() -> None:
    h = Harness()
    quick_room(h, ADA, BO, CY)
    a, b = h.connect(ADA, room="q1"), h.connect(BO, room="q1")
    assert not b.events("countdown")  # Cy may still come
    h.advance(ARRIVAL - 1)
    assert not a.events("countdown")
    h.advance(1)
    assert a.events("countdown")[0]["players"] == ["a", "b"]
    late = h.connect(CY, room="q1")
    assert late.last("welcome")["you"]["role"] == "spectator"  # type: ignore[index]


def test_too_few_came_the_room_is_void() -> None:
    h = Harness()
    quick_room(h, ADA, BO)
    a = h.connect(ADA, room="q1")
    h.advance(ARRIVAL)
    assert a.events("quick-void") and not a.events("countdown")
    assert h.referee.rooms["q1"].quick is None


def test_nobody_starts_or_rules_a_quick_race() -> None:
    h = Harness()
    quick_room(h, ADA, BO, CY)
    a = h.connect(ADA, room="q1")
    h.connect(BO, room="q1")
    assert a.command("start")["code"] == "not-allowed"
    assert a.command("kick", player="b")["code"] == "not-allowed"
    assert a.command("lock", locked=True)["code"] == "not-allowed"
    assert not a.events("countdown")


def test_a_stranger_with_the_link_only_watches() -> None:
    h = Harness()
    quick_room(h, ADA, BO)
    d = h.connect(Player("d", "Di"), room="q1")
    assert d.last("welcome")["you"]["role"] == "spectator"  # type: ignore[index]
    refused = d.command("join", **{"as": "player"})
    assert refused["code"] == "not-allowed"
    assert [m.id for m in h.referee.rooms["q1"].core.members.players()] == []


def test_restored_quick_room_still_seats_and_starts() -> None:
    h = Harness()
    quick_room(h, ADA, BO)
    opened = [r for r in h.records if isinstance(r, RoomOpened)]
    assert opened[0].quick == {"players": ["a", "b"], "start_by": h.now + ARRIVAL}
    again = Harness()
    again.now = h.now
    again.referee = Referee(secret=b"test-secret", config=RoomConfig(deal_source=lambda: 101))
    again.feed(again.referee.restore(h.records, again.now))
    a, b = again.connect(ADA, room="q1"), again.connect(BO, room="q1")
    assert b.events("countdown")[0]["players"] == ["a", "b"]
    assert a.events("countdown")
