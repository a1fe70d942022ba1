"""Which build of the rules runs: ``pure`` Python, or ``compiled`` by mypyc from the same
source (``SCORPION_COMPILED=1`` at install; docs/compiled.md).

>>> build() in ("pure", "compiled")
True
"""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES
from typing import Literal

Build = Literal["pure", "compiled"]


def build() -> Build:
    """``compiled`` when the engine's game module is a C extension (mypyc's), else ``pure``."""
    from scorpion.engine import game

    return "compiled" if game.__file__.endswith(tuple(EXTENSION_SUFFIXES)) else "pure"
