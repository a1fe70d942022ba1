"""X-Forwarded-For is believed only from --trusted-proxies (none by default, not 127.0.0.1);
the address it names is counted by its key (an IPv6 /64) in every per-address limit."""

from __future__ import annotations

from pathlib import Path

import httpx
from websockets.asyncio.client import connect

from scorpion_dev.server import Api, Client, ServerProcess

# One new player per address, then none for a long while (no refill during the test).
ONE_PLAYER = '{"new_players_burst": 1, "new_players_per_minute": 0.001}'


def new_player(server: ServerProcess, forwarded_for: str) -> int:
    headers = {"X-Forwarded-For": forwarded_for}
    return httpx.post(server.url + "/api/players", json={}, headers=headers).status_code


async def connect_from(server: ServerProcess, ip: str) -> Client:
    """A websocket whose address the trusted proxy (this test) names ``ip``."""
    ws = await connect(server.ws_url, additional_headers={"X-Forwarded-For": ip}, open_timeout=10)
    return Client(ws, ip)


def test_forwarded_for_is_ignored_by_default(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "a.db", args=("--limits", ONE_PLAYER))
    server.start()
    try:
        # Both count against 127.0.0.1, whatever the header says.
        assert [new_player(server, "10.0.0.1"), new_player(server, "10.0.0.2")] == [201, 429]
    finally:
        server.stop()


def test_forwarded_for_from_a_trusted_proxy_names_the_client(tmp_path: Path) -> None:
    args = ("--limits", ONE_PLAYER, "--trusted-proxies", "127.0.0.1")
    server = ServerProcess(tmp_path / "b.db", args=args)
    server.start()
    try:
        statuses = [new_player(server, ip) for ip in ("10.0.0.1", "10.0.0.2", "10.0.0.1")]
        assert statuses == [201, 201, 429]
    finally:
        server.stop()


# One /64 and the addresses in it, another /64, an IPv4 address and its mapped form.
ONE_64 = ["2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:ffff:ffff:ffff:fffe"]
OTHER_64 = "2001:db8:1:3::1"


async def test_an_ipv6_64_is_one_address_for_every_per_address_limit(tmp_path: Path) -> None:
    """Players, codes tried and sockets per address count a whole IPv6 /64 as one address
    (real requests, their address named by a trusted proxy's X-Forwarded-For)."""
    limits = '{"new_players_burst": 1, "new_players_per_minute": 0.001, ' + (
        '"max_connections_per_address": 2}'
    )
    args = ("--limits", limits, "--trusted-proxies", "127.0.0.1")
    server = ServerProcess(tmp_path / "c.db", args=args)
    server.start()
    try:
        # New players: one for the whole /64; another /64 and IPv4 have their own.
        statuses = [new_player(server, ip) for ip in [*ONE_64, OTHER_64]]
        assert statuses == [201, 429, 429, 201]
        assert [new_player(server, "10.0.0.9"), new_player(server, "::ffff:10.0.0.9")] == [
            201,
            429,
        ]
        # Codes tried: ten per address, spread over the /64 they are still ten.
        async with httpx.AsyncClient(base_url=server.url) as http:

            async def try_code(ip: str) -> int:
                r = await http.post(
                    "/api/recover", json={"code": "ABCD"}, headers={"X-Forwarded-For": ip}
                )
                return r.status_code

            tries = [await try_code(f"2001:db8:1:2::{i:x}") for i in range(1, 12)]
            assert tries == [400] * 10 + [429]
            assert await try_code(OTHER_64) == 400
        # Sockets: two per address, whichever addresses of the /64 they come from.
        r = httpx.post(
            server.url + "/api/players", json={}, headers={"X-Forwarded-For": "10.1.1.1"}
        )
        token = r.json()["token"]
        async with Api(server.url) as api:
            room = await api.new_room(token)
        sockets = [await connect_from(server, ip) for ip in [*ONE_64, OTHER_64]]
        code, reason = await sockets[2].closed(timeout=5)
        assert code == 1013 and "retry" in reason
        for admitted in (sockets[0], sockets[1], sockets[3]):
            assert (await admitted.hello(token, room=room))["type"] == "welcome"
            await admitted.close()
    finally:
        server.stop()
