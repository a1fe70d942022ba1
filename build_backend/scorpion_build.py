"""The package's build backend: setuptools, plus mypy (mypyc) among the build requirements
when ``SCORPION_COMPILED=1`` asks for the compiled build (setup.py compiles then).

A plain ``pip install .`` needs neither mypy nor a C compiler.
"""

from __future__ import annotations

import os
from typing import Any

from setuptools.build_meta import *  # noqa: F403  (the hooks not redefined here)

# The mypy the compiled build is made and tested with (the dev tools' own, pyproject.toml).
MYPYC = "mypy==2.4.1"


def compiled() -> bool:
    """Whether this build compiles (``SCORPION_COMPILED`` set to anything but ``0``)."""
    return os.environ.get("SCORPION_COMPILED", "") not in ("", "0")


# Beyond pyproject.toml's [build-system] requires; setuptools' own hooks would run setup.py
# to ask it (which imports mypyc before it is installed), and it declares nothing more.
def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return [MYPYC] if compiled() else []


get_requires_for_build_editable = get_requires_for_build_wheel
