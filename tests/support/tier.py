"""The two test tiers: ``make test`` runs every test; ``make check`` (``pytest --fast``) runs
those that start nothing: no server process, no database server, no browser, no wheel build.

A test is ``slow`` when it lives in a folder of process tests (:data:`SLOW_FOLDERS`, or a
file at the top of tests/), runs on both stores (the ``backends`` mark), asks for a fixture
that starts something (:data:`SLOW_FIXTURES`), or sits in a module that imports a harness
that does (:data:`HARNESSES`); those need no mark. So a new test is in the fast tier unless
it needs a process, and one that starts a server or a PostgreSQL cluster there anyway fails,
naming itself (``scorpion_dev.refuse_starts``), rather than making the tier slow. The few pure
tests that cost seconds each (deep property runs, the CLI in a subprocess) carry
``@pytest.mark.slow`` with the reason (`grep -rn mark.slow tests`).
"""

from __future__ import annotations

import types
from pathlib import Path

import pytest

import scorpion_dev

TESTS = Path(__file__).resolve().parents[1]
SLOW_FOLDERS = frozenset({"benchmarks", "cli", "client", "deploy", "scale", "store"})
SLOW_FIXTURES = frozenset(
    {"server", "api", "postgres", "stoppable_postgres", "browser", "new_page", "page"}
)
HARNESSES = ("scorpion_dev.server.ServerProcess", "scorpion_dev.server.Replica",
             "scorpion_dev.postgres", "scorpion_dev.services", "scorpion_dev.failover",
             "playwright")  # fmt: skip


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--fast", action="store_true", help="only the tests that start no process (make check)"
    )


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("fast"):
        # A test of the fast tier that starts a process belongs to the slow one.
        scorpion_dev.refuse_starts(
            "in the fast tier (make check): ask for a fixture that starts it "
            "(tests/support/tier.py, SLOW_FIXTURES) or import its harness at module level"
        )
    config.addinivalue_line("markers", "slow: starts a process, a database or a browser")


def _in_slow_folder(path: Path) -> bool:
    try:
        parts = path.resolve().relative_to(TESTS).parts
    except ValueError:
        return False  # server/: the doctests
    return len(parts) == 1 or parts[0] in SLOW_FOLDERS


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    # Not even imported in the fast tier: collecting the browser tests costs seconds.
    if config.getoption("fast") and collection_path.is_file() and _in_slow_folder(collection_path):
        return True
    return None


def _imports_harness(module: types.ModuleType | None) -> bool:
    if module is None:
        return False
    for value in vars(module).values():
        if isinstance(value, types.ModuleType):
            name = value.__name__
        else:
            name = f"{getattr(value, '__module__', '')}.{getattr(value, '__qualname__', '')}"
        if name.startswith(HARNESSES):
            return True
    return False


def is_slow(item: pytest.Item) -> bool:
    return (
        item.get_closest_marker("slow") is not None
        or _in_slow_folder(item.path)
        or item.get_closest_marker("backends") is not None
        or not SLOW_FIXTURES.isdisjoint(getattr(item, "fixturenames", ()))
        or _imports_harness(getattr(item, "module", None))
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    slow = [item for item in items if is_slow(item)]
    for item in slow:
        item.add_marker(pytest.mark.slow)
    if config.getoption("fast") and slow:
        config.hook.pytest_deselected(items=slow)
        dropped = set(map(id, slow))
        items[:] = [item for item in items if id(item) not in dropped]
