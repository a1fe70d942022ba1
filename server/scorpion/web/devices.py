"""Your player on another device: one-time codes and recovery codes (docs/http-api.md).

A **one-time code** is made on a device that holds the player's token, shown there,
and typed on the other device within :data:`CODE_SECONDS`; it works once. A
**recovery code** is long-lived: shown once when made, written down by the player,
good until they make a new one. Either gives the new device a token of its own for
the same player (the first device keeps its token). Codes are stored as SHA-256
hashes only, and trying them is rate-limited by address.

>>> code = new_code(CODE_LENGTH)
>>> len(code), set(code.replace("-", "")) <= set(CODE_ALPHABET)
(9, True)
>>> code_hash(code.upper()) == code_hash(" " + code.replace("-", " ") + " ")
True
>>> normal_code("ab-cd ef") , normal_code(None)
('abcdef', '')
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Final

from .auth import ROOM_ALPHABET
from .limits import KeyedBuckets

CODE_ALPHABET: Final = ROOM_ALPHABET  # no look-alikes: read on one screen, typed on another
CODE_LENGTH: Final = 8  # 31**8: about 40 bits, for a code living CODE_SECONDS
CODE_SECONDS: Final = 300.0
RECOVERY_LENGTH: Final = 20  # 31**20: about 99 bits, for a code that does not expire
MAX_CODE: Final = 64  # characters accepted in a code field (dashes and spaces included)


def new_code(length: int) -> str:
    """``length`` characters of CODE_ALPHABET in dash-separated groups of four."""
    chars = "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))
    return "-".join(chars[i : i + 4] for i in range(0, length, 4))


def normal_code(code: object) -> str:
    """A typed code as stored: lower case, without spaces or dashes."""
    if not isinstance(code, str):
        return ""
    return "".join(ch for ch in code.lower() if ch not in " -\t")


def code_hash(code: str) -> bytes:
    return hashlib.sha256(b"scorpion-code:" + normal_code(code).encode()).digest()


@dataclass
class DeviceLimits:
    """Per address: tries of a code (one-time or recovery); per player: codes made."""

    tries: KeyedBuckets = field(default_factory=lambda: KeyedBuckets(10 / 60, 10))
    made: KeyedBuckets = field(default_factory=lambda: KeyedBuckets(10 / 3600, 10))
