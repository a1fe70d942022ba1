"""The daily challenge: deal from date and secret, one ranked attempt, leaderboard, resume."""

from __future__ import annotations

import json

from scorpion.engine import Game
from scorpion.race import Player, Referee, record_from_dict
from scorpion.race.daily import daily_seed, utc_date

from .harness import T0, Harness

ADA, BO = Player("a", "Ada"), Player("b", "Bo")
TODAY = utc_date(T0)
YESTERDAY = utc_date(T0 - 86_400)
TOMORROW = utc_date(T0 + 86_400)


def test_the_deal_comes_from_the_date_and_the_secret() -> None:
    seeds = {daily_seed(b"s1", TODAY), daily_seed(b"s2", TODAY), daily_seed(b"s1", YESTERDAY)}
    assert len(seeds) == 3 and all(0 <= s < 2**64 for s in seeds)
    h = Harness()
    assert h.referee.daily(TODAY, h.now).deal == daily_seed(b"test-secret", TODAY)
    summary = h.referee.daily_summary(TODAY, h.now)
    assert summary is not None and summary["verified"] is False and summary["today"] is True
    assert "deal" not in summary
    assert h.referee.daily_summary(TOMORROW, h.now) is None  # tomorrow: not yet
    assert h.referee.daily_summary(utc_date(T0 - 400 * 86_400), h.now) is None  # too old
    assert h.referee.daily_summary(utc_date(T0 - 300 * 86_400), h.now) is not None
    # A deal found elsewhere (in a thread) can be installed before anyone asks.
    prepared = h.referee.prepare_daily(utc_date(T0 - 3 * 86_400), 12345, True)
    assert h.referee.daily(utc_date(T0 - 3 * 86_400), h.now) is prepared
    assert (prepared.deal, prepared.verified) == (12345, True)
    # With the default, the solver decides when it can; otherwise the deal is the seed.
    default = Referee(secret=b"test-secret").daily(TODAY, T0)
    if not default.verified:
        assert default.deal == daily_seed(b"test-secret", TODAY)


def test_one_ranked_attempt_then_practice() -> None:
    h = Harness()
    a = h.connect(ADA, daily=TODAY)
    welcome = a.inbox[0]
    assert welcome["type"] == "welcome" and welcome["state"]["ranked"] is True
    assert welcome["view"] is None and welcome["state"]["attempt"] is None
    assert a.command("move", move="deal")["code"] == "not-started"
    assert a.command("hint")["code"] == "not-started"
    start = a.command("start")
    assert (start["ranked"], start["attempt"], start["resumed"]) == (True, 1, False)
    deal = h.referee.daily(TODAY, h.now).deal
    assert start["view"] == Game.new(deal, "classic").view()
    assert a.command("hint")["code"] == "hints-not-allowed"  # ranked results are unassisted
    h.advance(42)
    answer = a.command("deal")
    assert answer["elapsed"] == 42.0 and answer["view"]["stock"] == 0
    h.advance(8)
    gave_up = a.command("give-up")
    assert gave_up["status"] == "gave-up"
    assert gave_up["rank"]["rank"] == 1 and gave_up["rank"]["elapsed"] == 50.0  # your row
    board = h.referee.daily_summary(TODAY, h.now)["leaderboard"]  # type: ignore[index]
    assert [(e["rank"], e["player"], e["status"]) for e in board["top"]] == [(1, "a", "gave-up")]
    # A second attempt today is practice: unranked, leaderboard unchanged, and still no
    # hint nor Auto until the day is over (else a throwaway account would let Auto play it).
    again = a.command("start")
    assert (again["ranked"], again["attempt"]) == (False, 2)
    assert a.command("hint")["code"] == "hints-not-allowed"
    assert a.command("auto")["code"] == "auto-not-allowed"
    assert "rank" not in a.command("give-up")
    assert h.referee.daily_summary(TODAY, h.now)["leaderboard"]["size"] == 1  # type: ignore[index]
    kinds = [r.kind for r in h.records]
    assert kinds.count("daily-started") == 2 and kinds.count("game-result") == 2
    ranked = [r.ranked for r in h.records if r.kind == "game-result"]  # type: ignore[union-attr]
    assert ranked == [True, False]


def test_a_day_holds_two_attempts_a_player_in_memory_however_many_they_play() -> None:
    """The ended attempts between the first and the latest are stored, not kept: a day of
    practice attempts does not grow the server's memory (the soak benchmark found it)."""
    h = Harness()
    a = h.connect(ADA, daily=TODAY)
    for number in range(1, 8):
        assert a.command("start")["attempt"] == number
        h.advance(5)
        a.command("give-up")
    daily = h.referee.daily(TODAY, h.now)
    assert [t.round for t in daily.attempts["a"]] == [1, 7]
    assert daily.unranked_reason("a", h.now) == "played"
    assert a.command("start")["attempt"] == 8  # numbering goes on from the latest
    assert h.referee.racer(daily.core.key, 8, "a") is daily.current("a")


def test_resume_after_disconnect_and_live_progress_of_others() -> None:
    h = Harness()
    a, b = h.connect(ADA, daily=TODAY), h.connect(BO, daily=TODAY)
    a.command("start")
    h.advance(5)
    b.command("start")  # Bo's own clock starts now
    h.advance(5)
    answer = a.command("deal")
    assert answer["elapsed"] == 10.0
    h.advance(2)  # the next ``playing`` event carries everyone's progress
    playing = b.events("playing")[-1]["playing"]
    ada = next(p for p in playing["top"] if p["player"] == "a")
    assert playing["count"] == 2 and (ada["moves"], ada["name"]) == (1, "Ada")
    # Counts of what she did, never a number worked out from the cards: the same deal is
    # face down on Bo's board (issue 21: no score, no cards in order while she plays).
    assert set(ada) == {"player", "name", "runs", "moves", "turned", "status", "elapsed"} | {
        "hints",
        "autos",
        "clean",
        "new_player",
    }
    assert a.command("undo")["code"] == "undo-reveals"  # ranked: the dealt cards stay seen
    attempt = h.referee.dailies[TODAY].current("a")
    assert attempt is not None
    answer = a.command("move", move=str(attempt.game.legal_moves()[0]))
    assert b.events("playing")[-1]["playing"] == playing  # not before the next event is due
    h.advance(2)
    top = b.events("playing")[-1]["playing"]["top"]
    assert next(p for p in top if p["player"] == "a")["elapsed"] == 12.0
    assert b.command("deal")["elapsed"] == 9.0
    a.disconnect()
    h.advance(100)
    a2 = h.connect(ADA, daily=TODAY)
    welcome = a2.inbox[0]
    assert welcome["view"] == answer["view"] and welcome["you"]["status"] == "playing"
    assert welcome["last_seq"] == a.seq
    assert welcome["state"]["playing"]["count"] == 2
    assert {p["player"] for p in welcome["state"]["playing"]["top"]} == {"a", "b"}
    a2.seq = a.seq
    resumed = a2.command("start")
    assert resumed["resumed"] is True and resumed["attempt"] == 1 and resumed["ranked"] is True
    assert resumed["view"] == answer["view"]


def test_past_days_are_unranked_and_other_commands_not_allowed() -> None:
    h = Harness()
    h.advance(3600)  # T0 is 00:53 UTC: yesterday's day closes at 01:00
    a = h.connect(ADA, daily=YESTERDAY)
    assert a.inbox[0]["state"]["ranked"] is False
    start = a.command("start")
    assert start["ranked"] is False
    assert start["view"] == Game.new(daily_seed(b"test-secret", YESTERDAY), "classic").view()
    assert a.command("hint")["type"] == "applied"  # a past day's practice may be assisted
    for kind, fields in [("join", {"as": "player"}), ("ready", {}), ("follow", {"player": "b"}),
                         ("rematch", {}), ("leave", {})]:  # fmt: skip
        assert a.command(kind, **fields)["code"] == "not-allowed"


def test_daily_restore_keeps_attempts_and_the_leaderboard() -> None:
    h = Harness()
    a, b = h.connect(ADA, daily=TODAY), h.connect(BO, daily=TODAY)
    a.command("start")
    b.command("start")
    h.advance(3)
    a.command("deal")
    b.command("deal")
    b.command("give-up")
    records = [record_from_dict(json.loads(json.dumps(r.to_dict()))) for r in h.records]
    restarted = Referee(secret=b"test-secret")
    restarted.restore(records, h.now + 10)
    live, back = h.referee.daily(TODAY, h.now), restarted.daily(TODAY, h.now)
    assert back.feed.leaderboard() == live.feed.leaderboard()
    assert back.current("a").game.text() == live.current("a").game.text()  # type: ignore[union-attr]
    h.referee = restarted
    h.advance(10)
    b2 = h.connect(BO, daily=TODAY)
    b2.seq = 10
    assert b2.command("start")["ranked"] is False  # the ranked attempt was used
    a2 = h.connect(ADA, daily=TODAY)
    a2.seq = 10
    resumed = a2.command("start")
    assert resumed["resumed"] is True and resumed["elapsed"] == 3.0


def test_past_dailies_are_forgotten_when_nobody_is_there() -> None:
    h = Harness()
    days = [utc_date(T0 - n * 86_400) for n in (1, 2, 3)]
    a = h.connect(ADA, daily=days[0])
    a.command("start")
    a.command("give-up")
    a.disconnect()
    b = h.connect(BO, daily=days[1])
    b.command("start")  # in progress: kept even without a connection
    b.disconnect()
    h.connect(ADA, daily=TODAY).disconnect()
    h.connect(ADA, daily=days[2])  # creating another daily evicts what nobody uses
    assert set(h.referee.dailies) == {days[1], days[2], TODAY}
    # Coming back to an evicted day: practice attempts get fresh numbers (the clock's ms).
    h.advance(1)
    again = h.connect(ADA, daily=days[0])
    again.seq = 10
    start = again.command("start")
    assert start["ranked"] is False and start["attempt"] == int(h.now * 1000)
    numbers = [r.attempt for r in h.records if r.kind == "daily-started" and r.date == days[0]]  # type: ignore[union-attr]
    assert len(numbers) == len(set(numbers)) == 2
