"""The server's settings: flags, SCORPION_* environment variables and defaults."""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass, fields, replace
from pathlib import Path

DEFAULT_DATA = Path("data")
SECRET_FILE = "secret"


@dataclass(frozen=True, slots=True)
class Limits:
    """Per-connection and per-player limits (see docs/http-api.md and docs/protocol.md)."""

    max_frame: int = 16 * 1024  # bytes of one text frame; bigger ones are refused
    hard_frame: int = 64 * 1024  # uvicorn closes the socket (1009) beyond this
    send_queue: int = 256  # frames waiting for a slow reader before it is dropped
    rate: float = 20.0  # commands per second, sustained
    burst: float = 40.0  # commands allowed at once
    flood_refusals: int = 200  # rate-limited commands in a row before the socket is closed
    auth_timeout: float = 10.0  # seconds to send the first (hello) message
    idle_timeout: float = 60.0  # seconds without any message before the socket is closed
    max_connections: int = 20_000
    max_connections_per_address: int = 500  # one client address (a NAT may hide many players)
    max_body: int = 16 * 1024  # bytes of an HTTP request body
    new_players_per_minute: float = 10.0  # per client address
    new_players_burst: float = 30.0
    rooms_per_hour: float = 60.0  # per player
    rooms_burst: float = 20.0


@dataclass(frozen=True, slots=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 8000
    db: Path | str = DEFAULT_DATA / "scorpion.db"  # a SQLite file or a postgresql:// URL
    secret: str = ""
    client_dir: Path | None = None
    limits: Limits = Limits()
    grace: float = 60.0  # seconds a disconnected player keeps their seat
    daily_search: str = "solver"  # "solver": winnable daily deals; "none": unverified (tests)
    shutdown_timeout: float = 5.0
    redis: str | None = None  # a redis:// URL: one of several processes (docs/scaling.md)
    lease_ttl: float = 2.0  # seconds a place's owner may go silent before others take it


def env(name: str, default: str | None = None) -> str | None:
    return os.environ.get(f"SCORPION_{name}", default)


def limits_from_json(text: str | None) -> Limits:
    """Limits with overrides from JSON such as ``{"send_queue": 64, "rate": 50}``.

    >>> limits_from_json('{"rate": 5}').rate, limits_from_json(None).send_queue
    (5, 256)
    """
    if not text:
        return Limits()
    data = json.loads(text)
    known = {f.name for f in fields(Limits)}
    if not isinstance(data, dict) or not set(data) <= known:
        raise ValueError(f"limits must be a JSON object with keys among {sorted(known)}")
    for key, value in data.items():
        if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
            raise ValueError(f"limit {key} must be a positive number, not {value!r}")
    return replace(Limits(), **data)


def load_secret(given: str | None, data_dir: Path) -> str:
    """The server secret: given, or read from ``data_dir/secret``, or made and kept there."""
    if given:
        return given
    path = data_dir / SECRET_FILE
    if path.is_file():
        text = path.read_text().strip()
        if text:
            return text
    data_dir.mkdir(parents=True, exist_ok=True)
    text = secrets.token_hex(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text + "\n")
    return text


def shared_secret(url: str) -> str:
    """The secret of every process on the database at ``url``: SCORPION_SECRET is not set,
    so the first process keeps a new one in the database and the others read it."""
    import asyncio

    from scorpion.store.postgres import kept_secret

    return asyncio.run(kept_secret(url, secrets.token_hex(32)))


def find_client_dir(given: Path | None = None) -> Path | None:
    """The browser client: given, or client/ at the repository root next to server/."""
    if given is not None:
        return given
    here = Path(__file__).resolve()
    for parent in here.parents:
        candidate = parent / "client"
        if (candidate / "index.html").is_file():
            return candidate
    return None
