"""The referee's timers across many rooms: the earliest deadline, nothing missed."""

from __future__ import annotations

from scorpion.race import Player

from .harness import T0, Harness


def test_deadlines_across_rooms() -> None:
    h = Harness()
    assert h.referee.next_deadline() is None
    clients = []
    for i, limit in enumerate((300, 100, 200)):
        player = Player(f"p{i}", f"P{i}")
        room = h.room(player, room_id=f"r{i}", time_limit=limit)
        client = h.connect(player, room=room)
        client.command("join", **{"as": "player"})
        client.command("ready")
        client.command("start")
        clients.append(client)
    assert h.referee.next_deadline() == T0 + 3  # the countdowns
    h.advance(3)
    assert h.referee.next_deadline() == T0 + 103  # room r1's time limit
    clients[1].command("give-up")  # r1 ends early: its deadline is now the idle close, later
    assert h.referee.next_deadline() == T0 + 203
    clients[2].disconnect()  # r2's player away: the grace ends before its time limit
    assert h.referee.next_deadline() == T0 + 63
    h.advance(60)
    assert clients[0].events("results") == [] and h.referee.next_deadline() == T0 + 303
    h.advance(300)
    assert clients[0].events("results")[-1]["ranking"][0]["status"] == "timed-out"
    for client in clients[:2]:
        client.disconnect()
    h.advance(3600)  # every room idle past the limit: closed and forgotten
    assert h.referee.rooms == {} and h.referee.next_deadline() is None
    assert [r.kind for r in h.records].count("room-closed") == 3
