"""Every bad input gets the right refusal and changes nothing."""

from __future__ import annotations

import pytest

from scorpion.engine import Game
from scorpion.race import Player

from .harness import Client, Harness, racing

ADA, BO, CY = Player("a", "Ada"), Player("b", "Bo"), Player("c", "Cy")
FACE_UP = Game.new(7, "classic").view()["columns"][4]["up"][-1]  # type: ignore[index]


def fingerprint(h: Harness) -> tuple[object, ...]:
    room = h.referee.rooms["room1"]
    games = {pid: (r.game.text(), r.game.moves_made, r.status) for pid, r in room.racers.items()}
    state = room.state(h.now)
    return (state, games, room.core.log.version, len(h.records))


FRAMES = [
    ([1, 2], None, "bad-json"),
    ("move", None, "bad-json"),
    (None, None, "bad-json"),
    ({}, None, "unknown-type"),
    ({"type": "fly", "seq": 9}, 9, "unknown-type"),
    ({"type": 3, "seq": 9}, 9, "unknown-type"),
    ({"type": "move"}, None, "missing-field"),
    ({"type": "move", "seq": "9", "move": "deal"}, None, "bad-field"),
    ({"type": "move", "seq": 0, "move": "deal"}, None, "bad-field"),
    ({"type": "move", "seq": True, "move": "deal"}, None, "bad-field"),
    ({"type": "move", "seq": 2**60, "move": "deal"}, None, "bad-field"),
    ({"type": "move", "seq": 9}, 9, "missing-field"),
    ({"type": "move", "seq": 9, "move": 7}, 9, "bad-field"),
    ({"type": "move", "seq": 9, "move": "x" * 500}, 9, "bad-field"),
    ({"type": "move", "seq": 9, "move": "ZZ>1"}, 9, "bad-move"),
    ({"type": "move", "seq": 9, "move": f"{FACE_UP}>99"}, 9, "unknown-column"),
    ({"type": "join", "seq": 9}, 9, "missing-field"),
    ({"type": "join", "seq": 9, "as": "king"}, 9, "bad-field"),
    ({"type": "ready", "seq": 9, "ready": "yes"}, 9, "bad-field"),
    ({"type": "follow", "seq": 9}, 9, "missing-field"),
    ({"type": "rematch", "seq": 9, "round": "one"}, 9, "bad-field"),
    ({"type": "hello", "token": "t", "room": "room1"}, None, "already-authenticated"),
    ({"type": "undo", "seq": 9}, 9, "nothing-to-undo"),
    ({"type": "move", "seq": 9, "move": "deal", "player": "b"}, 9, "not-your-seat"),
    ({"type": "give-up", "seq": 9, "player": "b"}, 9, "not-your-seat"),
    ({"type": "deal", "seq": 9, "player": 7}, 9, "bad-field"),
    ({"type": "hint", "seq": 9}, 9, "hints-not-allowed"),
    ({"type": "start", "seq": 9}, 9, "already-started"),
    ({"type": "rematch", "seq": 9}, 9, "not-finished"),
    ({"type": "ready", "seq": 9}, 9, "already-started"),
    ({"type": "join", "seq": 9, "as": "spectator"}, 9, "not-allowed"),
    ({"type": "follow", "seq": 9, "player": "b"}, 9, "not-allowed"),
]


@pytest.mark.parametrize(("frame", "seq", "code"), FRAMES)
def test_bad_frames_from_a_racer(frame: object, seq: int | None, code: str) -> None:
    h, a, _b, _c = racing()
    before = fingerprint(h)
    answer = a.raw(frame)
    assert answer["type"] == "refused" and answer["code"] == code, answer
    assert answer["seq"] == seq and isinstance(answer["message"], str) and answer["message"]
    assert fingerprint(h) == before


def test_engine_refusals_keep_the_engine_code_and_message() -> None:
    h, a, _b, _c = racing()
    assert a.command("deal")["type"] == "applied"
    before = fingerprint(h)
    answer = a.command("deal")
    assert answer["code"] == "stock-dealt"
    assert answer["message"] == "The stock has already been dealt"
    assert fingerprint(h) == before
    game = Game.new(7, "classic")
    game.play("deal")
    assert h.referee.rooms["room1"].racers["a"].game.text() == game.text()


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ({"type": "move", "seq": 1, "move": "deal"}, "spectator"),
        ({"type": "undo", "seq": 1}, "spectator"),
        ({"type": "give-up", "seq": 1}, "spectator"),
        ({"type": "ready", "seq": 1}, "not-your-seat"),
        ({"type": "join", "seq": 1, "as": "player"}, "already-started"),
        ({"type": "follow", "seq": 1, "player": "nobody"}, "unknown-player"),
        ({"type": "start", "seq": 1}, "not-creator"),
    ],
)
def test_spectators_cannot_play(frame: dict[str, object], code: str) -> None:
    h, _a, _b, c = racing()
    before = fingerprint(h)
    answer = c.raw(frame)
    assert (answer["type"], answer["code"], answer["seq"]) == ("refused", code, 1)
    assert fingerprint(h) == before


def test_lobby_refusals() -> None:
    h = Harness()
    h.room(ADA, max_players=1, undo=False)
    a, b = h.connect(ADA, room="room1"), h.connect(BO, room="room1")
    assert a.command("start")["code"] == "nobody-ready"
    assert a.command("move", move="deal")["code"] == "spectator"
    assert b.command("move", move="deal")["code"] == "spectator"
    assert a.command("join", **{"as": "player"})["type"] == "applied"
    assert b.command("join", **{"as": "player"})["code"] == "room-full"
    assert a.command("move", move="deal")["code"] == "not-started"
    a.command("ready")
    a.command("start")
    h.advance(3)
    a.command("move", move="deal")
    assert a.command("undo")["code"] == "undo-not-allowed"


def test_hello_refusals_close_the_connection() -> None:
    h = Harness()
    h.room(ADA)
    unknown = h.connect(BO, room="nope")
    assert unknown.inbox[-1]["code"] == "unknown-room" and unknown.closed == (4004, "unknown-room")
    for hello, code in [
        ({"room": "room1", "daily": "2026-11-29"}, "missing-field"),
        ({}, "missing-field"),
        ({"room": "room1", "last_version": -1}, "bad-field"),
        ({"daily": "2999-01-01"}, "unknown-room"),
        ({"daily": "yesterday"}, "unknown-room"),
    ]:
        client = h.connect(BO, **hello)
        assert client.inbox == [
            {"type": "refused", "seq": None, "code": code, "message": client.inbox[0]["message"]}
        ]
        assert client.closed is not None
    assert h.referee.connection_count == 0
    stray = Client(h, 999, BO)
    h.clients[999] = stray
    assert stray.raw({"type": "ping", "seq": 1})["code"] == "not-authenticated"


def test_a_refusal_is_remembered_and_a_resent_seq_never_applies_twice() -> None:
    h, a, _b, _c = racing()
    first = a.raw({"type": "move", "seq": 5, "move": "deal"})
    assert first["type"] == "applied"
    before = fingerprint(h)
    again = a.raw({"type": "move", "seq": 5, "move": "deal"})
    assert again is first or again == first
    assert fingerprint(h) == before
    refused = a.raw({"type": "move", "seq": 6, "move": "AS>1"})
    assert refused["type"] == "refused"
    assert a.raw({"type": "move", "seq": 6, "move": "AS>1"}) == refused
    # A seq below the highest answered one that was never seen: too old to be applied.
    assert a.raw({"type": "move", "seq": 4, "move": "deal"})["code"] == "old-seq"
    assert fingerprint(h) == before
