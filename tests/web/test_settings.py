"""scorpion.web.config: one validated path for flags and SCORPION_* variables."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from scorpion.web.config import BadSettings, Database, settings_from


@pytest.fixture(autouse=True)
def only(monkeypatch: pytest.MonkeyPatch) -> Callable[[dict[str, str]], None]:
    """No SCORPION_* variable but the ones a test sets with ``only({...})``."""
    for key in [k for k in os.environ if k.startswith("SCORPION_")]:
        monkeypatch.delenv(key)

    def set_variables(variables: dict[str, str]) -> None:
        for key, value in variables.items():
            monkeypatch.setenv(key, value)

    return set_variables


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({"SCORPION_DAILY_SEARCH": "bogus"}, "SCORPION_DAILY_SEARCH: must be one of solver, none"),
        ({"SCORPION_LOG_LEVEL": "bogus"}, "SCORPION_LOG_LEVEL: must be one of critical"),
        ({"SCORPION_LOG_FORMAT": "xml"}, "SCORPION_LOG_FORMAT: must be one of text, json"),
        ({"SCORPION_LIMITS": '{"send_queue": 2.5}'}, "send_queue: must be a whole number"),
        ({"SCORPION_LIMITS": '{"rate": -1}'}, "rate: must be greater than 0"),
        ({"SCORPION_LIMITS": '{"nope": 1}'}, "nope: is not a known setting"),
        ({"SCORPION_LIMITS": "{rate"}, "SCORPION_LIMITS: expected JSON"),
        ({"SCORPION_PORT": "http"}, "SCORPION_PORT: must be a whole number"),
        ({"SCORPION_PORT": "70000"}, "SCORPION_PORT: must be less than or equal to 65535"),
        ({"SCORPION_GRACE": "-1"}, "SCORPION_GRACE: must be greater than 0"),
        ({"SCORPION_DB": "mysql://x/y"}, "SCORPION_DB: unsupported database URL scheme"),
        ({"SCORPION_RETENTION_DAYS": "1.5"}, "SCORPION_RETENTION_DAYS: must be a whole number"),
        ({"SCORPION_TRUSTED_PROXIES": "10.0.0.1,proxy"}, "'proxy' is not an IP address"),
        ({"SCORPION_REDIS": "localhost:6379"}, "SCORPION_REDIS: expected redis://host:port"),
        ({"SCORPION_LEASE_TTL": "0"}, "SCORPION_LEASE_TTL: must be greater than 0"),
        ({"SCORPION_REDIS": "redis://localhost"}, "--redis needs --db postgresql://"),
    ],
)
def test_bad_variables_are_one_clear_line(
    only: Callable[[dict[str, str]], None], environ: dict[str, str], message: str
) -> None:
    only(environ)
    with pytest.raises(BadSettings) as caught:
        settings_from({})
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({"SCORPION_REDDIS": "redis://h:6379"}, "SCORPION_REDDIS is not a setting (did you mean "
         "SCORPION_REDIS?)"),
        ({"SCORPION_LOGLEVEL": "debug"}, "SCORPION_LOGLEVEL is not a setting (did you mean "
         "SCORPION_LOG_LEVEL?)"),
        ({"SCORPION_REDIS_URL": "redis://h:6379"}, "(did you mean SCORPION_REDIS?)"),
        ({"SCORPION_XYZZY": "1"}, "SCORPION_XYZZY is not a setting (see scorpion serve --help)"),
    ],
)  # fmt: skip
def test_unknown_variables_are_refused_naming_the_closest_setting(
    only: Callable[[dict[str, str]], None], environ: dict[str, str], message: str
) -> None:
    only({**environ, "SCORPION_PORT": "8001"})  # a known one beside it is fine
    with pytest.raises(BadSettings) as caught:
        settings_from({})
    assert str(caught.value) == message or message in str(caught.value)
    assert "\n" not in str(caught.value)
    only({"SCORPION_PORT": "8001"})
    for key in environ:
        os.environ.pop(key)
    assert settings_from({}).port == 8001


def test_a_bad_flag_is_named_as_the_flag() -> None:
    with pytest.raises(BadSettings, match=r"^--daily-search: must be one of solver, none"):
        settings_from({"daily_search": "bogus"})


def test_flags_win_over_variables_and_variables_over_defaults(
    only: Callable[[dict[str, str]], None],
) -> None:
    only({"SCORPION_PORT": "9001", "SCORPION_GRACE": "5", "SCORPION_LOG_LEVEL": "DEBUG"})
    chosen = settings_from({"port": "9002", "log_format": "json"})
    assert (chosen.port, chosen.grace, chosen.log_level, chosen.log_format) == (
        9002,
        5.0,
        "debug",
        "json",
    )
    assert chosen.host == "127.0.0.1" and chosen.daily_search == "solver"
    assert chosen.room_idle_close == 3600.0
    assert settings_from({"room_idle_close": "60"}).room_idle_close == 60.0
    with pytest.raises(BadSettings, match=r"^--room-idle-close: "):
        settings_from({"room_idle_close": "0"})


def test_limits_json_accepts_whole_numbers_and_numbers() -> None:
    limits = settings_from({"limits": '{"send_queue": 64, "rate": 50}'}).limits
    assert (limits.send_queue, limits.rate, limits.burst) == (64, 50.0, 40.0)


def test_database_takes_a_path_or_a_url() -> None:
    assert Database.parse("race.db") == Database("sqlite", Path("race.db"))
    assert Database.parse("sqlite:///data/race.db").path == Path("data/race.db")
    assert Database.parse("sqlite:////srv/race.db").path == Path("/srv/race.db")
    pg = settings_from({"db": "postgresql://race:pw@localhost/race"}).db
    assert pg.kind == "postgresql" and pg.url.endswith("/race")
    assert "pw" not in str(pg)  # the log line at start shows no password
    with pytest.raises(BadSettings, match="no file"):
        settings_from({"db": "sqlite://"})


def test_retention_and_trusted_proxies(only: Callable[[dict[str, str]], None]) -> None:
    only({"SCORPION_RETENTION_DAYS": "30"})
    chosen = settings_from({"trusted_proxies": "127.0.0.1, 10.0.0.0/8"})
    assert chosen.trusted_proxies == ("127.0.0.1", "10.0.0.0/8")
    assert chosen.retention_days == 30
    only({"SCORPION_RETENTION_DAYS": ""})
    default = settings_from({})
    assert default.trusted_proxies == () and default.retention_days is None


def test_the_secret_is_not_in_the_settings_repr() -> None:
    assert "hush" not in repr(settings_from({"secret": "hush"}))
    given = {"db": "postgresql://race@localhost/race", "redis": "redis://:hush@localhost:6379"}
    assert "hush" not in repr(settings_from(given))


def test_several_processes_take_redis_with_postgresql(
    only: Callable[[dict[str, str]], None],
) -> None:
    only({"SCORPION_DB": "postgresql://race@localhost/race", "SCORPION_REDIS": "redis://h:6379"})
    chosen = settings_from({"lease_ttl": "0.5"})
    assert (chosen.redis, chosen.lease_ttl) == ("redis://h:6379", 0.5)
    only({"SCORPION_REDIS": " "})  # empty: one process
    assert settings_from({}).redis is None


@pytest.mark.parametrize(
    ("args", "environ", "message"),
    [
        ([], {"SCORPION_DAILY_SEARCH": "bogus"}, "SCORPION_DAILY_SEARCH: must be one of"),
        ([], {"SCORPION_LIMITS": '{"send_queue": 2.5}'}, "send_queue: must be a whole number"),
        (["--client", "/nonexistent"], {}, "no browser client (/nonexistent has no index.html)"),
        # A misspelled database setting once fell back to SQLite in ./data, silently.
        (
            [],
            {"SCORPION_DATABASE_URL": "postgresql://race@h/race"},
            "SCORPION_DATABASE_URL is not a setting (did you mean SCORPION_DB?)",
        ),
    ],
)
@pytest.mark.slow  # starts scorpion serve: make test only
def test_serve_stops_with_one_line_and_no_traceback(
    tmp_path: Path, args: list[str], environ: dict[str, str], message: str
) -> None:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("SCORPION_")}
    done = subprocess.run(
        [sys.executable, "-m", "scorpion", "serve", *args],
        cwd=tmp_path,
        env={**clean, **environ},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stderr.startswith("scorpion serve: ") and message in done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1
    assert not (tmp_path / "data").exists()  # nothing made before the settings were good
