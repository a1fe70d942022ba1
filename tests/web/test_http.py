"""The HTTP API against a real server process, and what a game record shows."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import httpx
import pytest

from scorpion.engine import PRESETS
from scorpion.store import SavedGame
from scorpion.web.http_players import game_json
from scorpion_dev.server import Api, ServerProcess


@pytest.mark.backends
async def test_health_ready_and_metrics(server: ServerProcess, api: Api) -> None:
    assert (await api.call("GET", "/healthz")).json() == {"ok": True}
    assert (await api.call("GET", "/readyz")).json() == {"ready": True}
    text = (await api.call("GET", "/metrics")).text
    for name in (
        "scorpion_connections",
        "scorpion_rooms",
        "scorpion_moves_total",
        "scorpion_refused_commands_total",
        "scorpion_send_queue_drops_total",
    ):
        assert name in text


@pytest.mark.backends
async def test_player_lifecycle(api: Api) -> None:
    r = await api.call("POST", "/api/players", body={"name": "  Ada  "})
    assert r.status_code == 201
    data = r.json()
    token, pid = data["token"], data["player"]["id"]
    assert data["player"]["name"] == "Ada" and len(token) >= 40
    me = (await api.call("GET", "/api/me", token)).json()["player"]
    assert me["id"] == pid
    r = await api.call("PATCH", "/api/me", token, {"name": "<img src=x onerror=f()>"})
    assert r.status_code == 200
    # Markup is kept as text (the client renders names with textContent) and sent as JSON.
    assert r.json()["player"]["name"] == "<img src=x onerror=f()>"
    assert r.headers["content-type"].startswith("application/json")
    assert (await api.call("GET", "/api/me", token)).json()["player"]["name"].startswith("<img")
    r = await api.call("DELETE", "/api/me", token)
    assert r.json()["deleted"] is True
    r = await api.call("GET", "/api/me", token)
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad-token"


async def test_default_name_and_bad_names(api: Api) -> None:
    r = await api.call("POST", "/api/players", body={})
    assert r.status_code == 201 and r.json()["player"]["name"].startswith("Player ")
    for bad in ["", "   ", "x" * 25, "a\x00b", "bell\x07", "rtl\u202eevil", 42, None]:
        r = await api.call("POST", "/api/players", body={"name": bad})
        assert r.status_code == 400, bad
        assert r.json()["error"]["code"] == "bad-name"


# One new player per address, then none for a long while (codes: 10 tries per address).
ONE_EACH = '{"new_players_burst": 1, "new_players_per_minute": 0.001}'


async def test_posts_without_json_content_type_are_refused_and_spend_nothing(
    tmp_path: Path,
) -> None:
    """A page on another site can make a visitor's browser POST a form or text/plain
    without asking first: such a POST is refused (415) before any budget is counted."""
    server = ServerProcess(tmp_path / "j.db", args=("--limits", ONE_EACH))
    server.start()
    try:
        async with Api(server.url) as api:
            body = '{"name": "Eve", "code": "ABCD-EFGH"}'
            for path in ("/api/players", "/api/recover", "/api/devices/claim"):
                for headers in (
                    {"Content-Type": "text/plain"},
                    {"Content-Type": "application/x-www-form-urlencoded"},
                    {"Content-Type": "multipart/form-data; boundary=x"},
                    {},
                ):
                    for _ in range(3):
                        r = await api.http.post(path, content=body, headers=headers)
                        assert r.status_code == 415, (path, headers, r.text)
                        assert r.json()["error"]["code"] == "not-json"
                        assert "application/json" in r.json()["error"]["message"]
            # Nothing was spent: the one new player and the ten code tries are all there.
            json_headers = {"Content-Type": "application/json; charset=utf-8"}
            r = await api.http.post("/api/players", content=body, headers=json_headers)
            assert r.status_code == 201 and r.json()["player"]["name"] == "Eve"
            token = r.json()["token"]
            assert (await api.call("POST", "/api/players", body={})).status_code == 429
            tries = [
                (await api.call("POST", "/api/recover", body={"code": "ABCD-EFGH"})).status_code
                for _ in range(11)
            ]
            assert tries == [400] * 10 + [429]  # unknown code ten times, then the budget
            # The routes of a player (with a token) that take JSON say the same.
            auth = {"Authorization": f"Bearer {token}", "Content-Type": "text/plain"}
            r = await api.http.post("/api/rooms", content="{}", headers=auth)
            assert r.status_code == 415 and r.json()["error"]["code"] == "not-json"
            r = await api.http.patch("/api/me", content='{"name": "X"}', headers=auth)
            assert r.status_code == 415 and r.json()["error"]["code"] == "not-json"
            assert (await api.call("POST", "/api/rooms", token, {})).status_code == 201
    finally:
        server.stop()


async def test_auth_errors(api: Api) -> None:
    r = await api.call("GET", "/api/me")
    assert r.status_code == 401 and r.json()["error"]["code"] == "not-authenticated"
    r = await api.call("GET", "/api/me", "not-a-real-token")
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad-token"
    r = await api.http.get("/api/me", headers={"Authorization": "Basic abc"})
    assert r.status_code == 401


async def test_bad_bodies(api: Api) -> None:
    _, token = await api.new_player("Bo")
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    r = await api.http.patch("/api/me", content=b"{not json", headers=headers)
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad-json"
    r = await api.http.patch("/api/me", content=b"[1, 2]", headers=headers)
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad-json"
    r = await api.http.patch("/api/me", content=b"{}", headers=headers)
    assert r.status_code == 400 and r.json()["error"]["code"] == "missing-field"
    big = b'{"name": "' + b"x" * 20_000 + b'"}'
    r = await api.http.patch("/api/me", content=big, headers=headers)
    assert r.status_code == 413 and r.json()["error"]["code"] == "too-large"
    r = await api.call("GET", "/api/nothing-here")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not-found"


async def test_rooms(api: Api) -> None:
    _, token = await api.new_player("Cy")
    r = await api.call("POST", "/api/rooms", token, {"preset": "classic", "deal": 12345,
                                                       "max_players": 3, "time_limit": 300,
                                                       "undo": "full", "hints": True})  # fmt: skip
    assert r.status_code == 201, r.text
    room = r.json()["room"]
    summary = (await api.call("GET", f"/api/rooms/{room}")).json()
    assert summary["room"] == room
    assert summary["settings"]["max_players"] == 3
    settings = summary["settings"]
    assert (settings["undo"], settings["hints"], settings["auto"]) == ("full", True, False)
    assert summary["settings"]["deal"] == "number"  # the number itself stays secret
    assert "12345" not in (await api.call("GET", f"/api/rooms/{room}")).text
    r = await api.call("GET", "/api/rooms/nope")
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown-room"
    for bad in [{"preset": "nope"}, {"max_players": 0}, {"deal": "x"}, {"colour": "red"},
                {"time_limit": -1}, {"undo": "yes"}, {"auto": "yes"}]:  # fmt: skip
        r = await api.call("POST", "/api/rooms", token, bad)
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad-settings", bad
    r = await api.call("POST", "/api/rooms", token, {"undo": "peek"})
    assert r.json()["error"]["message"] == "undo must be 'fair', 'full' or 'off', not 'peek'"
    r = await api.call("POST", "/api/rooms", token, {})  # the defaults: fair undo, no help
    summary = (await api.call("GET", f"/api/rooms/{r.json()['room']}")).json()
    assert (summary["settings"]["undo"], summary["settings"]["auto"]) == ("fair", False)
    r = await api.call("POST", "/api/rooms", None, {})
    assert r.status_code == 401


@pytest.mark.backends
async def test_stats_games_and_daily_of_a_new_player(api: Api) -> None:
    pid, token = await api.new_player("Di")
    r = await api.call("GET", f"/api/players/{pid}/stats")
    assert r.json() == {"player": {"id": pid, "name": "Di"}, "stats": []}
    assert (await api.call("GET", "/api/players/nobody/stats")).status_code == 404
    r = await api.call("GET", "/api/me/games", token)
    assert r.json() == {"games": [], "next": None}
    daily = (await api.call("GET", "/api/daily")).json()
    assert daily["today"] is True and daily["leaderboard"] == {"size": 0, "top": []}
    assert "deal" not in daily  # today's deal is a secret
    for bad in ["2999-01-01", "yesterday", "2026-1-1"]:
        r = await api.call("GET", f"/api/daily/{bad}")
        assert r.status_code == 404, bad


async def test_static_client_and_security_headers(server: ServerProcess) -> None:
    r = httpx.get(server.url + "/")
    assert r.status_code in (200, 404)  # 404 until client/index.html exists
    assert r.headers["x-content-type-options"] == "nosniff"
    policy = r.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "script-src 'self';" in policy
    assert f"connect-src 'self' ws://127.0.0.1:{server.port}" in policy
    r = httpx.get(server.url + "/r/someroom")
    assert r.status_code in (200, 404)


async def test_presets_as_data(api: Api) -> None:
    r = await api.call("GET", "/api/presets")
    assert r.status_code == 200
    presets = {p["name"]: p for p in r.json()["presets"]}
    assert list(presets) == list(PRESETS)
    assert presets["relaxed"]["options"]["build"] == "any-suit"
    assert presets["strict"]["options"]["loss"] == "detect"
    assert presets["hard"]["options"]["undo"] == "unlimited"
    assert presets["wasp"]["rules"]["empty"].startswith("Any face-up card")
    assert presets["three-blind-mice"]["options"]["layout"] == "three-blind-mice"


async def test_presets_are_sent_compressed_when_the_client_accepts_it(api: Api) -> None:
    plain = await api.http.get("/api/presets", headers={"Accept-Encoding": "identity"})
    packed = await api.http.get("/api/presets", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in plain.headers
    assert packed.headers["content-encoding"] == "gzip"
    assert int(packed.headers["content-length"]) < len(plain.content) / 2
    assert packed.json() == plain.json()  # httpx decodes it: the same presets


def test_a_daily_game_record_shows_its_deal_only_once_the_day_closes() -> None:
    # The midnight window: a ranked attempt of 30 November started at 23:59:10 UTC is still
    # being played at 00:00:01; its record must not give the deal away until the day closes.
    midnight = 1_796_083_200.0  # 2026-12-01 00:00 UTC
    game = SavedGame("daily:2026-11-30:1:p", "p", "classic", 42, midnight - 50,
                     daily="2026-11-30", ranked=True)  # fmt: skip
    assert game_json(game, midnight + 1)["deal"] is None
    assert game_json(game, midnight + 3599)["deal"] is None
    assert game_json(game, midnight + 3600)["deal"] == "42"
    race = SavedGame("room1:1:p", "p", "classic", 42, midnight, room_id="room1")
    assert game_json(race, midnight + 9e9)["deal"] is None  # a race's: only with its results
    assert game_json(replace(race, revealed=True), midnight)["deal"] == "42"
