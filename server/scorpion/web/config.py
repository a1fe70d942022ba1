"""The server's settings, validated in one place: ``scorpion serve`` flags, SCORPION_*
environment variables and defaults (a flag wins over its variable).

Every value goes through :class:`Settings` (pydantic-settings), whichever way it came,
and a bad one is reported on one line naming the flag or variable:

>>> settings_from({"port": "80", "limits": '{"rate": 5}'}).limits.rate
5.0
>>> settings_from({"limits": '{"send_queue": 2.5}'})
Traceback (most recent call last):
...
scorpion.web.config.BadSettings: --limits send_queue: must be a whole number, not 2.5
>>> settings_from({"log_level": "bogus"})
Traceback (most recent call last):
...
scorpion.web.config.BadSettings: --log-level: must be one of critical, error, warning, info, \
debug, not 'bogus'
"""

from __future__ import annotations

import difflib
import importlib.util
import ipaddress
import json
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict, SettingsError

from scorpion.store.lock import write_private

DEFAULT_DATA = Path("data")
SECRET_FILE = "secret"
ENV_PREFIX = "SCORPION_"

Positive = Annotated[float, Field(gt=0, allow_inf_nan=False)]
Count = Annotated[int, Field(gt=0, strict=True)]  # strict: 2.5 (or 2.0, or "2") is refused


class BadSettings(ValueError):
    """A setting that cannot be used, with a one-line message naming where it came from."""


@dataclass(frozen=True, slots=True)
class Database:
    """Where the data lives: a SQLite file (``path``) or a server database (``url``).

    >>> Database.parse("data/race.db")
    Database(kind='sqlite', path=PosixPath('data/race.db'), url='')
    >>> Database.parse("sqlite:////var/lib/scorpion/race.db").path
    PosixPath('/var/lib/scorpion/race.db')
    >>> Database.parse("postgresql://race@localhost/race").kind
    'postgresql'
    >>> Database.parse("mysql://x")
    Traceback (most recent call last):
    ...
    ValueError: unsupported database URL scheme 'mysql': use a file path, sqlite:///PATH \
or postgresql://...
    """

    kind: Literal["sqlite", "postgresql"]
    path: Path | None = None  # sqlite: the file (Path(":memory:") for a memory database)
    url: str = ""  # postgresql: the connection URL as given

    @classmethod
    def parse(cls, text: str | Path) -> Database:
        text = str(text).strip()
        if not text:
            raise ValueError("the database is empty: give a file path or a URL")
        scheme, sep, rest = text.partition("://")
        if not sep:
            return cls("sqlite", Path(text))
        scheme = scheme.lower()
        if scheme == "sqlite":  # sqlite:///relative.db, sqlite:////absolute.db
            path = rest.removeprefix("/")
            if not path:
                raise ValueError(f"no file in {text!r}: write sqlite:///PATH")
            return cls("sqlite", Path(path))
        if scheme in ("postgresql", "postgres"):
            return cls("postgresql", url=text)
        raise ValueError(
            f"unsupported database URL scheme {scheme!r}: use a file path, sqlite:///PATH "
            "or postgresql://..."
        )

    @property
    def data_dir(self) -> Path | None:
        """The folder of a SQLite file (the secret is kept there by default)."""
        if self.path is None or str(self.path) == ":memory:":
            return None
        return self.path.parent

    def __str__(self) -> str:
        return str(self.path) if self.kind == "sqlite" else _hide_password(self.url)


def _hide_password(url: str) -> str:
    scheme, sep, rest = url.partition("://")
    userinfo, at, host = rest.rpartition("@")
    if not at or ":" not in userinfo:
        return url
    return f"{scheme}{sep}{userinfo.split(':', 1)[0]}:***@{host}"


class Limits(BaseModel):
    """Per-connection and per-player limits (see docs/http-api.md and docs/protocol.md)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    max_frame: Count = 16 * 1024  # bytes of one text frame; bigger ones are refused
    hard_frame: Count = 64 * 1024  # uvicorn closes the socket (1009) beyond this
    send_queue: Count = 256  # frames waiting for a slow reader before it is dropped
    rate: Positive = 20.0  # commands per second, sustained
    burst: Positive = 40.0  # commands allowed at once
    # Rate-limited commands at more than flood_refusals per flood_window seconds close the
    # socket (a leaky count: pacing frames does not reset it); only the first
    # refusals_answered of them are answered, the rest are only counted.
    flood_refusals: Count = 200
    flood_window: Positive = 10.0
    refusals_answered: Count = 50
    auth_timeout: Positive = 10.0  # seconds to send the first (hello) message
    idle_timeout: Positive = 60.0  # seconds without any message before the socket is closed
    max_connections: Count = 20_000
    max_connections_per_address: Count = 500  # one address (a NAT may hide many players)
    max_body: Count = 16 * 1024  # bytes of an HTTP request body
    # HTTP without nginx in front (scorpion.web.http_protocol): the request line and headers
    # (431 beyond), the seconds for them to arrive (from the connection's opening or the
    # previous answer: an idle connection is closed then), the seconds for the rest of a body.
    max_head: Count = 16 * 1024
    head_timeout: Positive = 10.0
    body_timeout: Positive = 10.0
    new_players_per_minute: Positive = 10.0  # per client address
    new_players_burst: Positive = 30.0
    rooms_per_hour: Positive = 60.0  # per player
    rooms_burst: Positive = 20.0
    # The search pool's fair share (hints, Auto, winnable deals): running and waiting.
    searches_per_player: Count = 2
    searches_per_address: Count = 8
    search_queue: Count = 256  # searches waiting for a worker, in all
    search_wait: Positive = 30.0  # seconds a search may wait for a worker (then: busy)
    deal_wait: Positive = 20.0  # seconds a winnable-only room waits for its deal search
    # Past days whose deal is not saved yet cost a search each: per player and per address.
    past_dailies_per_hour: Positive = 10.0
    past_dailies_burst: Positive = 10.0
    daily_searches_queued: Count = 16  # days waiting for their deal search (then: busy)


# With --redis: 60 shards split evenly over 2 to 6 processes (and 10, 12, 15, 20, 30: the
# proxy sends shard i to process i mod N, race/protocol.py), on 7 to 9 at most one shard
# apart; "playing now" merges one part per process, not one per shard.
DAILY_SHARDS = 60

LogLevel = Literal["critical", "error", "warning", "info", "debug"]


class Settings(BaseSettings):
    """Everything ``scorpion serve`` can be told; each field is also SCORPION_<NAME>."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, frozen=True, extra="forbid", validate_default=True
    )

    host: str = "127.0.0.1"
    port: int = Field(8000, ge=1, le=65535)
    # A file path or a URL (sqlite:///PATH, postgresql://...).
    db: Annotated[Database, NoDecode] = Database("sqlite", DEFAULT_DATA / "scorpion.db")
    secret: str = Field("", repr=False)  # empty: kept in the secret file beside a SQLite db
    client: Path | None = None  # the browser client; default: the one installed with us
    limits: Annotated[Limits, NoDecode] = Limits()
    grace: Positive = 60.0  # seconds a disconnected player keeps their seat
    room_idle_close: Positive = 3600.0  # seconds an empty room in its lobby or results lives
    daily_search: Literal["solver", "none"] = "solver"  # "none": unverified deals (tests)
    # "off": none of the speed shortcuts that lean on uvicorn's, Starlette's or CPython's
    # internals (docs/architecture.md, "Shortcuts"): the plain path, should an upgrade break one.
    shortcuts: Literal["on", "off"] = "on"
    shutdown_timeout: Positive = 5.0
    log_level: LogLevel = "info"
    log_format: Literal["text", "json"] = "text"
    # Days game records and closed rooms are kept; None: for ever.
    retention_days: Count | None = None
    # Addresses (or networks) of reverse proxies whose X-Forwarded-For is believed.
    trusted_proxies: Annotated[tuple[str, ...], NoDecode] = ()
    # A redis:// URL: one of several processes on one PostgreSQL database (docs/scaling.md).
    redis: str | None = Field(None, repr=False)  # its URL may hold a password
    lease_ttl: Positive = 2.0  # seconds a place's owner may go silent before others take it
    # Places a day's daily is split in by a hash of the player (docs/scaling.md); None: 1
    # for one process (nothing to spread), DAILY_SHARDS with --redis. Keep it for a whole day.
    daily_shards: Count | None = None

    @property
    def shards(self) -> int:
        """The daily's shards this process uses (``daily_shards`` or its default)."""
        if self.daily_shards is not None:
            return self.daily_shards
        return DAILY_SHARDS if self.redis else 1

    @field_validator("db", mode="before")
    @classmethod
    def _database(cls, value: object) -> object:
        return value if isinstance(value, Database) else Database.parse(str(value))

    @field_validator("limits", mode="before")
    @classmethod
    def _limits_json(cls, value: object) -> object:
        if isinstance(value, str):
            if not value.strip():
                return {}
            try:
                return json.loads(value)
            except ValueError:
                raise ValueError('expected JSON such as {"rate": 50}') from None
        return value

    @field_validator("log_level", "log_format", "shortcuts", mode="before")
    @classmethod
    def _lower(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("retention_days", mode="before")
    @classmethod
    def _forever(cls, value: object) -> object:
        if isinstance(value, str):
            value = value.strip()
            if value in ("", "forever", "none"):
                return None
            return int(value) if value.lstrip("-").isdigit() else value
        return value

    @field_validator("daily_shards", mode="before")
    @classmethod
    def _shards(cls, value: object) -> object:
        if isinstance(value, str):  # from a flag or the environment: digits only
            value = value.strip()
            if not value:
                return None
            return int(value) if value.isdigit() else value
        return value

    @field_validator("trusted_proxies", mode="before")
    @classmethod
    def _proxies(cls, value: object) -> object:
        items = value.split(",") if isinstance(value, str) else value
        if not isinstance(items, list | tuple):
            return value
        out = []
        for item in (str(i).strip() for i in items):
            if not item:
                continue
            try:
                ipaddress.ip_network(item, strict=False)
            except ValueError:
                raise ValueError(f"{item!r} is not an IP address or network") from None
            out.append(item)
        return tuple(out)

    @field_validator("redis", mode="before")
    @classmethod
    def _redis_url(cls, value: object) -> object:
        if isinstance(value, str):
            value = value.strip()
            if not value:
                return None
            if not value.lower().startswith(("redis://", "rediss://", "unix://")):
                raise ValueError(f"expected redis://host:port, not {value!r}")
        return value

    @model_validator(mode="after")
    def _redis_needs_postgresql(self) -> Settings:
        if self.redis and self.db.kind != "postgresql":
            raise ValueError("--redis needs --db postgresql://... (one database shared by all)")
        return self


def settings_from(given: Mapping[str, Any]) -> Settings:
    """Settings from flags ``given`` (None: not given) over SCORPION_* variables over
    defaults. Raises :class:`BadSettings` with one line naming each bad value's source."""
    unknown = unknown_variables(os.environ)
    if unknown:
        raise BadSettings(unknown)
    flags = {k: v for k, v in given.items() if v is not None}
    try:
        return Settings(**flags)
    except ValidationError as exc:
        raise BadSettings(_one_line(exc, flags)) from None
    except SettingsError as exc:  # a variable pydantic-settings could not even read
        raise BadSettings(str(exc)) from None


# Names other programs use for what is one of ours (difflib would not find these).
_ALIASES = {"DATABASE_URL": "DB", "DATABASE": "DB", "REDIS_URL": "REDIS"}


def unknown_variables(environ: Mapping[str, str]) -> str:
    """What is wrong with the SCORPION_* variables that name no setting ("" when none):
    pydantic-settings reads only the variables it knows, so a misspelled one would be
    ignored silently (a misspelled SCORPION_DB falling back to SQLite in ./data).

    >>> unknown_variables({"SCORPION_LOGLEVEL": "debug", "SCORPION_PORT": "80", "HOME": "/"})
    'SCORPION_LOGLEVEL is not a setting (did you mean SCORPION_LOG_LEVEL?)'
    >>> unknown_variables({"SCORPION_DATABASE_URL": "postgresql://h/race"})
    'SCORPION_DATABASE_URL is not a setting (did you mean SCORPION_DB?)'
    >>> unknown_variables({"SCORPION_XYZZY": "1"})
    'SCORPION_XYZZY is not a setting (see scorpion serve --help)'
    """
    known = sorted(name.upper() for name in Settings.model_fields)
    parts = []
    for variable in sorted(k for k in environ if k.upper().startswith(ENV_PREFIX)):
        name = variable.upper().removeprefix(ENV_PREFIX)
        if name in known:
            continue
        close = _ALIASES.get(name) or next(
            iter(difflib.get_close_matches(name, known, n=1, cutoff=0.6)), None
        )
        hint = f"did you mean {ENV_PREFIX}{close}?" if close else "see scorpion serve --help"
        parts.append(f"{variable} is not a setting ({hint})")
    return "; ".join(parts)


def _one_line(exc: ValidationError, flags: Mapping[str, Any]) -> str:
    parts = []
    for error in exc.errors():
        if not error["loc"]:  # a rule across settings: the message names them
            parts.append(_message(error))
            continue
        field = str(error["loc"][0])
        source = "--" + field.replace("_", "-") if field in flags else ENV_PREFIX + field.upper()
        rest = " ".join(str(p) for p in error["loc"][1:])
        parts.append(f"{source}{' ' + rest if rest else ''}: {_message(error)}")
    return "; ".join(parts)


def _message(error: Any) -> str:
    kind, value, ctx = error["type"], error.get("input"), error.get("ctx") or {}
    if kind == "literal_error":
        choices = ctx.get("expected", "").replace("'", "").replace(" or ", ", ")
        return f"must be one of {choices}, not {value!r}"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return f"must be a whole number, not {value!r}"
    if kind in ("float_type", "float_parsing"):
        return f"must be a number, not {value!r}"
    if kind in ("greater_than", "greater_than_equal", "less_than_equal"):
        return f"must be {error['msg'].removeprefix('Input should be ')}, not {value!r}"
    if kind == "extra_forbidden":
        return "is not a known setting"
    if kind == "value_error":
        return str(ctx.get("error", error["msg"]))
    return f"{error['msg']} (got {value!r})"


def load_secret(given: str | None, data_dir: Path | None) -> str:
    """The server secret: given, or read from ``data_dir/secret``, or made and kept there."""
    if given:
        return given
    if data_dir is None:
        raise BadSettings("--secret (or SCORPION_SECRET) is needed with this database")
    path = data_dir / SECRET_FILE
    if path.is_file():
        text = path.read_text().strip()
        if text:
            return text
    data_dir.mkdir(parents=True, exist_ok=True)
    text = secrets.token_hex(32)
    write_private(path, text + "\n")
    return text


def shared_secret(url: str) -> str:
    """The secret of every process on the database at ``url``: SCORPION_SECRET is not set,
    so the first process keeps a new one in the database and the others read it."""
    import asyncio

    from scorpion.store.postgres import kept_secret

    return asyncio.run(kept_secret(url, secrets.token_hex(32)))


def installed_client() -> Path | None:
    """The browser client installed as the package ``scorpion.client`` (pyproject.toml maps
    it to client/ of the repository), or client/ of the checkout (editable installs)."""
    try:
        spec = importlib.util.find_spec("scorpion.client")
    except ImportError:
        spec = None
    folders = [Path(f) for f in (spec.submodule_search_locations or [])] if spec else []
    folders.append(Path(__file__).resolve().parents[3] / "client")
    return next((f for f in folders if (f / "index.html").is_file()), None)


def find_client_dir(given: Path | None = None) -> Path | None:
    """The browser client: ``given`` (checked), or the installed one."""
    if given is not None:
        return given if (given / "index.html").is_file() else None
    return installed_client()
