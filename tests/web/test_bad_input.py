"""Bad input over real sockets: a clear refusal or a clean close, and the server carries on."""

from __future__ import annotations

import orjson

from scorpion_dev.server import Api, Client, Frame, ServerProcess, start_race


async def refused(client: Client, timeout: float = 10.0) -> Frame:
    frame = await client.expect(lambda f: f.get("type") in ("refused", "applied"), timeout)
    assert frame["type"] == "refused", frame
    return frame


async def alive(client: Client) -> None:
    answer = await client.call("ping")
    assert answer["type"] == "applied" and answer["now"] > 0


async def test_bad_hellos_are_refused_and_closed(server: ServerProcess, api: Api) -> None:
    _, token = await api.new_player("Ann")
    room = await api.new_room(token)

    def hello(**fields: object) -> str:
        return orjson.dumps({"type": "hello", **fields}).decode()

    cases: list[tuple[str | bytes, str, int]] = [
        ('{"type": "ping", "seq": 1}', "not-authenticated", 4000),
        ("{not json", "bad-json", 4000),
        ("[1, 2, 3]", "bad-json", 4000),
        (b"\x00\x01binary", "bad-json", 4000),
        (hello(room=room), "missing-field", 4000),
        (hello(token=token), "missing-field", 4000),
        (hello(token=7, room=room), "bad-field", 4000),
        (hello(token="nope", room=room), "bad-token", 4001),
        (hello(token=token, room="nowhere"), "unknown-room", 4004),
        (hello(token=token, daily="2999-01-01"), "unknown-room", 4004),
        (hello(token=token, room=room, pad="x" * 20_000), "too-large", 1009),
    ]
    for raw, code, close_code in cases:
        client = await Client.connect(server.ws_url)
        await client.send_raw(raw)
        answer = await refused(client)
        assert answer["code"] == code and answer["seq"] is None, (raw[:60], answer)
        assert answer["message"]
        closed = await client.closed()
        assert closed[0] == close_code, (raw[:60], closed)
    # The server is still fine: a good hello works.
    client = await Client.connect(server.ws_url)
    assert (await client.hello(token, room=room))["type"] == "welcome"
    await alive(client)


async def test_bad_commands_get_clear_refusals(server: ServerProcess, api: Api) -> None:
    _, ann_token = await api.new_player("Ann")
    _, bob_token = await api.new_player("Bob")
    room = await api.new_room(ann_token, deal=99)
    ann, bob = await Client.connect(server.ws_url, "ann"), await Client.connect(server.ws_url)
    assert (await ann.hello(ann_token, room=room))["type"] == "welcome"
    assert (await bob.hello(bob_token, room=room))["type"] == "welcome"
    # Each case's seq follows the client's own (pings use seqs too); True: echoed back.
    cases: list[tuple[str | bytes, str, bool]] = [
        ("{oops", "bad-json", False),
        ('"a string"', "bad-json", False),
        (b"binary", "bad-json", False),
        ('{"seq": SEQ}', "unknown-type", True),
        ('{"type": "teleport", "seq": SEQ}', "unknown-type", True),
        ('{"type": "ping"}', "missing-field", False),
        ('{"type": "ping", "seq": "one"}', "bad-field", False),
        ('{"type": "ping", "seq": -4}', "bad-field", False),
        ('{"type": "move", "seq": SEQ}', "missing-field", True),
        ('{"type": "move", "seq": SEQ, "move": 12}', "bad-field", True),
        ('{"type": "join", "seq": SEQ, "as": "king"}', "bad-field", True),
        ('{"type": "hello", "seq": SEQ, "token": "x", "room": "y"}', "already-authenticated", True),
        ('{"type": "ready", "seq": SEQ}', "not-your-seat", True),
        ('{"type": "move", "seq": SEQ, "move": "4H>7"}', "spectator", True),
        (orjson.dumps({"type": "ping", "pad": "x" * 20_000}).decode(), "too-large", False),
    ]
    for raw, code, echoed in cases:
        bob.seq += 1
        if isinstance(raw, str):
            raw = raw.replace("SEQ", str(bob.seq))
        await bob.send_raw(raw)
        answer = await refused(bob)
        expected = bob.seq if echoed else None
        assert (answer["code"], answer["seq"]) == (code, expected), (str(raw)[:60], answer)
        await alive(bob)
    # Bob's mistakes never reached Ann.
    await alive(ann)
    assert not [f for f in ann.frames if f.get("type") == "refused"]
    # A frame past the hard limit closes that socket (1009) and only that one.
    await bob.send_raw("x" * 100_000)
    assert (await bob.closed())[0] == 1009
    await alive(ann)


async def test_moves_out_of_turn(server: ServerProcess, api: Api) -> None:
    _, ann_token = await api.new_player("Ann")
    _, bob_token = await api.new_player("Bob")
    room = await api.new_room(ann_token, deal=5)
    ann, bob = await Client.connect(server.ws_url, "ann"), await Client.connect(server.ws_url)
    await ann.hello(ann_token, room=room)
    await bob.hello(bob_token, room=room)
    for client in (ann, bob):
        assert (await client.call("join", **{"as": "player"}))["type"] == "applied"
    before = await bob.call("move", move="deal")
    assert before["type"] == "refused" and before["code"] == "not-started"
    assert (await bob.call("start"))["code"] == "not-creator"
    # Ann, seated, races by pressing Start (issue 23: the host's Start is her "ready").
    assert (await ann.call("start"))["type"] == "applied"
    await ann.expect(lambda f: f.get("event") == "start")
    # Bob was not ready: he watches this race and cannot move.
    late = await bob.call("move", move="deal")
    assert late["type"] == "refused" and late["code"] in ("spectator", "not-started")
    wrong = await ann.call("move", move="KS>1")
    assert wrong["type"] == "refused" and wrong["code"] not in ("bad-json", "server-error")
    assert (await ann.call("move", move="🂡>1"))["code"] == "bad-move"
    assert (await ann.call("give-up"))["type"] == "applied"
    after = await ann.call("move", move="deal")
    assert after["type"] == "refused" and after["code"] in ("finished", "game-over")
    await alive(ann)


async def test_a_seat_is_bound_to_its_player(server: ServerProcess, api: Api) -> None:
    room, racers, _ = await start_race(server, api, ["Ann", "Bob"], 77)
    _, eve_token = await api.new_player("Eve")
    eve = await Client.connect(server.ws_url, "eve")
    welcome = await eve.hello(eve_token, room=room)
    assert welcome["you"]["role"] == "spectator" and welcome["view"] is None
    for command, fields in [("move", {"move": "deal"}), ("undo", {}), ("give-up", {}),
                            ("hint", {}), ("ready", {})]:  # fmt: skip
        answer = await eve.call(command, **fields)
        assert answer["type"] == "refused", answer
        assert answer["code"] in ("spectator", "not-your-seat", "already-started")
    late = await eve.call("join", **{"as": "player"})
    assert late["type"] == "refused" and late["code"] == "already-started"
    # Ann's board is untouched by all that.
    ann = racers["Ann"]
    answer = await ann.act("move", move=ann.pick())
    assert answer["type"] == "applied" and answer["view"]["moves"] == 1
