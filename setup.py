"""The compiled build: ``SCORPION_COMPILED=1 pip install .`` builds the rules (engine),
the solver and the race layer with mypyc, from the same typed source; without it the
package is pure Python (no C compiler needed). docs/compiled.md says how and why."""

from __future__ import annotations

import os

from setuptools import setup

# The packages mypyc compiles: every module of each (mypy --strict already checks them)
# but the package's __init__, which only gathers names: mypyc would give a compiled package
# a wrong __path__ when its shared library is not at the top level.
COMPILED = ("engine", "solver", "race")
# Kept interpreted (none of them on a move's path in callgrind's profile of
# benchmarks/referee_instructions.py):
INTERPRETED = {
    # a generic dataclass with slots, which mypyc cannot build
    "race/search_queue.py",
    # types only (TypedDicts), whose annotations the tests read
    "race/messages.py",
    "race/room_events.py",
}


def compiled_modules() -> list[str]:
    paths = []
    for package in COMPILED:
        folder = os.path.join("server", "scorpion", package)
        paths += sorted(
            os.path.join(folder, name)
            for name in os.listdir(folder)
            if name.endswith(".py")
            and name != "__init__.py"
            and f"{package}/{name}" not in INTERPRETED
        )
    return paths


if os.environ.get("SCORPION_COMPILED", "") not in ("", "0"):
    from mypyc.build import mypycify

    setup(ext_modules=mypycify(compiled_modules(), opt_level="3", group_name="scorpion.native"))
else:
    setup()
