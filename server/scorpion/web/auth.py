"""Identity: random bearer tokens, stored only as hashes, cached by hash; display names.

A token is the only credential of an anonymous player. It travels in an
``Authorization: Bearer`` header over HTTP and in the first websocket message,
never in a URL (URLs end up in logs and browser history).

>>> token = new_token()
>>> len(token) >= 40, token_hash(token) == token_hash(token)
(True, True)
>>> bearer({"authorization": "Bearer abc"}), bearer({"authorization": "Basic abc"})
('abc', None)
"""

from __future__ import annotations

import hashlib
import secrets
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from scorpion.race.confusables import ignorable
from scorpion.store import Account, Store

MAX_NAME = 24
MAX_TOKEN = 200
# Bidirectional overrides and isolates can make a name display as something else.
_BIDI = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F)}
# Letters and symbols that are drawn as nothing (Hangul fillers, the blank Braille pattern).
_BLANKS = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800"}


def _visible(ch: str) -> bool:
    """Whether ``ch`` draws something on its own: not a space, a format (zero-width)
    character, a combining mark or a blank letter."""
    return ch not in _BLANKS and unicodedata.category(ch)[0] not in "ZM" and ch.isprintable()


# Invisible characters kept inside an emoji sequence only: the joiner of 👩‍💻, the emoji
# and text variation selectors (❤️), and the tags of a subdivision flag (🏴 + tags + cancel).
_ZWJ, _VARIATIONS, _CANCEL_TAG = "\u200d", "\ufe0e\ufe0f", "\U000e007f"
_TAGS = range(0xE0020, 0xE007F)


def _emoji(ch: str) -> bool:
    """An emoji or emoji-like symbol (Symbol, other), or a skin tone modifier."""
    return unicodedata.category(ch) == "So" or 0x1F3FB <= ord(ch) <= 0x1F3FF


def _in_emoji(text: str, i: int) -> bool:
    """Whether the invisible character ``text[i]`` belongs to an emoji sequence.

    >>> _in_emoji("👩\u200d💻", 1), _in_emoji("A\u200dda", 1), _in_emoji("❤\ufe0f", 1)
    (True, False, True)
    """
    ch, before = text[i], text[:i]
    if ch in _VARIATIONS:
        return bool(before) and (_emoji(before[-1]) or before[-1] in "0123456789#*")
    if ch == _ZWJ:
        base, after = before.rstrip(_VARIATIONS), text[i + 1 : i + 2]
        return bool(base) and _emoji(base[-1]) and bool(after) and _emoji(after)
    if ord(ch) in _TAGS or ch == _CANCEL_TAG:
        start = i
        while start and ord(text[start - 1]) in _TAGS:
            start -= 1
        end = i + (ch != _CANCEL_TAG)
        while end < len(text) and ord(text[end]) in _TAGS:
            end += 1
        flag = start and text[start - 1] == "\U0001f3f4"
        return bool(flag) and start < end and text[end : end + 1] == _CANCEL_TAG
    return False


class BadName(ValueError):
    """A display name that is refused, with the reason."""


def new_token() -> str:
    return secrets.token_urlsafe(32)


def new_id(prefix: str = "", nbytes: int = 6) -> str:
    return prefix + secrets.token_urlsafe(nbytes).replace("-", "x").replace("_", "y")


# Room codes are read aloud and typed from a friend's screen: lower case only, and none of
# the look-alikes 0/o/O, 1/l/I (so no i either).
ROOM_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
ROOM_ID_LENGTH = 10  # 31**10: about 49 bits, as many as the 8-character ids before


def new_room_id() -> str:
    """A room code of ROOM_ALPHABET only.

    >>> code = new_room_id()
    >>> len(code), set(code) <= set(ROOM_ALPHABET), set(code) & set("01ilIoO")
    (10, True, set())
    """
    return "".join(secrets.choice(ROOM_ALPHABET) for _ in range(ROOM_ID_LENGTH))


def token_hash(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def bearer(headers: Mapping[str, str]) -> str | None:
    value = headers.get("authorization", "")
    scheme, _, token = value.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > MAX_TOKEN:
        return None
    return token


def clean_name(name: object) -> str:
    """A valid display name, or BadName saying why not.

    Names are stored and sent as plain text (the client renders them with
    textContent), so markup is harmless and kept; what is refused is what could
    disguise a name: control characters, format and other invisible characters (but
    the joiners and variation selectors inside an emoji sequence), over-long names.

    >>> clean_name("  Ann   Lee ")
    'Ann Lee'
    >>> clean_name("<b>x</b>")
    '<b>x</b>'
    >>> clean_name("a\\x00b")
    Traceback (most recent call last):
    ...
    scorpion.web.auth.BadName: a name cannot contain control characters
    >>> clean_name("A\\u200bda")
    Traceback (most recent call last):
    ...
    scorpion.web.auth.BadName: a name cannot contain invisible or format characters (U+200B)
    >>> clean_name("\\u2800")
    Traceback (most recent call last):
    ...
    scorpion.web.auth.BadName: a name needs at least one visible character
    """
    if not isinstance(name, str):
        raise BadName("a name must be a string")
    text = " ".join(unicodedata.normalize("NFC", name).split())
    if not text:
        raise BadName("a name cannot be empty")
    if len(text) > MAX_NAME:
        raise BadName(f"a name has at most {MAX_NAME} characters")
    for ch in text:
        if ch in _BIDI or unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn"):
            raise BadName("a name cannot contain control characters")
    for i, ch in enumerate(text):
        if (unicodedata.category(ch) == "Cf" or ignorable(ch)) and not _in_emoji(text, i):
            raise BadName(f"a name cannot contain invisible or format characters (U+{ord(ch):04X})")
    if not any(_visible(ch) for ch in text):
        raise BadName("a name needs at least one visible character")
    return text


# A cached token is read from the store again after RECHECK_SECONDS: a sign-out made on
# another process reaches this one through the hub at once, and within this bound even when
# that message is lost (Redis away). A token's last use is written at most every
# TOUCH_SECONDS per process.
RECHECK_SECONDS = 30.0
TOUCH_SECONDS = 300.0


@dataclass(slots=True)
class _Cached:
    player: Account
    checked: float  # when the store last said this token is the player's (monotonic)
    touched: float  # when this process last wrote the token's last_seen (monotonic)


class Tokens:
    """Players by token, from the store, with the most recent ``size`` kept in memory for
    at most ``recheck`` seconds (a command rarely waits on the store for a known token)."""

    def __init__(
        self,
        store: Store,
        size: int = 10_000,
        recheck: float = RECHECK_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.size = size
        self.recheck = recheck
        self.clock = clock
        self._players: OrderedDict[bytes, _Cached] = OrderedDict()
        self._forgets = 0  # grows with every forget: a lookup begun before one is not kept

    async def player(self, token: str | None) -> Account | None:
        if not token:
            return None
        key = token_hash(token)
        now = self.clock()
        cached = self._players.get(key)
        if cached is not None and now - cached.checked < self.recheck:
            self._players.move_to_end(key)
            return cached.player
        forgets = self._forgets
        player = await self.store.player_by_token(key)
        if player is None:  # a token given to another device (web/devices.py)
            player = await self.store.player_by_device_token(key)
        if player is None:
            self._players.pop(key, None)
            return None
        touched = cached.touched if cached is not None else None
        if touched is None or now - touched >= TOUCH_SECONDS:
            await self.store.touch_token(key, time.time())
            touched = now
        if forgets == self._forgets:  # not signed out meanwhile
            self._keep(key, _Cached(player, now, touched))
        return player

    def remember(self, token: str, player: Account) -> None:
        """A token just made (its last_seen written with it), or a player renamed."""
        now = self.clock()
        self._keep(token_hash(token), _Cached(player, now, now))

    def _keep(self, key: bytes, cached: _Cached) -> None:
        self._players[key] = cached
        self._players.move_to_end(key)
        while len(self._players) > self.size:
            self._players.popitem(last=False)

    def forget_player(self, player_id: str) -> None:
        """Every cached token of the player is read from the store again (renamed, deleted
        or signed out somewhere)."""
        self._forgets += 1
        for key in [k for k, c in self._players.items() if c.player.id == player_id]:
            del self._players[key]
