"""The web layer: HTTP API, websocket endpoint, tokens, limits, metrics and the static client.

A thin asyncio shell around :class:`scorpion.race.Referee` (which holds the race
logic, with no I/O) and :mod:`scorpion.store` (which remembers).
"""

from .app import create_app
from .config import Limits, Settings

__all__ = ["Limits", "Settings", "create_app"]
