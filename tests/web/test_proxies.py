"""X-Forwarded-For is believed only from --trusted-proxies (none by default, not 127.0.0.1)."""

from __future__ import annotations

from pathlib import Path

import httpx

from support.server import ServerProcess

# One new player per address, then none for a long while (no refill during the test).
ONE_PLAYER = '{"new_players_burst": 1, "new_players_per_minute": 0.001}'


def new_player(server: ServerProcess, forwarded_for: str) -> int:
    headers = {"X-Forwarded-For": forwarded_for}
    return httpx.post(server.url + "/api/players", json={}, headers=headers).status_code


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
