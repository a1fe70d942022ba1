"""Fair undo (issue 21): no peek by undo in ranked play.

A ranked daily attempt and a race room (unless its host chooses full undo or none) never
undo a move that showed a card: one that turned a face-down card or dealt the stock. The
refusal changes nothing; unranked attempts and practice keep full undo; old logs replay.
"""

from __future__ import annotations

import dataclasses
import json

from scorpion.engine import Game
from scorpion.race import Player, Referee, RoomOpened, record_from_dict
from scorpion.race.daily import utc_date
from scorpion.race.racer import UNDO_REVEALS

from .harness import T0, Client, Harness, fair_view, solo

ADA = Player("a", "Ada")
TODAY = utc_date(T0)


def turning_line(game: Game) -> list[str]:
    """The shortest line of moves (no deal) whose last turns a face-down card and whose
    earlier ones show nothing: what a player tries before an undo."""
    frontier: list[list[str]] = [[]]
    for _ in range(4):
        following = []
        for line in frontier:
            position = game.copy()
            for text in line:
                position.play(text)
            for move in position.legal_moves():
                if move.card is None:
                    continue
                position.play(move)
                if position.undo_reveals:
                    return [*line, str(move)]
                following.append([*line, str(move)])
                position.undo()
        frontier = following
    raise AssertionError("no card turns within four moves")


def play(client: Client, line: list[str]) -> dict[str, object]:
    answer: dict[str, object] = {}
    for text in line:
        answer = client.command("move", move=text)
        assert answer["type"] == "applied", answer
    return answer


def refused_unchanged(h: Harness, client: Client, game: Game) -> None:
    """An undo refused by fair undo: the stable code and sentence, and nothing changed."""
    before = (game.text(), game.score, game.moves_made, list(game.log), len(h.records))
    sent = len(h.sent)
    answer = client.command("undo")
    assert answer["type"] == "refused" and answer["code"] == "undo-reveals"
    assert answer["message"] == UNDO_REVEALS == "Undo can't take back a move that showed a card"
    assert (game.text(), game.score, game.moves_made, list(game.log), len(h.records)) == before
    assert h.sent[sent:] == [(client.conn, answer)]  # the refusal only: no event, no view
    h.advance(5)
    assert (game.score, game.moves_made) == before[1:3]  # no points lost, later either


def daily_attempt(h: Harness, client: Client) -> Game:
    attempt = h.referee.dailies[TODAY].current(client.player.id)
    assert attempt is not None
    return attempt.game


def test_the_peek_deal_then_undo_is_refused_in_a_ranked_attempt() -> None:
    h = Harness()
    a = h.connect(ADA, daily=TODAY)
    assert a.command("start")["ranked"] is True
    h.advance(2)
    dealt = a.command("deal")
    game = daily_attempt(h, a)
    # Told ahead: the Undo button is off, and why.
    assert dealt["view"]["can_undo"] is False  # type: ignore[index]
    assert dealt["view"]["undo_refusal"] == UNDO_REVEALS  # type: ignore[index]
    assert dealt["view"] == fair_view(game)
    refused_unchanged(h, a, game)
    assert game.stock == [] and game.moves_made == 1  # the stock stays dealt: no free look
    # Reconnected, the welcome's board says it too.
    again = h.connect(ADA, daily=TODAY)
    assert again.inbox[0]["view"]["undo_refusal"] == UNDO_REVEALS  # type: ignore[index]


def test_a_turned_card_cannot_be_undone_in_a_ranked_attempt_but_a_quiet_move_can() -> None:
    h = Harness()
    a = h.connect(ADA, daily=TODAY)
    a.command("start")
    game = daily_attempt(h, a)
    line = turning_line(game.copy())
    answer = play(a, line)
    assert game.cards_turned == 1 and answer["view"]["undo_refusal"] == UNDO_REVEALS  # type: ignore[index]
    refused_unchanged(h, a, game)
    # A quiet move after it can be undone; then the turning move is next, and refused.
    quiet = next(m for m in game.legal_moves() if m.card is not None and not reveals(game, str(m)))
    moved = a.command("move", move=str(quiet))
    assert moved["view"]["can_undo"] is True and "undo_refusal" not in moved["view"]  # type: ignore[index]
    assert a.command("undo")["type"] == "applied"
    refused_unchanged(h, a, game)


def reveals(game: Game, move: str) -> bool:
    position = game.copy()
    position.play(move)
    return position.undo_reveals


def test_unranked_attempts_and_practice_keep_full_undo() -> None:
    h = Harness()
    a = h.connect(ADA, daily=TODAY)
    a.command("start")
    a.command("give-up")
    assert a.command("start")["ranked"] is False  # the day's second attempt
    game = daily_attempt(h, a)
    dealt = a.command("deal")
    assert dealt["view"]["can_undo"] is True and "undo_refusal" not in dealt["view"]  # type: ignore[index]
    assert a.command("undo")["view"]["stock"] == 3  # type: ignore[index]
    play(a, turning_line(game.copy()))
    assert a.command("undo")["type"] == "applied" and game.cards_turned == 0

    p = h.connect(Player("p", "Pia"), practice=True)
    p.command("new-deal", preset="classic")
    practice = h.referee.practices["p"].current
    assert practice is not None
    assert p.command("deal")["type"] == "applied"
    assert p.command("undo")["type"] == "applied" and practice.game.stock
    play(p, turning_line(practice.game.copy()))
    assert p.command("undo")["type"] == "applied" and practice.game.cards_turned == 0


def test_rooms_have_fair_undo_by_default_and_the_host_may_choose() -> None:
    h, a = solo()
    welcome = next(m for m in a.inbox if m["type"] == "welcome")
    assert welcome["state"]["settings"]["undo"] == "fair"  # type: ignore[index]
    a.command("deal")
    refused_unchanged(h, a, h.referee.rooms["room1"].racers["a"].game)

    h, a = solo(undo="full")
    a.command("deal")
    assert a.command("undo")["type"] == "applied"
    assert h.referee.rooms["room1"].racers["a"].game.stock

    h, a = solo(undo="off")
    a.command("deal")
    assert a.command("undo")["code"] == "undo-not-allowed"


def test_an_old_log_with_a_revealing_undo_replays_under_fair_undo() -> None:
    # Recorded before fair undo: the room said "undo": true and allowed any undo.
    h, a = solo(undo="full", deal=4)
    game = h.referee.rooms["room1"].racers["a"].game
    a.command("deal")
    a.command("undo")
    line = turning_line(game.copy())
    play(a, line)
    a.command("undo")
    play(a, line[-1:])
    records = [
        dataclasses.replace(r, settings={**r.settings, "undo": True})
        if isinstance(r, RoomOpened)
        else r
        for r in (record_from_dict(json.loads(json.dumps(r.to_dict()))) for r in h.records)
    ]
    restarted = Referee(secret=b"test-secret")
    restarted.restore(records, h.now)
    assert restarted.restore_errors == []
    restored = restarted.rooms["room1"].racers["a"]
    assert restored.game.text() == game.text() and restored.game.log == game.log
    # From now on the room's undo is fair: the old boolean "on" reads as the default.
    assert restarted.rooms["room1"].settings.undo == "fair"
    assert restored.undo_refused
