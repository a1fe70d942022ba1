"""Reconnects: missed events or a snapshot, the seat held for the grace period, seq answers."""

from __future__ import annotations

from scorpion.engine import Game
from scorpion.race import Player
from scorpion.race.masking import mask_view

from .harness import INTERVAL, Client, Harness, racing

ADA, BO, CY = Player("a", "Ada"), Player("b", "Bo"), Player("c", "Cy")


def play_some(client: Client, game: Game, count: int) -> None:
    """Play ``count`` legal moves that are not the deal, mirrored on ``game``."""
    for _ in range(count):
        move = next(m for m in game.legal_moves() if m.card is not None)
        assert client.command("move", move=str(move))["type"] == "applied"
        game.play(move)


def test_reconnect_within_grace_resumes_exactly_with_undo_history() -> None:
    h, a, b, c = racing(undo="full")
    shadow = Game.new(7, "classic")
    play_some(a, shadow, 3)
    version = a.inbox[-1]["v"] if a.inbox[-1]["type"] == "event" else a.events()[-1]["v"]
    a.disconnect()
    presence = c.events("presence")[-1]
    assert presence == {"type": "event", "v": presence["v"], "event": "presence", "player": "a",
                        "connected": False, "grace_until": h.now + 60}  # fmt: skip
    play_some(b, Game.new(7, "classic"), 2)  # events Ada misses
    h.advance(59)
    a2 = h.connect(ADA, room="room1", last_version=version)
    a2.seq = a.seq
    welcome = a2.inbox[0]
    assert welcome["type"] == "welcome" and welcome["recovered"] is True
    assert welcome["you"] == {"id": "a", "name": "Ada", "role": "player", "status": "playing"}
    assert [e["v"] for e in welcome["events"]] == list(range(version + 1, welcome["version"] + 1))
    names = [e["event"] for e in welcome["events"]]
    # Ada's last two moves were waiting to be announced (at most one progress event per
    # 0.1 s): they go out ahead of her presence; Bo's two moves go out together.
    assert names == ["progress", "presence", "progress", "presence"]
    assert welcome["view"] == shadow.view()
    assert welcome["last_seq"] == a.seq
    assert c.events("presence")[-1]["connected"] is True
    # Undo history survived: three undos bring back the opening.
    for _ in range(3):
        assert a2.command("undo")["type"] == "applied"
        shadow.undo()
    assert a2.last("applied")["view"] == Game.new(7, "classic").view() == shadow.view()


def test_seat_lost_after_grace() -> None:
    h, a, b, c = racing(grace=30)
    a.disconnect()
    h.advance(29.9)
    assert not c.events("left")
    h.advance(0.2)
    left = c.events("left")[-1]
    assert (left["player"], left["reason"], left["watching"]) == ("a", "seat-lost", False)
    progress = c.progress()[-1]
    assert (progress["player"], progress["status"]) == ("a", "left")
    # Ada comes back later: she watches; her game is over.
    a2 = h.connect(ADA, room="room1")
    assert a2.inbox[0]["you"]["role"] == "spectator"
    a2.seq = 100
    assert a2.command("move", move="deal")["code"] == "finished"
    b.command("give-up")
    ranking = c.events("results")[-1]["ranking"]
    assert {r["player"]: r["status"] for r in ranking} == {"a": "left", "b": "gave-up"}


def test_lobby_seat_lost_after_grace() -> None:
    h = Harness(grace=10)
    h.room(ADA)
    a, b = h.connect(ADA, room="room1"), h.connect(BO, room="room1")
    b.command("join", **{"as": "player"})
    b.disconnect()
    h.advance(10)
    assert a.events("left")[-1]["reason"] == "seat-lost"
    assert h.referee.room_summary("room1", h.now)["players"] == []  # type: ignore[index]


def test_old_version_gets_a_snapshot() -> None:
    h, _a, b, c = racing(undo="full")
    version = c.events()[-1]["v"]
    c.disconnect()
    for _ in range(30):  # 60 progress events: more than the 50 kept
        b.command("move", move="deal")
        h.advance(INTERVAL)  # a room announces progress at most every 0.1 s
        b.command("undo")
        h.advance(INTERVAL)
    c2 = h.connect(CY, room="room1", last_version=version)
    welcome = c2.inbox[0]
    assert welcome["recovered"] is False and welcome["events"] == []
    state = welcome["state"]
    bo = next(p for p in state["players"] if p["id"] == "b")
    assert bo["moves"] == 0 and state["phase"] == "racing"
    assert welcome["version"] >= version + 60
    # No last_version at all: a snapshot too; a future version: a snapshot.
    assert h.connect(CY, room="room1").inbox[0]["recovered"] is False
    assert h.connect(CY, room="room1", last_version=10**9).inbox[0]["recovered"] is False


def test_resent_seq_after_reconnect_is_answered_not_replayed() -> None:
    h, a, _b, _c = racing()
    answer = a.command("move", move="deal")
    a.disconnect()
    a2 = h.connect(ADA, room="room1")
    again = a2.raw({"type": "move", "seq": a.seq, "move": "deal"})
    assert again == answer
    assert h.referee.rooms["room1"].racers["a"].game.moves_made == 1


def test_several_tabs_see_the_same_board() -> None:
    h, a, _b, _c = racing()
    tab = h.connect(ADA, room="room1")
    tab.seq = 50
    answer = a.command("move", move="deal")
    assert tab.last("view")["view"] == answer["view"]
    a.disconnect()  # the other tab is still there: no presence event
    assert not [e for e in tab.events("presence") if e["connected"] is False]


def test_ping_and_follow() -> None:
    h, a, _b, c = racing(undo="full")
    pong = c.command("ping")
    assert pong == {"type": "applied", "seq": c.seq, "command": "ping", "now": h.now}
    c.command("follow", player="b")
    answer = a.command("move", move="deal")
    assert not [m for m in c.inbox if m["type"] == "view" and m["player"] == "a"]
    c.command("follow", player="a")
    a.command("undo")
    h.advance(INTERVAL)  # a follower gets the board with the room's next progress event
    assert c.last("view")["view"] == mask_view(Game.new(7, "classic").view(), set())
    assert answer["view"] != c.last("view")["view"]
    c.command("follow", player=None)
    a.command("move", move="deal")
    assert c.last("view")["view"] == mask_view(Game.new(7, "classic").view(), set())


def test_when_the_creator_is_gone_a_seated_player_may_start() -> None:
    h = Harness(grace=10)
    h.room(ADA)
    a, b, c = (h.connect(p, room="room1") for p in (ADA, BO, CY))
    b.command("join", **{"as": "player"})
    b.command("ready")
    assert b.command("start")["code"] == "not-creator"
    a.disconnect()
    h.advance(5)
    assert b.command("start")["code"] == "not-creator"  # Ada's grace is not over
    h.advance(5)
    assert c.command("start")["code"] == "not-creator"  # a spectator still may not
    assert b.command("start")["type"] == "applied"


def test_nobody_sees_the_deal_during_the_countdown() -> None:
    h = Harness()
    h.room(ADA, deal=7)
    a, b, c = (h.connect(p, room="room1") for p in (ADA, BO, CY))
    for cl in (a, b):
        cl.command("join", **{"as": "player"})
        cl.command("ready")
    a.command("start")
    assert c.command("follow", player="a")["view"] is None
    tab = h.connect(ADA, room="room1")  # a reconnect during the countdown
    assert tab.inbox[0]["view"] is None and tab.inbox[0]["you"]["status"] == "playing"
    b.command("leave")  # gives up before the start: still no board anywhere
    assert not [m for cl in (a, b, c, tab) for m in cl.inbox if m["type"] == "view"]
    h.advance(3)
    assert a.last("view")["view"] == Game.new(7, "classic").view()
    assert c.last("view")["player"] == "a"
