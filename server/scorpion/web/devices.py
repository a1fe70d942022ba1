"""Your player on another device: one-time codes and recovery codes (docs/http-api.md).

A **one-time code** is made on a device that holds the player's token, shown there,
and typed on the other device within :data:`CODE_SECONDS`; it works once. A
**recovery code** is long-lived: shown once when made, written down by the player,
good until they make a new one. Either gives the new device a token of its own for
the same player (the first device keeps its token). Codes are stored as SHA-256
hashes only, and trying them is rate-limited by address.

A **device id** is a random id the browser makes once and keeps (128 bits, in hex): it
comes in the body when a player is made, a code claimed or a recovery code used. Only its
HMAC with the server secret is kept, per player; players sharing one are linked.

>>> code = new_code(CODE_LENGTH)
>>> len(code), set(code.replace("-", "")) <= set(CODE_ALPHABET)
(9, True)
>>> code_hash(code.upper()) == code_hash(" " + code.replace("-", " ") + " ")
True
>>> normal_code("ab-cd ef") , normal_code(None)
('abcdef', '')
>>> device_id({}), device_id({"device_id": "0f" * 16}) == "0f" * 16
(None, True)
>>> device_id({"device_id": "my laptop"})
Traceback (most recent call last):
...
scorpion.web.devices.BadDeviceId: device_id is 32 lowercase hex digits, made by the browser
>>> one = "0f" * 16
>>> len(device_hash(b"s", one)), device_hash(b"s", one) == device_hash(b"t", one)
(32, False)
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from .auth import ROOM_ALPHABET
from .limits import KeyedBuckets

CODE_ALPHABET: Final = ROOM_ALPHABET  # no look-alikes: read on one screen, typed on another
CODE_LENGTH: Final = 8  # 31**8: about 40 bits, for a code living CODE_SECONDS
CODE_SECONDS: Final = 300.0
RECOVERY_LENGTH: Final = 20  # 31**20: about 99 bits, for a code that does not expire
MAX_CODE: Final = 64  # characters accepted in a code field (dashes and spaces included)
DEVICE_ID: Final = re.compile(r"[0-9a-f]{32}")  # what the client makes: 128 random bits, hex


# A User-Agent's browser and system, tested in this order (Edge and Opera also say Chrome,
# Chrome also says Safari, Android also says Linux): only the family is kept, never the
# whole header, to tell a player's devices apart.
_BROWSERS: Final = (
    ("Edg", "Edge"),
    ("OPR/", "Opera"),
    ("Firefox/", "Firefox"),
    ("FxiOS/", "Firefox"),
    ("CriOS/", "Chrome"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
)
_SYSTEMS: Final = (
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Android", "Android"),
    ("CrOS", "ChromeOS"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("Macintosh", "macOS"),
    ("Linux", "Linux"),
)


def agent_family(user_agent: str | None) -> str:
    """ "Browser on system" from a User-Agent header; "" when neither is known.

    >>> agent_family("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0")
    'Firefox on Linux'
    >>> agent_family("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Version/17.0 "
    ...              "Mobile/15E148 Safari/604.1")
    'Safari on iPhone'
    >>> agent_family("curl/8.5.0"), agent_family(None)
    ('', '')
    """
    text = user_agent or ""
    browser = next((name for mark, name in _BROWSERS if mark in text), "")
    system = next((name for mark, name in _SYSTEMS if mark in text), "")
    if browser and system:
        return f"{browser} on {system}"
    return browser or system


class BadDeviceId(ValueError):
    """A ``device_id`` that is not what the client makes."""


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


def device_id(body: Mapping[str, object]) -> str | None:
    """The body's ``device_id`` (None when absent: an older client, left unlinked), or
    BadDeviceId."""
    value = body.get("device_id")
    if value is None:
        return None
    if not isinstance(value, str) or not DEVICE_ID.fullmatch(value):
        raise BadDeviceId("device_id is 32 lowercase hex digits, made by the browser")
    return value


def device_hash(secret: bytes, device: str) -> bytes:
    """What is kept of a device id: its HMAC-SHA256 with the server secret (the id itself
    is never stored, so a database alone cannot be matched against a browser's storage)."""
    return hmac.new(secret, b"scorpion-device:" + device.encode(), hashlib.sha256).digest()


@dataclass
class DeviceLimits:
    """Per address: tries of a code (one-time or recovery); per player: codes made."""

    tries: KeyedBuckets = field(default_factory=lambda: KeyedBuckets(10 / 60, 10))
    made: KeyedBuckets = field(default_factory=lambda: KeyedBuckets(10 / 3600, 10))
