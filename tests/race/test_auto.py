"""Auto (seed 004): one move of a winning line; where the room allows Auto (its own setting).
On a position proved lost Auto changes nothing and says so: the player decides to give up.

Deals used (classic, solver budget of scorpion.race.solver_bridge): deal 6 is won within a
few dozen nodes, deal 1 is proved lost at once, and relaxed deal 1 needs more nodes than
Auto's budget, so Auto cannot decide it.
"""

from __future__ import annotations

import json

import pytest

from scorpion.engine import Game
from scorpion.race import Player, Referee, RoomConfig, record_from_dict
from scorpion.race.daily import utc_date
from scorpion.race.searches import AUTO_NODES
from scorpion.solver import solve

from .harness import T0, Harness, fair_view, solo

ADA = Player("a", "Ada")


def test_auto_plays_the_first_move_of_a_winning_line_like_a_move() -> None:
    h, a = solo(deal=6, auto=True)
    game = Game.new(6, "classic")
    h.advance(2)
    answer = a.command("auto")
    assert answer["type"] == "applied" and answer["command"] == "auto"
    played = answer["auto"]
    assert isinstance(played, str) and answer["move"] == played and answer["verdict"] == "won"
    assert played in {str(m) for m in game.legal_moves()}
    game.play(played)
    assert solve(game).verdict == "won"  # the move keeps the game winnable
    assert answer["view"] == fair_view(game) and answer["status"] == "playing"
    assert answer["elapsed"] == 2.0
    record = h.records[-1]
    assert record.kind == "action" and record.action == played  # type: ignore[union-attr]
    assert a.progress()[-1]["moves"] == 1
    assert a.progress()[-1]["autos"] == 1  # counted for the results (issue 14)
    # Pressed again and again, Auto wins the game.
    for _ in range(400):
        answer = a.command("auto")
        assert answer["type"] == "applied", answer
        if answer["status"] != "playing":
            break
    assert answer["status"] == "won" and answer["view"]["won"] is True  # type: ignore[index]
    assert h.referee.rooms["room1"].phase == "results"


def test_auto_on_a_lost_game_changes_nothing_and_says_so() -> None:
    h, a = solo(deal=1, auto=True)
    assert solve(Game.new(1, "classic")).verdict == "lost"
    h.advance(5)
    answer = a.command("auto")
    assert answer["type"] == "applied" and answer["command"] == "auto"
    assert answer["auto"] is None and answer["verdict"] == "lost" and "move" not in answer
    assert answer["status"] == "playing" and answer["view"] == Game.new(1, "classic").view()
    # The board is as it was; the verdict is help, counted as a hint: the result is assisted.
    assert [r.action for r in h.records if r.kind == "action"] == ["hint"]  # type: ignore[attr-defined]
    racer = h.referee.rooms["room1"].racers["a"]
    assert racer.playing and (racer.autos, racer.hints, racer.clean) == (0, 1, False)
    assert [(p["hints"], p["clean"]) for p in a.progress()] == [(0, True), (1, False)]  # start
    # The player decides: give up (or play on) like any game.
    assert a.command("give-up")["status"] == "gave-up"
    assert a.command("auto")["code"] == "finished"


@pytest.mark.slow  # two searches to the end of Auto's budget: make test only
def test_auto_that_decides_nothing_changes_nothing() -> None:
    # Relaxed deal 184: undecided even at 60 s (docs/winnability.md), so within Auto's budget.
    assert solve(Game.new(184, "relaxed"), max_nodes=AUTO_NODES).verdict == "unknown"
    h, a = solo(deal=184, preset="relaxed", auto=True)
    before, announced = list(h.records), a.progress()
    answer = a.command("auto")
    assert answer["type"] == "refused" and answer["code"] == "auto-unknown"
    assert "no line" in str(answer["message"])
    assert h.records == before and a.progress() == announced
    racer = h.referee.rooms["room1"].racers["a"]
    assert racer.playing and racer.game.moves_made == 0


def test_auto_is_its_own_setting_and_refused_in_a_ranked_daily() -> None:
    _h, a = solo(deal=6)  # neither by default
    assert a.command("auto")["code"] == "auto-not-allowed"
    assert a.command("hint")["code"] == "hints-not-allowed"
    _h, a = solo(deal=6, hints=True)  # hints alone do not allow Auto
    refused = a.command("auto")
    assert (
        refused["code"] == "auto-not-allowed" and refused["message"] == "Auto is not allowed here"
    )
    assert a.command("hint")["type"] == "applied"
    _h, a = solo(deal=6, auto=True)  # nor Auto hints
    assert a.command("hint")["code"] == "hints-not-allowed"
    assert a.command("auto")["type"] == "applied"
    today = utc_date(T0)
    h = Harness()
    d = h.connect(ADA, daily=today)
    assert d.command("auto")["code"] == "not-started"
    d.command("start")
    assert d.command("auto")["code"] == "auto-not-allowed"  # ranked results are unassisted
    d.command("give-up")
    practice = d.command("start")
    assert practice["ranked"] is False
    assert d.command("auto")["code"] == "auto-not-allowed"  # today's practice: not yet
    past = h.connect(ADA, daily=utc_date(T0 - 2 * 86_400))  # yesterday's is still open
    past.command("start")
    answer = past.command("auto")  # a past day's practice: allowed, answered (played,
    assert answer["type"] == "applied" or answer["code"] == "auto-unknown"  # lost, unknown)


def test_a_resent_auto_is_not_applied_twice_and_restores() -> None:
    h, a = solo(deal=6, auto=True)
    first = a.command("auto")
    assert first["type"] == "applied"
    moves = h.referee.rooms["room1"].racers["a"].game.moves_made
    again = a.raw({"type": "auto", "seq": a.seq})
    assert again == first
    racer = h.referee.rooms["room1"].racers["a"]
    assert racer.game.moves_made == moves == 1
    # A restarted server replays Auto's move as the move it was.
    records = [record_from_dict(json.loads(json.dumps(r.to_dict()))) for r in h.records]
    restarted = Referee(secret=b"test-secret", config=RoomConfig(deal_source=lambda: 1))
    restarted.restore(records, h.now)
    restored = restarted.rooms["room1"].racers["a"]
    assert restored.game.text() == racer.game.text() and restored.game.log == racer.game.log
    # ... and still counts it as help: the result stays assisted.
    assert (restored.autos, restored.clean, restored.progress()["clean"]) == (1, False, False)
