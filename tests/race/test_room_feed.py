"""What a room feeds its members (race/room_feed.py): progress events at most one per
interval, every change in one, in order; followers get the boards with them."""

from __future__ import annotations

from scorpion.engine import Game
from scorpion.race import Player

from .harness import INTERVAL, racing


def legal_move(game: Game) -> str:
    return str(next(m for m in game.legal_moves() if str(m) != "deal"))


def test_the_first_change_goes_out_at_once_the_next_ones_together() -> None:
    h, a, b, c = racing()
    ada, bo = Game.new(7, "classic"), Game.new(7, "classic")
    for game, client in ((ada, a), (bo, b)):
        move = legal_move(game)
        game.play(move)
        assert client.command("move", move=move)["type"] == "applied"
    first, *events = c.events("progress")
    # The start's: every racer's numbers on the fresh deal, outside the interval's count.
    assert [(p["player"], p["moves"]) for p in first["players"]] == [("a", 0), ("b", 0)]
    assert [[p["player"] for p in e["players"]] for e in events] == [["a"]]  # Bo's waits
    move = legal_move(ada)
    ada.play(move)
    a.command("move", move=move)
    assert len(c.events("progress")) == 2
    h.advance(INTERVAL)  # the interval is up: Bo's move and Ada's second go out together
    last = c.events("progress")[-1]
    assert [(p["player"], p["moves"]) for p in last["players"]] == [("b", 1), ("a", 2)]
    assert last["ranks"] == {"a": 1, "b": 2}
    assert len(c.events("progress")) == 3
    assert c.events("progress") == b.events("progress") == a.events("progress")


def players(event: dict[str, object]) -> list[object]:
    entries = event["players"] if event["event"] == "progress" else []
    return [p["player"] for p in entries]  # type: ignore[attr-defined,index]


def test_what_waits_goes_out_before_the_next_event() -> None:
    _h, a, b, c = racing()
    a.command("move", move="deal")
    b.command("move", move="deal")  # waits for the interval
    b.command("give-up")  # still within it
    a.command("give-up")  # the last racer: the results close the race
    names = [(e["event"], players(e)) for e in c.events()]
    assert names[-3:] == [("progress", ["a"]), ("progress", ["b", "a"]), ("results", [])]


def test_a_newcomers_welcome_holds_what_waited() -> None:
    h, a, b, c = racing()
    a.command("move", move="deal")
    b.command("move", move="deal")  # waits for the interval
    newcomer = h.connect(Player("d", "Di"), room="room1")
    welcome = newcomer.inbox[0]
    bo = next(p for p in welcome["state"]["players"] if p["id"] == "b")  # type: ignore[index]
    assert bo["moves"] == 1
    # Those already there got Bo's move before the newcomer's arrival; the newcomer's
    # welcome is past it, so nobody misses an event or gets one twice.
    names = [(e["event"], players(e)) for e in c.events()]
    # Bo's deal released the stock cards Ada's board showed masked: her numbers as others
    # see them may change with it, so they go out again with his.
    assert names[-2:] == [("progress", ["b", "a"]), ("joined", [])]
    assert c.events()[-1]["v"] == welcome["version"]
    h.advance(INTERVAL)
    assert newcomer.events() == []


def test_a_follower_gets_the_board_with_each_announcement_only() -> None:
    h, a, _b, c = racing()
    c.command("follow", player="a")
    ada = Game.new(7, "classic")
    for _ in range(3):  # three moves within one interval
        move = legal_move(ada)
        ada.play(move)
        a.command("move", move=move)
    views = [m for m in c.inbox if m["type"] == "view"]
    assert len(views) == 1  # the first move's, with the first announcement
    h.advance(INTERVAL)
    views = [m for m in c.inbox if m["type"] == "view"]
    assert len(views) == 2
    assert views[-1]["view"]["moves"] == 3  # type: ignore[index]  # the board as it is now
    assert c.inbox[-2]["event"] == "progress" and c.inbox[-1] is views[-1]


def test_a_spectator_may_watch_every_board_at_once_masked_as_a_followed_one() -> None:
    h, a, b, c = racing()
    answer = c.command("follow", player="*")
    room = h.referee.rooms["room1"]
    assert answer["player"] == "*" and set(answer["views"]) == {"a", "b"}  # type: ignore[arg-type]
    for pid in ("a", "b"):
        assert answer["views"][pid] == room.feed.board(room, room.racers[pid], "c")  # type: ignore[index]
        assert "legal" not in answer["views"][pid]  # type: ignore[index]
    before = len(c.inbox)
    move = a.last("view")["view"]["legal"][0]  # type: ignore[index]
    a.command("move", move=move)
    b.command("deal")
    h.advance(1)
    views = [m for m in c.inbox[before:] if m["type"] == "view"]
    assert {m["player"] for m in views} == {"a", "b"}  # every racer's board as it changes
    for m in views:
        assert m["view"] == room.feed.board(room, room.racers[str(m["player"])], "c")
    # A racer may not watch the others while racing, whatever they asked before.
    assert a.command("follow", player="*")["code"] == "not-allowed"
    assert h.referee.rooms["room1"].core.members.get("c").following == "*"  # type: ignore[union-attr]


def test_watching_everyone_ends_when_the_watcher_races_again() -> None:
    h, a, b, _c = racing()
    a.command("give-up")
    b.command("give-up")
    assert a.command("follow", player="*")["type"] == "applied"  # finished: may watch
    a.command("rematch")  # the next round: Ada races again
    for client in (a, b):
        client.command("ready")
    a.command("start")
    h.advance(4)
    assert h.referee.rooms["room1"].core.members.get("a").following is None  # type: ignore[union-attr]
    before = len(a.inbox)
    b.command("deal")
    h.advance(1)
    assert not [m for m in a.inbox[before:] if m["type"] == "view" and m["player"] == "b"]
