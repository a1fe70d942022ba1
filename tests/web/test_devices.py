"""Your player on another device (one-time code, recovery code) and name reports, against a
real server: each device gets its own token of the same player; codes work once, expire, are
rate-limited and never travel in a URL. On SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest

from scorpion.web.devices import code_hash
from scorpion_dev.server import Api, Client, ServerProcess, scorpion_reports
from support.sql import query

pytestmark = pytest.mark.backends  # the store under the server: SQLite and PostgreSQL


async def test_a_one_time_code_moves_the_player_and_works_once(api: Api) -> None:
    pid, token = await api.new_player("Ada")
    r = await api.call("POST", "/api/me/device-code", token)
    assert r.status_code == 201, r.text
    made = r.json()
    assert 250 <= made["seconds"] <= 600 and len(made["code"]) == 9
    typed = " " + made["code"].upper().replace("-", " ") + " "  # as typed on a phone
    r = await api.call("POST", "/api/devices/claim", body={"code": typed})
    assert r.status_code == 200, r.text
    second = r.json()
    assert second["player"]["id"] == pid and second["token"] != token
    # Both devices are the same player, each with its own token.
    for t in (token, second["token"]):
        me = await api.call("GET", "/api/me", t)
        assert me.json()["player"]["id"] == pid
    again = await api.call("POST", "/api/devices/claim", body={"code": made["code"]})
    assert again.status_code == 400 and again.json()["error"]["code"] == "bad-code"
    r = await api.call("POST", "/api/me/device-code")
    assert r.status_code == 401


async def test_an_expired_code_is_refused(server: ServerProcess, api: Api) -> None:
    _, token = await api.new_player("Bo")
    code = (await api.call("POST", "/api/me/device-code", token)).json()["code"]
    await query(server.db, "UPDATE device_codes SET expires = expires - 3600")  # time passed
    r = await api.call("POST", "/api/devices/claim", body={"code": code})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad-code"


async def test_a_recovery_code_is_shown_once_kept_hashed_and_can_be_replaced(
    server: ServerProcess, api: Api
) -> None:
    pid, token = await api.new_player("Cy")
    r = await api.call("POST", "/api/me/recovery-code", token)
    assert r.status_code == 201
    code = r.json()["recovery_code"]
    stored = await query(server.db, "SELECT code_hash FROM recovery_codes")
    assert stored == [(code_hash(code),)] and code.encode() not in stored[0][0]
    for _ in range(2):  # good until replaced, each use a new token
        r = await api.call("POST", "/api/recover", body={"code": code})
        assert r.status_code == 200 and r.json()["player"]["id"] == pid
    newer = (await api.call("POST", "/api/me/recovery-code", token)).json()["recovery_code"]
    assert newer != code
    old = await api.call("POST", "/api/recover", body={"code": code})
    assert old.status_code == 400 and old.json()["error"]["code"] == "bad-code"
    r = await api.call("POST", "/api/recover", body={"code": newer})
    assert r.json()["player"]["id"] == pid
    bad = await api.call("POST", "/api/recover", body={"code": 12})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad-field"


async def test_trying_codes_is_rate_limited_by_address(api: Api) -> None:
    # A burst of 10, then one try every 6 s: 30 quick tries meet the limit however slow the
    # machine (unless each took over 6 s), and the first 10 never do.
    codes = []
    for _ in range(30):
        r = await api.call("POST", "/api/devices/claim", body={"code": "aaaa-bbbb"})
        codes.append(r.status_code)
        if r.status_code == 429:
            break
    assert set(codes[:10]) == {400} and codes[-1] == 429


async def test_a_deleted_player_takes_its_device_tokens_along(api: Api) -> None:
    _, token = await api.new_player("Di")
    code = (await api.call("POST", "/api/me/device-code", token)).json()["code"]
    second = (await api.call("POST", "/api/devices/claim", body={"code": code})).json()["token"]
    assert (await api.call("DELETE", "/api/me", token)).status_code == 200
    assert (await api.call("GET", "/api/me", second)).status_code == 401


async def test_a_reported_name_reaches_the_operator_only(server: ServerProcess, api: Api) -> None:
    _, ada = await api.new_player("Ada")
    bo_id, bo = await api.new_player("Bo <rude>")
    room = await api.new_room(ada)
    a = await Client.connect(server.ws_url, "a")
    b = await Client.connect(server.ws_url, "b")
    assert (await a.hello(ada, room=room))["type"] == "welcome"
    assert (await b.hello(bo, room=room))["type"] == "welcome"
    answer = await a.call("report", player=bo_id, reason="a slur")
    assert answer["type"] == "applied" and answer["reported"] == bo_id
    await a.close()
    await b.close()
    out = scorpion_reports(server.db)
    assert '"Bo <rude>"' in out and bo_id in out and '"a slur"' in out


FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Version/17.0 Safari/604.1"


async def on_device(api: Api, path: str, body: dict[str, object], agent: str) -> dict:
    r = await api.http.post(path, json=body, headers={"User-Agent": agent})
    assert r.status_code in (200, 201), r.text
    data: dict = r.json()
    return data


async def practice_socket(server: ServerProcess, token: str) -> Client:
    client = await Client.connect(server.ws_url, "device")
    assert (await client.hello(token, practice=True))["type"] == "welcome"
    return client


async def test_a_leaked_recovery_code_stops_working_when_a_new_one_is_made(
    server: ServerProcess, api: Api
) -> None:
    """Issue 24, item 10: the attacker's token from a leaked recovery code is signed out
    (HTTP 401, open socket closed 4001) as soon as the victim makes a new code."""
    pid, victim = await api.new_player("Eve's victim")
    leaked = (await api.call("POST", "/api/me/recovery-code", victim)).json()["recovery_code"]
    stolen = await on_device(api, "/api/recover", {"code": leaked}, IPHONE)
    attacker = stolen["token"]
    assert (await api.call("GET", "/api/me", attacker)).json()["player"]["id"] == pid
    socket = await practice_socket(server, attacker)
    r = await api.call("POST", "/api/me/recovery-code", victim)
    assert r.status_code == 201
    gone = await api.call("GET", "/api/me", attacker)
    assert gone.status_code == 401 and gone.json()["error"]["code"] == "bad-token"
    assert await socket.closed() == (4001, "signed out: this device's token was revoked")
    assert r.json()["signed_out"] == 1
    again = await Client.connect(server.ws_url, "again")
    assert (await again.hello(attacker, practice=True))["code"] == "bad-token"
    assert (await api.call("POST", "/api/recover", body={"code": leaked})).status_code == 400
    assert (await api.call("GET", "/api/me", victim)).status_code == 200  # the victim stays


async def test_your_devices_are_listed_and_one_is_signed_out(
    server: ServerProcess, api: Api
) -> None:
    made = await on_device(api, "/api/players", {"name": "Flo"}, FIREFOX)
    laptop = made["token"]
    code = (await api.call("POST", "/api/me/device-code", laptop)).json()["code"]
    phone = (await on_device(api, "/api/devices/claim", {"code": code}, IPHONE))["token"]
    r = await api.call("GET", "/api/me/devices", laptop)
    assert r.status_code == 200, r.text
    devices = r.json()["devices"]
    assert [(d["agent"], d["made"], d["this_device"]) for d in devices] == [
        ("Firefox on Linux", "new-player", True),
        ("Safari on iPhone", "device-code", False),
    ]
    assert all(d["created"] <= d["last_seen"] for d in devices)
    assert laptop not in r.text and phone not in r.text  # a device is never named by its token
    socket = await practice_socket(server, phone)
    assert (await api.call("GET", "/api/me", phone)).status_code == 200  # cached now
    r = await api.call("DELETE", f"/api/me/devices/{devices[1]['id']}", laptop)
    assert r.json() == {"signed_out": 1, "this_device": False}
    assert (await socket.closed())[0] == 4001
    assert (await api.call("GET", "/api/me", phone)).status_code == 401
    assert len((await api.call("GET", "/api/me/devices", laptop)).json()["devices"]) == 1
    for gone in (devices[1]["id"], "0123456789abcdef", "nope"):
        r = await api.call("DELETE", f"/api/me/devices/{gone}", laptop)
        assert r.status_code == 404 and r.json()["error"]["code"] == "unknown-device"
    # Signing this device out is allowed: it is the last of the player's tokens.
    r = await api.call("DELETE", f"/api/me/devices/{devices[0]['id']}", laptop)
    assert r.json() == {"signed_out": 1, "this_device": True}
    assert (await api.call("GET", "/api/me/devices", laptop)).status_code == 401


async def test_sign_out_everywhere_else_keeps_this_device(server: ServerProcess, api: Api) -> None:
    _, first = await api.new_player("Gus")
    others = []
    for _ in range(2):
        code = (await api.call("POST", "/api/me/device-code", first)).json()["code"]
        others.append((await on_device(api, "/api/devices/claim", {"code": code}, IPHONE))["token"])
    sockets = [await practice_socket(server, t) for t in (first, *others)]
    r = await api.call("POST", "/api/me/devices/sign-out-others", others[0])
    assert r.json() == {"signed_out": 2}
    assert [(await s.closed(timeout=10))[0] for s in sockets[::2]] == [4001, 4001]
    assert [(await api.call("GET", "/api/me", t)).status_code for t in (first, *others)] == [
        401,
        200,
        401,
    ]
    assert (await sockets[1].call("ping"))["type"] == "applied"  # this device's socket stays
    r = await api.call("POST", "/api/me/devices/sign-out-others", others[0])
    assert r.json() == {"signed_out": 0}
    assert (await api.call("POST", "/api/me/devices/sign-out-others")).status_code == 401
