"""The referee's timers: a room's time limit, and the earliest deadline across many rooms,
nothing missed. (The grace period: test_reconnect.py; kept across a restart: test_restore.py.)"""

from __future__ import annotations

from scorpion.engine import Game
from scorpion.race import GameResult, Player

from .harness import T0, Harness, racing


def test_the_time_limit_ends_the_race_with_results_and_records() -> None:
    h, a, b, c = racing(time_limit=2, deal=31)
    move = next(m for m in Game.new(31, "classic").legal_moves() if m.card is not None)
    assert a.command("move", move=str(move))["type"] == "applied"
    h.advance(1.9)
    assert c.events("results") == [] and a.command("move", move="deal")["type"] == "applied"
    h.advance(0.1)
    results = c.events("results")[-1]
    assert [e["status"] for e in results["ranking"]] == ["timed-out", "timed-out"]
    first, second = results["ranking"]
    assert (first["runs"], first["score"]) >= (second["runs"], second["score"])
    late = b.command("move", move="deal")
    assert late["type"] == "refused" and late["code"] == "finished"
    games = [r for r in h.records if isinstance(r, GameResult)]
    assert {(g.player, g.status, g.deal, g.elapsed) for g in games} == {
        ("a", "timed-out", 31, 2.0),
        ("b", "timed-out", 31, 2.0),
    }


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
