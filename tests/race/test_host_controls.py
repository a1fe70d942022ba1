"""The host's controls (kick, lock, hand-host) and name reports: checked, evented, restored."""

from __future__ import annotations

import json

import pytest

from scorpion.race import (
    HostAction,
    NameReported,
    Player,
    Referee,
    RoomConfig,
    record_from_dict,
)
from scorpion.race.errors import SettingsError
from scorpion.race.settings import RoomSettings

from .harness import Client, Harness, racing

ADA, BO, CY, DI = Player("a", "Ada"), Player("b", "Bo"), Player("c", "Cy"), Player("d", "Di")


def lobby() -> tuple[Harness, Client, Client, Client]:
    """Ada (host) and Bo seated, Cy watching."""
    h = Harness()
    h.room(ADA, max_players=4)
    a, b, c = (h.connect(p, room="room1") for p in (ADA, BO, CY))
    a.command("join", **{"as": "player"})
    b.command("join", **{"as": "player"})
    return h, a, b, c


def test_only_the_host_kicks_and_the_kicked_player_watches_and_may_not_sit_again() -> None:
    h, a, b, c = lobby()
    assert b.command("kick", player="a")["code"] == "not-creator"
    assert a.command("kick", player="a")["code"] == "not-allowed"
    assert a.command("kick", player="c")["code"] == "unknown-player"  # Cy is not seated
    assert a.command("kick", player="b")["role"] == "spectator"
    left = c.events("left")[-1]
    assert (left["player"], left["reason"], left["watching"], left["by"]) == (
        "b",
        "removed",
        True,
        "a",
    )
    state = h.referee.rooms["room1"].state(h.now)
    assert [p["id"] for p in state["players"]] == ["a"]
    assert "b" in [s["id"] for s in state["spectators"]]
    assert b.command("join", **{"as": "player"})["code"] == "removed"
    assert c.command("join", **{"as": "player"})["role"] == "player"  # others still may


def test_kicking_a_racer_ends_their_game_as_left_and_the_race_goes_on() -> None:
    h, a, b, c = racing()
    assert a.command("kick", player="b")["type"] == "applied"
    progress = c.progress("b")
    assert progress[-1]["status"] == "left"
    assert b.command("move", move="deal")["code"] in ("finished", "spectator", "not-started")
    assert a.command("move", move="deal")["type"] == "applied"
    a.command("give-up")
    results = c.events("results")[-1]
    assert {e["player"]: e["status"] for e in results["ranking"]} == {"a": "gave-up", "b": "left"}
    assert h.referee.rooms["room1"].phase == "results"


def test_a_rated_or_league_racer_is_not_removed_mid_race() -> None:
    # Removed, a racer places last: the host would win their rating or league points.
    for setting in ("rated", "league"):
        h, a, b, c = racing(**{setting: True})
        answer = a.command("kick", player="b")
        assert answer["code"] == "not-allowed", answer
        assert h.referee.rooms["room1"].racers["b"].playing
        assert not [e for e in c.events("left") if e["player"] == "b"]
        b.command("give-up")
        a.command("give-up")
        assert h.referee.rooms["room1"].phase == "results"
        assert a.command("kick", player="b")["type"] == "applied"  # after the race: may


def test_a_room_dealing_its_hosts_chosen_number_is_neither_rated_nor_a_league() -> None:
    # Whoever chose the deal's number may know its face-down cards: no rating, no points.
    h = Harness()
    h.room(ADA, deal=7)
    a, c = h.connect(ADA, room="room1"), h.connect(CY, room="room1")
    for command, field in (("rating", "rated"), ("league", "league")):
        answer = a.command(command, **{field: True})
        assert answer["code"] == "not-allowed" and "from its rematch on" in str(answer["message"])
    assert not c.events("rating") and not c.events("league")
    with pytest.raises(SettingsError, match="nobody chose"):
        RoomSettings.from_dict({"deal": 7, "rated": True}).check_stakes()
    RoomSettings.from_dict({"deal": "winnable", "league": True}).check_stakes()  # fine


def test_a_restored_rated_room_with_a_chosen_number_deals_at_random() -> None:
    h = Harness()
    h.room(ADA, deal=7, rated=True)  # as an older record may hold it
    a = h.connect(ADA, room="room1")
    a.command("join", **{"as": "player"})
    a.command("ready")
    assert a.command("start")["type"] == "applied"
    assert h.referee.rooms["room1"].deal != 7


def test_a_locked_room_keeps_its_seats_and_lets_anyone_watch() -> None:
    h, a, b, c = lobby()
    assert b.command("lock")["code"] == "not-creator"
    assert a.command("lock", locked=True) == {**a.last("applied"), "locked": True}
    assert c.events("locked")[-1]["locked"] is True
    assert c.command("join", **{"as": "player"})["code"] == "room-locked"
    late = h.connect(DI, room="room1")  # a newcomer still watches
    assert late.inbox[0]["type"] == "welcome" and late.inbox[0]["state"]["locked"] is True
    assert late.command("join", **{"as": "player"})["code"] == "room-locked"
    assert b.command("ready")["type"] == "applied"  # the seated keep their seats
    a.command("lock", locked=False)
    assert c.command("join", **{"as": "player"})["role"] == "player"


def test_the_host_hands_the_role_to_a_seated_player_who_then_starts() -> None:
    h, a, b, c = lobby()
    assert a.command("hand-host", player="c")["code"] == "unknown-player"  # watching
    assert a.command("hand-host", player="b")["host"] == "b"
    assert c.events("host")[-1] == {**c.events("host")[-1], "player": "b", "by": "a"}
    assert h.referee.rooms["room1"].state(h.now)["host"] == "b"
    a.command("ready")
    assert a.command("start")["code"] == "not-creator"
    assert a.command("kick", player="b")["code"] == "not-creator"
    assert b.command("start")["type"] == "applied"


def test_a_report_is_kept_once_for_the_operator_and_told_to_nobody() -> None:
    h, a, b, c = lobby()
    before = len(a.inbox) + len(b.inbox)
    assert c.command("report", player="b", reason="  rude   word ")["reported"] == "b"
    assert c.command("report", player="b")["reported"] == "b"  # again: kept once
    reports = [r for r in h.records if isinstance(r, NameReported)]
    assert [(r.room, r.player, r.name, r.by, r.reason) for r in reports] == [
        ("room1", "b", "Bo", "c", "rude word")
    ]
    assert len(a.inbox) + len(b.inbox) == before
    assert c.command("report", player="c")["code"] == "not-allowed"
    assert c.command("report", player="zz")["code"] == "unknown-player"
    assert c.command("report", player="b", reason="x" * 201)["code"] == "bad-field"


def test_host_role_lock_and_removals_survive_a_restart() -> None:
    h, a, _b, _c = lobby()
    h.connect(DI, room="room1").command("join", **{"as": "player"})
    a.command("kick", player="d")
    a.command("lock")
    a.command("hand-host", player="b")
    stored = [record_from_dict(json.loads(json.dumps(r.to_dict()))) for r in h.records]
    assert [r.action for r in stored if isinstance(r, HostAction)] == ["kick", "lock", "hand-host"]
    fresh = Referee(secret=b"test-secret", config=RoomConfig())
    fresh.restore(stored, h.now + 5)
    room = fresh.rooms["room1"]
    assert (room.host, room.locked, room.removed) == ("b", True, {"d"})


def test_the_host_lists_the_room_among_the_open_rooms_and_a_restart_keeps_it() -> None:
    h, a, b, c = lobby()
    assert b.command("list", listed=True)["code"] == "not-creator"
    assert a.command("list", listed="yes")["code"] == "bad-field"
    assert h.referee.room_summary("room1", h.now)["listed"] is False  # type: ignore[index]
    assert a.command("list", listed=True)["listed"] is True
    assert [(e["listed"], e["by"]) for e in c.events("listed")] == [(True, "a")]
    assert a.command("list", listed=True)["listed"] is True  # again: no new event
    assert len(c.events("listed")) == 1
    actions = [r for r in h.records if isinstance(r, HostAction)]
    assert [(r.action, r.by) for r in actions] == [("list", "a")]
    again = Referee(secret=b"test-secret", config=RoomConfig())
    again.restore(h.records, h.now)
    assert again.room_summary("room1", h.now)["listed"] is True  # type: ignore[index]
    assert a.command("list", listed=False)["listed"] is False
    assert [r.action for r in h.records if isinstance(r, HostAction)] == ["list", "unlist"]


def test_the_host_rates_the_room_in_the_lobby_only_and_a_restart_keeps_it() -> None:
    h, a, b, c = lobby()
    room = h.referee.rooms["room1"]
    assert room.settings.rated is False and room.rated is False  # friends: unrated
    assert b.command("rating", rated=True)["code"] == "not-creator"
    assert a.command("rating", rated="yes")["code"] == "bad-field"
    assert room.settings.rated is False and c.events("rating") == []
    assert a.command("rating", rated=True)["rated"] is True
    assert [(e["rated"], e["by"]) for e in c.events("rating")] == [(True, "a")]
    assert h.referee.room_summary("room1", h.now)["settings"]["rated"] is True  # type: ignore[index]
    assert a.command("rating", rated=True)["rated"] is True  # again: no new event
    assert len(c.events("rating")) == 1 and room.rated is True
    again = Referee(secret=b"test-secret", config=RoomConfig())
    again.restore(h.records, h.now)
    assert again.rooms["room1"].settings.rated is True and again.rooms["room1"].rated
    # During a round it is settled: no change until the lobby.
    a.command("ready")
    b.command("ready")
    a.command("start")
    assert a.command("rating", rated=False)["code"] == "not-in-lobby"
    assert room.settings.rated is True
    assert [r.action for r in h.records if isinstance(r, HostAction)] == ["rate"]


def test_a_room_created_rated_rates_its_rounds() -> None:
    h = Harness()
    h.room(ADA, "rated1", rated=True)
    assert h.referee.rooms["rated1"].rated is True
    assert h.referee.rooms["rated1"].settings.to_dict()["rated"] is True


def test_the_host_makes_the_room_a_league_that_stays_open_and_a_restart_keeps_it() -> None:
    h, a, b, c = lobby()
    room = h.referee.rooms["room1"]
    assert b.command("league", league=True)["code"] == "not-creator"
    assert a.command("league", league=1)["code"] == "bad-field"
    assert room.league is False and c.events("league") == []
    assert a.command("league", league=True)["league"] is True
    assert [(e["league"], e["by"]) for e in c.events("league")] == [(True, "a")]
    assert h.referee.room_summary("room1", h.now)["settings"]["league"] is True  # type: ignore[index]
    again = Referee(secret=b"test-secret", config=RoomConfig())
    again.restore(h.records, h.now)
    assert again.rooms["room1"].league is True
    for client in (a, b, c):  # everyone gone: an ordinary room would close after an hour
        client.disconnect()
    h.advance(7 * 86400)  # a week on, the same link still opens it
    assert "room1" in h.referee.rooms and not room.closed
    assert [r.kind for r in h.records].count("room-closed") == 0
    back = h.connect(ADA, room="room1")
    assert back.last("welcome")["state"]["settings"]["league"] is True
    assert back.command("league", league=False)["league"] is False  # an ordinary room again
    back.disconnect()
    h.advance(3600)
    assert room.closed and "room1" not in h.referee.rooms
