"""Fixtures shared by the store, web and browser tests: one database fixture, two backends.

A test marked ``backends`` runs once on a SQLite file and once on a PostgreSQL
database (a fresh one per test, in a cluster made once per test session); every other
test that asks for ``database`` gets a SQLite file.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from scorpion_dev.postgres import PostgresCluster, postgres_bin
from scorpion_dev.server import ServerProcess

pytest_plugins = ["support.tier"]  # the fast tier (make check) and the slow mark

# Property tests draw the same examples on every run (a failure in CI is a failure on every
# machine, never a lucky draw); SCORPION_HYPOTHESIS=explore draws new ones for local hunting.
settings.register_profile("repeatable", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("SCORPION_HYPOTHESIS", "repeatable"))

BACKENDS = ("sqlite", "postgresql")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "backends: runs on SQLite and on PostgreSQL")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "database" in metafunc.fixturenames and metafunc.definition.get_closest_marker("backends"):
        metafunc.parametrize("database", BACKENDS, indirect=True)


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster]:
    """A PostgreSQL cluster for the whole test session (per xdist worker)."""
    bin_dir = postgres_bin()
    if bin_dir is None:
        pytest.fail("PostgreSQL is not installed (.ci/run installs it: apt-get install postgresql)")
    cluster = PostgresCluster(bin_dir)
    try:
        cluster.init()
        yield cluster
    finally:
        cluster.remove()


@pytest.fixture
def stoppable_postgres(postgres: PostgresCluster) -> Iterator[PostgresCluster]:
    """The session's cluster, which the test may stop: it is running again afterwards."""
    try:
        yield postgres
    finally:
        postgres.start_if_stopped()


@pytest.fixture
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database setting: a SQLite file in tmp_path, or a new PostgreSQL database URL."""
    if getattr(request, "param", "sqlite") == "postgresql":
        cluster: PostgresCluster = request.getfixturevalue("postgres")
        return cluster.new_database()
    return str(tmp_path / "data" / "scorpion.db")


@pytest.fixture
def server(
    request: pytest.FixtureRequest, tmp_path: Path, database: str
) -> Iterator[ServerProcess]:
    """A real ``scorpion serve`` on a free 127.0.0.1 port, on ``database`` (with the test
    module's ``SERVER_ARGS`` added, if it has any)."""
    args = ("--grace", "60", *getattr(request.module, "SERVER_ARGS", ()))
    proc = ServerProcess(database, args=args, log_path=tmp_path / "server.log")
    proc.start()
    try:
        yield proc
    finally:
        if proc.running:
            proc.stop()


@pytest.fixture
def collector_off() -> Iterator[None]:
    """The cycle collector off (after one collection): what a test then sees freed was
    freed by reference counting, as web/collector.py's frozen objects are."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
