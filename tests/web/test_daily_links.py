"""Device ids over real HTTP and sockets: players made or claimed on one device are linked
(kept as HMACs only), one ranked daily a day counts per linked group and the others are
told before they start; an old client without a device id plays ranked, unlinked; a bad
device id is refused and changes nothing. On SQLite and on PostgreSQL."""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any

import pytest

from scorpion.web.devices import device_hash
from scorpion_dev.server import Api, Client, ServerProcess
from support.sql import query

pytestmark = pytest.mark.backends  # the store under the server: SQLite and PostgreSQL


def today() -> str:
    return dt.datetime.now(dt.UTC).date().isoformat()


def new_device() -> str:
    return secrets.token_hex(16)  # as the browser makes it: 128 bits, hex


async def new_player(api: Api, name: str, device: str | None) -> tuple[str, str]:
    body: dict[str, Any] = {"name": name}
    if device is not None:
        body["device_id"] = device
    r = await api.call("POST", "/api/players", body=body)
    assert r.status_code == 201, r.text
    return r.json()["player"]["id"], r.json()["token"]


async def daily_state(server: ServerProcess, token: str) -> tuple[Client, dict[str, Any]]:
    client = await Client.connect(server.ws_url)
    welcome = await client.hello(token, daily=today())
    assert welcome["type"] == "welcome", welcome
    state: dict[str, Any] = welcome["state"]
    return client, state


async def test_two_players_of_one_device_get_one_ranked_attempt(
    server: ServerProcess, api: Api
) -> None:
    device = new_device()
    ada_id, ada = await new_player(api, "Ada", device)
    bo_id, bo = await new_player(api, "Bo", device)
    old_id, old = await new_player(api, "Old", None)  # an old client: no device id
    ada_client, state = await daily_state(server, ada)
    assert (state["ranked"], state["unranked_reason"]) == (True, None)
    started = await ada_client.call("start")
    assert started["ranked"] is True
    # Bo is told before he starts, and his attempt is unranked.
    bo_client, state = await daily_state(server, bo)
    assert (state["ranked"], state["unranked_reason"]) == (False, "linked")
    assert state["attempt"] is None
    assert (await bo_client.call("start"))["ranked"] is False
    old_client, state = await daily_state(server, old)
    assert (state["ranked"], state["unranked_reason"]) == (True, None)
    assert (await old_client.call("start"))["ranked"] is True
    for client in (ada_client, bo_client, old_client):
        assert (await client.call("give-up"))["status"] == "gave-up"
    # The leaderboard counts Ada's and Old's; new players (made just now) are marked.
    daily = (await api.call("GET", f"/api/daily/{today()}")).json()
    top = daily["leaderboard"]["top"]
    assert sorted(e["player"] for e in top) == sorted([ada_id, old_id])
    assert all(e["new_player"] is True for e in top)
    games = (await api.call("GET", "/api/me/games", bo)).json()["games"]
    assert [g["ranked"] for g in games] == [False]
    # Kept: the HMACs of the device id, per player; never the id itself, never shown.
    rows = await query(server.db, "SELECT player_id, device_hash FROM player_devices")
    hashed = device_hash(b"test-secret", device)
    assert sorted((p, bytes(h)) for p, h in rows) == sorted([(ada_id, hashed), (bo_id, hashed)])
    for path in ("/api/me", "/api/me/games"):
        text = (await api.call("GET", path, bo)).text
        assert device not in text and "device" not in text
    for client in (ada_client, bo_client, old_client):
        await client.close()


async def test_a_claimed_device_links_and_a_bad_device_id_changes_nothing(
    server: ServerProcess, api: Api
) -> None:
    phone, laptop = new_device(), new_device()
    ada_id, ada = await new_player(api, "Ada", phone)
    cy_id, cy = await new_player(api, "Cy", laptop)
    # A bad device id: refused, no player made.
    before = await query(server.db, "SELECT count(*) FROM players")
    for bad in ("my laptop", phone.upper(), phone + "0", 12345, ["x"]):
        r = await api.call("POST", "/api/players", body={"name": "Eve", "device_id": bad})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad-device-id", r.text
        assert "device_id" in r.json()["error"]["message"]
    assert await query(server.db, "SELECT count(*) FROM players") == before
    # Ada moves to the laptop with a one-time code: a bad device id keeps the code unused.
    code = (await api.call("POST", "/api/me/device-code", ada)).json()["code"]
    r = await api.call("POST", "/api/devices/claim", body={"code": code, "device_id": "x"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad-device-id"
    r = await api.call("POST", "/api/devices/claim", body={"code": code, "device_id": laptop})
    assert r.status_code == 200 and r.json()["player"]["id"] == ada_id, r.text
    # Cy, made on the laptop, is now linked to Ada: Cy plays first, Ada's is unranked.
    cy_client, state = await daily_state(server, cy)
    assert state["ranked"] is True
    assert (await cy_client.call("start"))["ranked"] is True
    ada_client, state = await daily_state(server, ada)
    assert (state["ranked"], state["unranked_reason"]) == (False, "linked")
    # A recovery code used on a device links it as well (a bad id is refused first).
    recovery = (await api.call("POST", "/api/me/recovery-code", cy)).json()["recovery_code"]
    r = await api.call("POST", "/api/recover", body={"code": recovery, "device_id": "??"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad-device-id"
    tablet = new_device()
    r = await api.call("POST", "/api/recover", body={"code": recovery, "device_id": tablet})
    assert r.status_code == 200 and r.json()["player"]["id"] == cy_id
    rows = await query(
        server.db, f"SELECT count(*) FROM player_devices WHERE player_id = '{cy_id}'"
    )
    assert rows[0][0] == 2  # the laptop and the tablet
    await cy_client.close()
    await ada_client.close()
