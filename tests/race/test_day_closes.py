"""A day's daily closes: ranked attempts have a time limit, and nothing discloses or helps
with the day's deal until every ranked attempt of it has ended (the midnight window)."""

from __future__ import annotations

import json

from scorpion.race import GameResult, Player, Referee, record_from_dict
from scorpion.race.daily import RANKED_LIMIT, closes_at
from scorpion.race.disclosure import deal_shown

from .harness import Harness

ADA, BO, CY = Player("a", "Ada"), Player("b", "Bo"), Player("c", "Cy")
DAY = "2026-11-30"
MIDNIGHT = 1_796_083_200.0  # 2026-12-01 00:00 UTC: the end of DAY


def at(when: float) -> Harness:
    h = Harness()
    h.now = when
    return h


def results(h: Harness) -> list[GameResult]:
    return [r for r in h.records if isinstance(r, GameResult)]


def test_the_midnight_window_is_closed() -> None:
    # The reproduction: a ranked attempt started at 23:59:10 stays open past midnight.
    h = at(MIDNIGHT - 50)
    ada = h.connect(ADA, daily=DAY)
    start = ada.command("start")
    assert start["ranked"] is True and start["ends_at"] == MIDNIGHT - 50 + RANKED_LIMIT
    h.advance(51)  # 00:00:01: the day is over, its ranked attempt is not
    assert not deal_shown(revealed=False, daily=DAY, now=h.now)  # nor in Ada's own record
    assert ada.command("deal")["status"] == "playing"
    # A second account's attempt at that day gets neither hint nor Auto.
    bo = h.connect(BO, daily=DAY)
    assert bo.inbox[0]["state"]["ranked"] is False  # type: ignore[index]
    unranked = bo.command("start")
    assert unranked["ranked"] is False and unranked["hints_allowed"] is False
    assert unranked["ends_at"] is None  # an unranked attempt has no limit
    assert bo.command("hint")["code"] == "hints-not-allowed"
    assert bo.command("auto")["code"] == "auto-not-allowed"
    assert not h.searches and not any(r.kind == "game-result" for r in h.records)
    # The ranked attempt ends at its limit, as timed out, at the limit's elapsed time.
    h.advance(RANKED_LIMIT - 52)  # one second before it
    move = ada.last("applied")["view"]["legal"][0]  # type: ignore[index]
    assert ada.command("move", move=move)["type"] == "applied"
    h.advance(1)
    ended = ada.last("view")
    assert ended["type"] == "view" and ended["status"] == "timed-out"
    assert ended["elapsed"] == RANKED_LIMIT and ended["rank"]["status"] == "timed-out"
    [result] = results(h)
    assert (result.player, result.status, result.elapsed, result.ranked) == (
        "a",
        "timed-out",
        RANKED_LIMIT,
        True,
    )
    assert ada.command("deal")["code"] == "finished"
    assert h.referee.daily(DAY, h.now).feed.leaderboard()["top"][0]["status"] == "timed-out"
    # The day closes an hour after midnight: then its deal may be shown and helped with.
    assert h.now < closes_at(DAY) == MIDNIGHT + RANKED_LIMIT
    h.advance(closes_at(DAY) - h.now)
    assert deal_shown(revealed=False, daily=DAY, now=h.now)
    cy = h.connect(CY, daily=DAY)
    after = cy.command("start")
    assert after["hints_allowed"] is True
    assert "hints" in cy.command("hint")


def test_no_ranked_attempt_starts_after_midnight() -> None:
    h = at(MIDNIGHT + 5)
    ada = h.connect(ADA, daily=DAY)
    assert ada.inbox[0]["state"]["ranked"] is False  # type: ignore[index]
    assert ada.command("start")["ranked"] is False


def test_a_ranked_attempt_keeps_its_deadline_on_another_device_and_after_a_restart() -> None:
    h = at(MIDNIGHT - 600)
    ada = h.connect(ADA, daily=DAY)
    ends_at = ada.command("start")["ends_at"]
    assert ends_at == MIDNIGHT - 600 + RANKED_LIMIT
    h.advance(30)
    ada.command("deal")
    other_tab = h.connect(ADA, daily=DAY)  # another device of the same player
    assert other_tab.inbox[0]["state"]["attempt"]["ends_at"] == ends_at  # type: ignore[index]
    records = [record_from_dict(json.loads(json.dumps(r.to_dict()))) for r in h.records]
    # A restart half an hour later: the attempt goes on, with the same deadline.
    restarted = Referee(secret=b"test-secret")
    assert restarted.restore(records, h.now + 1800) == []
    h.referee, h.now = restarted, h.now + 1800
    back = h.connect(ADA, daily=DAY)
    back.seq = 10
    attempt = back.inbox[0]["state"]["attempt"]  # type: ignore[index]
    assert attempt["ends_at"] == ends_at and attempt["status"] == "playing"
    assert back.command("start")["resumed"] is True
    h.advance(ends_at - h.now)
    assert back.last("view")["status"] == "timed-out"
    # A restart after the deadline passed while the server was down: it times out at once.
    down = Referee(secret=b"test-secret")
    due = down.restore(records, ends_at + 500)
    timed_out = [o.record for o in due if getattr(o, "record", None) is not None]
    assert [(r.status, r.elapsed) for r in timed_out if isinstance(r, GameResult)] == [
        ("timed-out", RANKED_LIMIT)
    ]
    assert down.daily(DAY, ends_at + 500).current("a").status == "timed-out"  # type: ignore[union-attr]
