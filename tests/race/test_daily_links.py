"""The daily's linked players (a shared device): one ranked attempt a day per linked group,
told before the start; new players marked on the leaderboard; both kept by a restart."""

from __future__ import annotations

import json

from scorpion.race import Player, Referee, record_from_dict
from scorpion.race.daily import NEW_PLAYER, utc_date

from .harness import T0, Harness

TODAY = utc_date(T0)
YESTERDAY = utc_date(T0 - 86_400)
OLD = T0 - 30 * 86_400  # made a month ago
# Ada, Bo and Cy share devices (the web layer read the links from the store at hello); Di
# is on a device of her own.
ADA = Player("a", "Ada", linked=frozenset({"b", "c"}), created=OLD)
BO = Player("b", "Bo", linked=frozenset({"a", "c"}), created=T0 - NEW_PLAYER + 60)
CY = Player("c", "Cy", linked=frozenset({"a", "b"}))
DI = Player("d", "Di", created=OLD)


def state(client_inbox: list[dict[str, object]]) -> dict[str, object]:
    welcome = client_inbox[0]
    assert welcome["type"] == "welcome"
    found: dict[str, object] = welcome["state"]  # type: ignore[assignment]
    return found


def test_the_first_ranked_attempt_of_a_linked_group_counts_and_the_others_are_told() -> None:
    h = Harness()
    a, b, d = h.connect(ADA, daily=TODAY), h.connect(BO, daily=TODAY), h.connect(DI, daily=TODAY)
    for client in (a, b, d):  # before anyone played: everyone's first attempt is ranked
        assert (state(client.inbox)["ranked"], state(client.inbox)["unranked_reason"]) == (
            True,
            None,
        )
    assert a.command("start")["ranked"] is True
    # Bo connects again after Ada started: told before starting that his is unranked.
    b2 = h.connect(BO, daily=TODAY)
    assert (state(b2.inbox)["ranked"], state(b2.inbox)["unranked_reason"]) == (False, "linked")
    assert state(b2.inbox)["attempt"] is None
    started = b2.command("start")
    assert (started["ranked"], started["attempt"]) == (False, 1)
    b3 = h.connect(BO, daily=TODAY)  # his attempt, and why it is unranked
    assert (state(b3.inbox)["ranked"], state(b3.inbox)["unranked_reason"]) == (False, "linked")
    # Di is linked to nobody: ranked. Cy, linked to both, is not.
    assert d.command("start")["ranked"] is True
    c = h.connect(CY, daily=TODAY)
    assert state(c.inbox)["unranked_reason"] == "linked"
    # Both Ada and Bo finish: only Ada's result and Di's are on the leaderboard.
    h.advance(30)
    for client in (a, b2, d):
        client.command("give-up")
    board = h.referee.daily_summary(TODAY, h.now)["leaderboard"]  # type: ignore[index]
    assert sorted(e["player"] for e in board["top"]) == ["a", "d"]
    ranked = {r.player: r.ranked for r in h.records if r.kind == "game-result"}  # type: ignore[union-attr]
    assert ranked == {"a": True, "b": False, "d": True}
    # Ada's second attempt is unranked because she played, not because of a link. (The
    # state tells of the current attempt, or of the next one when there is none.)
    a2 = h.connect(ADA, daily=TODAY)
    assert (state(a2.inbox)["ranked"], state(a2.inbox)["unranked_reason"]) == (True, None)
    a2.seq = 10  # past the seqs of her first socket (answered again otherwise)
    assert a2.command("start")["ranked"] is False
    a3 = h.connect(ADA, daily=TODAY)
    assert state(a3.inbox)["unranked_reason"] == "played"


def test_links_do_not_cross_days_and_an_unlinked_player_is_ranked() -> None:
    h = Harness()
    y = h.connect(ADA, daily=YESTERDAY)
    assert state(y.inbox)["unranked_reason"] == "not-today"
    y.command("start")  # yesterday's (unranked) attempt uses nothing of today's
    b = h.connect(BO, daily=TODAY)
    assert (state(b.inbox)["ranked"], state(b.inbox)["unranked_reason"]) == (True, None)
    # A player whose hello carries no links (an old client: no device id) is ranked.
    alone = h.connect(Player("c", "Cy"), daily=TODAY)
    b.command("start")
    assert alone.command("start")["ranked"] is True


def test_new_players_are_marked_and_a_restart_keeps_marks_and_ranked_flags() -> None:
    h = Harness()
    a, b, d = h.connect(ADA, daily=TODAY), h.connect(BO, daily=TODAY), h.connect(DI, daily=TODAY)
    b.command("start")  # Bo, made 23:59 ago: new; his attempt is the group's ranked one
    a.command("start")  # Ada: linked to Bo, unranked
    d.command("start")
    h.advance(20)
    for client in (a, b, d):
        client.command("give-up")
    board = h.referee.daily(TODAY, h.now).feed.board
    marks = {e["player"]: e["new_player"] for e in board.page(0, 10)}
    assert marks == {"b": True, "d": False}
    started = {r.player: r for r in h.records if r.kind == "daily-started"}  # type: ignore[union-attr]
    assert {p: (r.ranked, r.new_player) for p, r in started.items()} == {  # type: ignore[union-attr]
        "a": (False, False),
        "b": (True, True),
        "d": (True, False),
    }
    # A record written before the mark existed still loads, unmarked.
    old = started["d"].to_dict()
    del old["new_player"]
    assert record_from_dict(old) == started["d"]  # Di's was False
    # After a restart (records through JSON, links not known until the next hello).
    records = [record_from_dict(json.loads(json.dumps(r.to_dict()))) for r in h.records]
    restarted = Referee(secret=b"test-secret")
    restarted.restore(records, h.now + 10)
    daily = restarted.daily(TODAY, h.now + 10)
    assert daily.feed.leaderboard() == h.referee.daily(TODAY, h.now).feed.leaderboard()
    assert {p: daily.current(p).ranked for p in "abd"} == {"a": False, "b": True, "d": True}  # type: ignore[union-attr]
    h.referee = restarted
    h.advance(10)
    a2 = h.connect(ADA, daily=TODAY)
    assert (state(a2.inbox)["ranked"], state(a2.inbox)["unranked_reason"]) == (False, "linked")
    c = h.connect(CY, daily=TODAY)  # linked to the group whose ranked attempt was restored
    assert state(c.inbox)["unranked_reason"] == "linked"
