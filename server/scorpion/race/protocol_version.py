"""The version of the websocket protocol, sent in every ``welcome`` (docs/protocol.md).

Raise it with any change a browser already holding the old client could not follow: a
client whose own version is lower tells the player to reload, so long caching of the
client's files never strands anyone on an old client.
"""

from __future__ import annotations

from typing import Final

PROTOCOL_VERSION: Final = 1
