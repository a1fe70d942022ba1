"""What may be shown, and when: the rules behind the game records and the HTTP views of
games and dailies.

A deal number helps whoever is still playing it: a race's deal stays hidden until its
results, a daily's until its day closes (every ranked attempt of it has ended:
:func:`~.daily.closes_at`, an hour after the next midnight UTC).

>>> midnight = 1_796_083_200.0  # 2026-12-01 00:00 UTC
>>> deal_shown(revealed=False, daily=None, now=midnight)
False
>>> deal_shown(revealed=False, daily="2026-11-30", now=midnight + 1)  # a ranked one may go on
False
>>> deal_shown(revealed=False, daily="2026-11-30", now=midnight + 3600)
True
>>> daily_public("2026-12-01", "2026-12-01", None, Leaderboard(), ready=False)["preparing"]
True
"""

from __future__ import annotations

from collections.abc import Mapping

from .daily import DAILY_PRESET, day_closed
from .daily_feed import TOP_ROWS
from .leaderboard import Leaderboard
from .outputs import Message
from .protocol import practice_player
from .racer import Racer
from .records import RoundFinished

# What a game record shows of a game still being played: its live numbers, never a card.
LIVE_NUMBERS = ("status", "elapsed", "score", "runs", "moves", "turned", "hints", "autos")


def stored_rules(settings: Mapping[str, object]) -> dict[str, object]:
    """What a game record keeps of its place's settings: everything but the deal (a record
    is read by others; its deal is shown apart, on :func:`deal_shown`'s terms).

    >>> stored_rules({"preset": "classic", "deal": 7, "undo": "fair"})
    {'preset': 'classic', 'undo': 'fair'}
    """
    return {k: v for k, v in settings.items() if k != "deal"}


def revealed_when_dealt(place: str) -> bool:
    """Whether a game's record is revealed from its start: a practice's (the player's own
    deal: nobody else plays it). A race's waits for its results (:func:`revealed_by`), a
    daily's for its day to close.

    >>> revealed_when_dealt("practice:p_1"), revealed_when_dealt("room1")
    (True, False)
    """
    return practice_player(place) is not None


def revealed_by(results: RoundFinished) -> list[str]:
    """The players whose games of a round its results reveal: every racer ranked."""
    return [str(entry.get("player")) for entry in results.ranking]


def deal_shown(*, revealed: bool, daily: str | None, now: float) -> bool:
    """Whether a game record may show its deal at server time ``now``: a race's once its
    results are out (``revealed``), a daily's once its day has closed."""
    return revealed if daily is None else day_closed(daily, now)


def live_numbers(racer: Racer) -> Message:
    """A game still being played, for its record: :data:`LIVE_NUMBERS` of its progress and
    its action log (the player's own: the record is theirs)."""
    progress: Mapping[str, object] = racer.progress()  # read by name, below
    numbers: Message = {k: progress[k] for k in LIVE_NUMBERS}
    numbers["actions"] = [[a, e] for a, e in racer.game.log]
    return numbers


def daily_public(
    date: str,
    today: str,
    summary: Message | None,
    board: Leaderboard,
    *,
    ready: bool,
) -> Message:
    """A day's daily for everyone: the live summary (preset, verified, who is playing now)
    when the day's deal is ready, the top of ``board`` and its size, and never the deal.
    ``preparing``: today's deal is being searched."""
    data: Message = (
        dict(summary)
        if summary is not None
        else {
            "date": date,
            "preset": DAILY_PRESET,
            "verified": None,
            "playing": {"count": 0, "top": []},
        }
    )
    data["leaderboard"] = {"size": len(board), "top": board.page(0, TOP_ROWS)}
    data["today"] = date == today
    data["preparing"] = not ready and date == today
    data.pop("deal", None)  # never, whatever the summary holds
    return data
