"""Who races (issue 23): the seated host who presses Start races; asking for a rematch is being
ready for it; a refused start changes nothing."""

from __future__ import annotations

from scorpion.race import Player

from .harness import Client, Harness

ADA, BO, CY = Player("a", "Ada"), Player("b", "Bo"), Player("c", "Cy")


def lobby() -> tuple[Harness, Client, Client, Client]:
    h = Harness()
    h.room(ADA, max_players=3, deal=7)
    a, b, c = (h.connect(p, room="room1") for p in (ADA, BO, CY))
    for cl in (a, b, c):
        cl.command("join", **{"as": "player"})
    return h, a, b, c


def test_the_seated_host_who_presses_start_races_and_the_not_ready_watch() -> None:
    _h, a, b, c = lobby()
    b.command("ready")
    assert a.command("start")["type"] == "applied"  # Ada pressed nothing else
    ready = [e for e in c.events("ready") if e["player"] == "a"]
    assert ready and ready[-1]["ready"] is True
    countdown = c.events("countdown")[-1]
    assert sorted(countdown["players"]) == ["a", "b"]
    watching = [e["player"] for e in c.events("left") if e["reason"] == "not-ready"]
    assert watching == ["c"]


def test_a_refused_start_leaves_the_host_not_ready() -> None:
    _h, a, b, _c = lobby()
    assert b.command("start")["code"] == "not-creator"
    assert not any(e["player"] == "b" for e in a.events("ready"))
    assert a.command("start")["type"] == "applied"
    assert a.command("start")["code"] == "already-started"
    # Ada was made ready once, by the start that was applied.
    assert [e["player"] for e in b.events("ready")] == ["a"]


def test_a_host_who_watches_does_not_race_by_pressing_start() -> None:
    h = Harness()
    h.room(ADA, max_players=2, deal=7)
    a, b = h.connect(ADA, room="room1"), h.connect(BO, room="room1")
    assert a.command("start")["code"] == "nobody-ready"  # Ada is not seated
    b.command("join", **{"as": "player"})
    b.command("ready")
    assert a.command("start")["type"] == "applied"
    assert b.events("countdown")[-1]["players"] == ["b"]


def test_asking_for_a_rematch_is_being_ready_for_it() -> None:
    h, a, b, c = lobby()
    for cl in (b, c):
        cl.command("ready")
    a.command("start")
    h.advance(3)
    for cl in (a, b, c):
        cl.command("give-up")
    assert b.command("rematch", round=1)["round"] == 2
    rematch = a.events("rematch")[-1]
    assert rematch["by"] == "b" and rematch["ready"] == ["b"]
    assert sorted(rematch["players"]) == ["a", "b", "c"]
    # A second ask of the same rematch changes nobody's readiness.
    assert a.command("rematch", round=1)["round"] == 2
    assert len(a.events("rematch")) == 1
    assert c.command("start")["code"] == "not-creator"
    assert a.command("start")["type"] == "applied"
    assert sorted(c.events("countdown")[-1]["players"]) == ["a", "b"]
