"""Your player on another device (one-time code, recovery code) and name reports, against a
real server: each device gets its own token of the same player; codes work once, expire, are
rate-limited and never travel in a URL. On SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest

from scorpion.web.devices import code_hash
from support.server import Api, Client, ServerProcess, scorpion_reports
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
