"""Practice: a game kind of its own (no lobby, countdown, clock events or ranking), restored."""

from __future__ import annotations

import json

from scorpion.engine import Game, get_rules
from scorpion.race import GameResult, PracticeDealt, Referee, RoomConfig, record_from_dict
from scorpion.race import Player as RacePlayer
from scorpion.race.searches import AUTO_NODES
from scorpion.solver import solve

from .harness import Client, Harness

ADA = RacePlayer("a", "Ada")


def practising() -> tuple[Harness, Client]:
    h = Harness(deals=iter(range(301, 400)))
    ada = h.connect(ADA, practice=True)
    return h, ada


def test_practice_starts_with_new_deal_and_plays_with_undo_hints_and_auto() -> None:
    _, ada = practising()
    welcome = ada.inbox[0]
    assert welcome["type"] == "welcome" and welcome["practice"] is True
    assert welcome["state"] == {"practice": True, "game": None} and welcome["view"] is None
    dealt = ada.command("new-deal", preset="hard")
    assert dealt["type"] == "applied", dealt
    fields = (dealt["game"], dealt["preset"], dealt["deal"], dealt["status"])
    assert fields == (1, "hard", "301", "playing")
    assert dealt["rules"] == get_rules("hard").to_dict()  # the client copies no rule
    game = Game.new(301, "hard")
    assert dealt["view"] == game.view()
    move = str(game.legal_moves()[0])
    assert ada.command("move", move=move)["type"] == "applied"
    assert ada.command("undo")["type"] == "applied"  # practice: full undo
    game.play(move)
    game.undo()
    hint = ada.command("hint")
    assert hint["type"] == "applied" and hint["hints"], hint
    auto = ada.command("auto")
    verdict = solve(game.copy(), max_nodes=AUTO_NODES).verdict
    assert auto["type"] == "applied" and auto["verdict"] == verdict, auto
    if verdict == "lost":  # Auto never gives up by itself: it says so, the game goes on
        assert auto["auto"] is None and auto["status"] == "playing" and auto["view"] == game.view()
    else:
        assert auto["auto"] in {str(m) for m in game.legal_moves()}
    # Nothing of a race: no countdown, start, progress or results event, ever.
    assert ada.events() == []
    for kind in ("start", "ready", "rematch"):
        assert ada.command(kind)["code"] == "not-allowed"


def test_a_finished_game_is_an_unranked_result_and_a_new_deal_follows() -> None:
    h, ada = practising()
    ada.command("new-deal")
    given = ada.command("give-up")
    assert given["status"] == "gave-up"
    results = [r for r in h.records if isinstance(r, GameResult)]
    assert [(r.room, r.round, r.status, r.ranked, r.preset) for r in results] == [
        ("practice:a", 1, "gave-up", False, "classic")
    ]
    assert ada.command("move", move="deal")["code"] == "finished"
    second = ada.command("new-deal")
    assert (second["game"], second["deal"], second["preset"]) == (2, "302", "classic")


def test_new_deal_mid_game_counts_the_game_begun_as_given_up_and_drops_an_untouched_one() -> None:
    h, ada = practising()
    ada.command("new-deal")
    ada.command("new-deal")  # game 1 untouched: no result
    assert not [r for r in h.records if isinstance(r, GameResult)]
    ada.command("move", move="deal")
    ada.command("new-deal", preset="easy")
    results = [r for r in h.records if isinstance(r, GameResult)]
    assert [(r.round, r.status, r.moves) for r in results] == [(2, "gave-up", 1)]


def test_bad_preset_and_bad_hello_are_refused_and_change_nothing() -> None:
    h, ada = practising()
    refused = ada.command("new-deal", preset="chess")
    assert refused["code"] == "bad-field" and "classic" in refused["message"]
    assert not [r for r in h.records if isinstance(r, PracticeDealt)]
    both = h.connect(RacePlayer("b", "Bo"), practice=True, daily="2026-11-30")
    assert both.inbox[0]["code"] == "missing-field" and both.closed is not None
    wrong = h.connect(RacePlayer("c", "Cy"), practice="yes")
    assert wrong.inbox[0]["code"] == "bad-field"


def test_every_tab_of_the_player_follows_the_game_and_nobody_else_sees_it() -> None:
    h, ada = practising()
    tab = h.connect(ADA, practice=True)
    bo = h.connect(RacePlayer("b", "Bo"), practice=True)
    dealt = ada.command("new-deal")
    views = [m for m in tab.inbox if m["type"] == "view"]
    assert views[-1]["view"] == dealt["view"] and views[-1]["game"] == 1
    moved = ada.command("move", move="deal")
    assert [m for m in tab.inbox if m["type"] == "view"][-1]["view"] == moved["view"]
    assert [m for m in bo.inbox if m["type"] == "view"] == []
    assert bo.command("undo")["code"] == "not-started"  # Bo's own practice: nothing dealt


def test_a_practice_game_comes_back_after_a_restart() -> None:
    h, ada = practising()
    ada.command("new-deal", preset="normal")
    game = Game.new(301, "normal")
    for _ in range(6):
        move = game.legal_moves()[0]
        ada.command("move", move=str(move))
        game.play(move)
    ada.command("hint")
    stored = [record_from_dict(json.loads(json.dumps(r.to_dict()))) for r in h.records]
    fresh = Referee(secret=b"test-secret", config=RoomConfig(deal_source=lambda: 999))
    fresh.restore(stored, h.now + 100)
    assert fresh.restore_errors == []
    h.referee = fresh
    back = h.connect(ADA, practice=True)
    welcome = back.inbox[0]
    assert welcome["view"] == game.view()
    assert welcome["last_seq"] == ada.seq
    held = welcome["state"]["game"]
    assert (held["hints"], held["preset"]) == (1, "normal")
    assert held["rules"] == get_rules("normal").to_dict()
    back.seq = ada.seq
    assert back.command("undo")["type"] == "applied"


def test_an_idle_practice_is_forgotten_once_its_game_is_over() -> None:
    h, ada = practising()
    ada.command("new-deal")
    ada.disconnect()
    assert "a" in h.referee.practices  # a game under way stays to be resumed
    again = h.connect(ADA, practice=True)
    again.seq = ada.seq
    again.command("give-up")
    again.disconnect()
    assert "a" not in h.referee.practices
