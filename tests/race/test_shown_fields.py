"""What the client shows and must not work out itself: live ranks, the rules, legal moves,
the progress measure (docs/protocol.md, issue 14)."""

from __future__ import annotations

from typing import Any

from scorpion.engine import PRESETS, Game
from scorpion.engine.progress import ordered_cards
from scorpion.race import Player

from .harness import INTERVAL, Harness, racing, solo


def scoring_move(game: Game) -> str:
    """A legal move that scores on ``game`` (deal 7 has one)."""
    for move in game.legal_moves():
        trial = game.copy()
        trial.play(move)
        if trial.score > game.score:
            return str(move)
    raise AssertionError("no scoring move")


def test_progress_carries_every_racers_rank_and_ties_share_one() -> None:
    h, a, b, c = racing()
    state: Any = h.connect(Player("d", "Di"), room="room1").last("welcome")["state"]
    assert {p["id"]: p["rank"] for p in state["players"]} == {"a": 1, "b": 1}
    shadow = Game.new(7, "classic")
    move = scoring_move(shadow)
    shadow.play(move)
    a.command("move", move=move)
    progress: Any = c.progress()[-1]
    assert progress["player"] == "a" and progress["ranks"] == {"a": 1, "b": 2}
    assert progress["ordered"] == ordered_cards(shadow)
    # Bo catches up with the same move: equal runs, score and moves share a rank again.
    b.command("move", move=move)
    h.advance(INTERVAL)  # within 0.1 s of Ada's: announced when that time is up
    assert c.progress()[-1]["ranks"] == {"a": 1, "b": 1}


def test_settings_carry_the_rules_the_games_play() -> None:
    h = Harness()
    h.room(Player("a", "Ada"), preset="wasp", undo=False)
    state: Any = h.connect(Player("a", "Ada"), room="room1").last("welcome")["state"]
    rules = state["settings"]["rules"]
    assert rules == {**PRESETS["wasp"].to_dict(), "undo": 0}
    assert rules["empty"] == "any" and rules["build"] == "same-suit"


def test_every_view_lists_the_legal_moves() -> None:
    _h, a = solo(preset="relaxed", deal=11)
    shadow = Game.new(11, "relaxed")
    opening: Any = a.last("view")["view"]
    assert opening["legal"] == [str(m) for m in shadow.legal_moves()]
    move = opening["legal"][0]
    answer: Any = a.command("move", move=move)
    shadow.play(move)
    assert answer["view"]["legal"] == [str(m) for m in shadow.legal_moves()]
    assert answer["view"] == shadow.view()
    given_up: Any = a.command("give-up")
    assert given_up["view"]["legal"] == []


def test_a_follower_gets_no_legal_moves() -> None:
    # A move onto a masked card would name it (7C>1: an 8C lies there), and only the board's
    # own player plays: a follower's views carry no legal moves; the racer's own do.
    h, a, _b, c = racing()
    assert a.command("deal")["type"] == "applied"  # Ada's stock cards: still hidden by Bo's
    followed: Any = c.command("follow", player="a")
    assert "??" in str(followed["view"]) and "legal" not in followed["view"]
    replica = Game.new(7, "classic")
    replica.play("deal")
    move = str(replica.legal_moves()[0])
    replica.play(move)
    own: Any = a.command("move", move=move)
    assert own["view"]["legal"] == [str(m) for m in replica.legal_moves()]
    h.advance(INTERVAL)  # a follower gets the board with the room's next progress event
    seen: Any = c.last("view")["view"]
    assert "legal" not in seen and seen["moves"] == 2
