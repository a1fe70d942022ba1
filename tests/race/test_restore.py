"""Rooms and dailies rebuilt from their records by replay equal the live ones."""

from __future__ import annotations

import copy
import json
import random

from scorpion.engine import Game
from scorpion.race import ActionRecord, Player, Record, Referee, RoomConfig, record_from_dict

from .harness import Client, Harness

ADA, BO, CY = Player("a", "Ada"), Player("b", "Bo"), Player("c", "Cy")


def through_json(records: list[Record]) -> list[Record]:
    """What a store gives back: every record as JSON and back."""
    return [record_from_dict(json.loads(json.dumps(r.to_dict()))) for r in records]


def racer_state(referee: Referee) -> dict[str, tuple[object, ...]]:
    room = referee.rooms["room1"]
    return {
        pid: (r.game.text(), r.game.log, r.game.score, r.game.moves_made, r.game.can_undo,
              r.status, r.hints, r.last_elapsed, r.finished_elapsed, r.timeline)
        for pid, r in room.racers.items()
    }  # fmt: skip


def mid_race() -> tuple[Harness, list[Client]]:
    h = Harness()
    h.room(ADA, deal=11, time_limit=200, hints=True, undo="full")
    clients = [h.connect(p, room="room1") for p in (ADA, BO, CY)]
    for client in clients:
        client.command("join", **{"as": "player"})
        client.command("ready")
    clients[0].command("start")
    h.advance(3)
    rng = random.Random(11)
    games = {c.player.id: Game.new(11, "classic") for c in clients}
    for step in range(90):
        h.advance(0.7)
        client = clients[step % 3]
        game = games[client.player.id]
        if rng.random() < 0.2 and game.can_undo:
            client.command("undo")
            game.undo()
        elif rng.random() < 0.1:
            client.command("hint")
        else:
            move = rng.choice(game.legal_moves())
            client.command("move", move=str(move))
            game.play(move)
    clients[2].command("give-up")
    return h, clients


def test_restore_equals_live_state_and_carries_on() -> None:
    h, clients = mid_race()
    restarted = Referee(secret=b"test-secret", config=RoomConfig(deal_source=lambda: 5))
    due = restarted.restore(through_json(h.records), h.now)
    assert due == []
    assert racer_state(restarted) == racer_state(h.referee)
    live, back = h.referee.rooms["room1"], restarted.rooms["room1"]
    assert (back.phase, back.round, back.deal, back.started_at, back.ends_at) == (
        live.phase, live.round, live.deal, live.started_at, live.ends_at,
    )  # fmt: skip
    state_live, state_back = live.state(h.now), back.state(h.now)
    for key in ("players", "phase", "round", "settings", "ends_at"):
        if key == "players":
            strip = [{k: v for k, v in p.items() if k != "connected"} for p in state_live[key]]
            assert strip == [
                {k: v for k, v in p.items() if k != "connected"} for p in state_back[key]
            ]
        else:
            assert state_live[key] == state_back[key]

    # Players reconnect to the restored server: recovered false, same board, undo works,
    # a resent seq is answered, not applied again.
    h.referee = restarted
    ada = h.connect(ADA, room="room1", last_version=5)
    welcome = ada.inbox[0]
    assert welcome["recovered"] is False and welcome["version"] > 10**12
    assert welcome["view"] == live.racers["a"].game.view()
    assert welcome["last_seq"] == clients[0].seq
    resent = ada.raw({"type": "move", "seq": clients[0].seq, "move": "deal"})
    assert resent["type"] == "applied" and resent.get("restored") is True
    assert back.racers["a"].game.moves_made == live.racers["a"].game.moves_made
    ada.seq = clients[0].seq
    if back.racers["a"].game.can_undo:
        assert ada.command("undo")["type"] == "applied"
    # The time limit still ends the race on the restored server.
    h.advance(300)
    assert ada.events("results")[-1]["round"] == 1


def test_restore_after_the_time_limit_passed_while_down() -> None:
    h, _clients = mid_race()
    restarted = Referee(secret=b"test-secret", config=RoomConfig(deal_source=lambda: 5))
    later = h.now + 1000
    due = restarted.restore(through_json(h.records), later)
    kinds = [o.record.kind for o in due if hasattr(o, "record")]
    assert kinds.count("round-finished") == 1 and kinds.count("game-result") == 3
    room = restarted.rooms["room1"]
    assert room.phase == "results"
    statuses = {pid: r.status for pid, r in room.racers.items()}
    assert statuses["c"] == "gave-up"
    assert {statuses["a"], statuses["b"]} <= {"timed-out", "won", "lost"}


def test_restore_finished_room_and_closed_room() -> None:
    h, clients = mid_race()
    h.advance(300)
    ranking = clients[0].events("results")[-1]["ranking"]
    for client in clients:
        client.disconnect()
    h.room(BO, room_id="room2")
    h.advance(4000)  # both rooms idle past the idle limit: closed
    assert "room1" not in h.referee.rooms and "room2" not in h.referee.rooms
    restarted = Referee(secret=b"test-secret")
    restarted.restore(through_json(h.records), h.now)
    assert restarted.rooms == {}
    # Without the closing records, room1 comes back in its results.
    open_records = [r for r in h.records if r.kind != "room-closed"]
    restarted = Referee(secret=b"test-secret")
    restarted.restore(through_json(open_records), h.now)
    assert restarted.rooms["room1"].phase == "results"
    assert restarted.rooms["room1"].results == ranking
    assert "room2" in restarted.rooms


def test_a_seat_lost_stays_lost_after_restore() -> None:
    h, clients = mid_race()
    clients[1].disconnect()
    h.advance(61)
    assert clients[0].events("left")[-1]["player"] == "b"
    restarted = Referee(secret=b"test-secret")
    restarted.restore(through_json(h.records), h.now)
    assert racer_state(restarted) == racer_state(h.referee)
    room = restarted.rooms["room1"]
    assert room.racers["b"].status == "left" and room.core.members.get("b") is None


def test_an_action_that_no_longer_applies_is_skipped_not_the_room() -> None:
    # A log that lost a write in the middle (the store failed): a later action may not apply
    # to the board the log gives. The room comes back with what applies, and says what not.
    h, _clients = mid_race()
    h.room(BO, room_id="room2")
    bad = ActionRecord("room1", 1, "a", 1000, "KH>9", 500.0)  # there is no column 9
    restarted = Referee(secret=b"test-secret")
    restarted.restore([*through_json(h.records), bad], h.now)
    assert restarted.restore_errors == ["room1 a: skipped 'KH>9' (unknown-column)"]
    assert racer_state(restarted) == racer_state(h.referee)  # everything else applied
    assert "room2" in restarted.rooms


def test_restore_at_every_checkpoint_equals_the_live_room_then() -> None:
    h = Harness()
    h.room(ADA, deal=12, time_limit=0, undo="full")
    clients = [h.connect(p, room="room1") for p in (ADA, BO)]
    for client in clients:
        client.command("join", **{"as": "player"})
        client.command("ready")
    clients[0].command("start")
    h.advance(3)
    rng = random.Random(12)
    games = {c.player.id: Game.new(12, "classic") for c in clients}
    checkpoints: list[tuple[int, float, dict[str, tuple[object, ...]]]] = []
    for step in range(80):
        h.advance(0.3)
        client = clients[step % 2]
        game = games[client.player.id]
        if rng.random() < 0.25 and game.can_undo:
            client.command("undo")
            game.undo()
        elif game.legal_moves():
            move = rng.choice(game.legal_moves())
            client.command("move", move=str(move))
            game.play(move)
        if step % 7 == 0:
            checkpoints.append((len(h.records), h.now, copy.deepcopy(racer_state(h.referee))))
    assert len(checkpoints) > 10
    for count, when, expected in checkpoints:
        restarted = Referee(secret=b"test-secret")
        restarted.restore(through_json(h.records[:count]), when)
        assert racer_state(restarted) == expected
