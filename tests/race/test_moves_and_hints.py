"""Tap-to-move, hints and deal choices through a room."""

from __future__ import annotations

import contextlib

import pytest

from scorpion.engine import Game, MoveError, card_text
from scorpion.race import DealFound, DealSearch, GameResult, Player, Referee, RoomSettings

from .harness import Harness, racing, solo

ADA = Player("a", "Ada")


def test_a_tap_is_answered_with_where_the_card_went() -> None:
    h, a = solo(deal=7)
    game = Game.new(7, "classic")
    taps = []
    for col, down in zip(game.columns, game.down, strict=True):
        for card in col[down:]:
            with contextlib.suppress(MoveError):
                taps.append((card_text(card), str(game.resolve(card_text(card)))))
    assert taps, "deal 7 has a card that a tap can move"
    tap, full = taps[0]
    answer = a.command("move", move=tap)
    assert answer["type"] == "applied" and answer["move"] == full
    game.play(full)
    assert answer["view"] == game.view()
    record = h.records[-1]
    assert record.kind == "action" and record.action == full  # type: ignore[union-attr]


def test_hints_list_moves_that_are_legal_and_count_in_progress() -> None:
    _h, a = solo(deal=7, hints=True)
    legal = {str(m) for m in Game.new(7, "classic").legal_moves()}
    answer = a.command("hint")
    hints = answer["hints"]
    assert isinstance(hints, list) and hints
    assert {h["move"] for h in hints} <= legal
    assert all(h["winnable"] in (True, False, None) for h in hints)
    # A hint changes no board, but it is help: the room is told (assisted ranks after clean).
    # (The first entry: the start's.)
    assert [(p["hints"], p["clean"], p["moves"]) for p in a.progress()] == [
        (0, True, 0),
        (1, False, 0),
    ]


def test_deal_choices() -> None:
    h, _a = solo(deal="random")
    assert h.referee.rooms["room1"].deal == 101  # from the deal source
    h, _a = solo(deal="winnable")
    room = h.referee.rooms["room1"]
    if not room.verified:  # no solver, or none proved in the short budget: unverified
        assert room.deal == 101
    else:  # the solver proved a deal from the random start on winnable
        assert room.deal is not None and room.deal >= 101
    assert room.state(h.now)["settings"]["deal"] == "winnable"  # type: ignore[index]
    h, _a = solo(deal=2**64 - 1)
    assert h.referee.rooms["room1"].deal == 2**64 - 1
    assert h.referee.room_summary("room1", h.now)["deal"] is None  # type: ignore[index]


def test_a_winnable_deal_is_searched_before_the_countdown() -> None:
    h = Harness()
    h.hold_searches = True
    h.room(ADA, deal="winnable")
    a = h.connect(ADA, room="room1")
    a.command("join", **{"as": "player"})
    a.command("ready")
    a.seq += 1
    h.feed(h.referee.receive(a.conn, {"type": "start", "seq": a.seq}, h.now))
    room = h.referee.rooms["room1"]
    (search,) = h.searches
    assert isinstance(search, DealSearch) and search.preset == "classic"
    assert room.phase == "lobby" and a.events("countdown") == []  # no answer yet
    assert a.command("start")["code"] == "busy"  # one deal search at a time
    h.feed(h.referee.searched(DealFound(search.ticket, 555, True), h.now))
    answer = a.last("applied")
    assert answer["seq"] == search.ticket.seq and answer["round"] == 1
    assert (room.deal, room.verified, room.phase) == (555, True, "countdown")
    h.advance(3)
    a.command("give-up")
    assert a.events("results")[-1]["deal"] == "555"


def test_room_ids_are_unique() -> None:
    referee = Referee(secret=b"s")
    referee.create_room("r", ADA, RoomSettings(), 0.0)
    with pytest.raises(ValueError, match="already exists"):
        referee.create_room("r", ADA, RoomSettings(), 0.0)


def test_a_result_with_help_ranks_after_the_clean_ones_and_says_so() -> None:
    h, a, b, _c = racing(hints=True)
    game = Game.new(7, "classic")
    scoring = next(m for m in game.legal_moves() if m.card is not None)  # +5: same suit
    assert a.command("move", move=str(scoring))["view"]["score"] > 0  # type: ignore[index]
    assert "hints" in a.command("hint")
    a.command("give-up")
    b.command("give-up")  # no move: a lower score, but clean
    results = h.referee.rooms["room1"].results
    assert results is not None
    assert [(e["rank"], e["player"], e["clean"], e["hints"]) for e in results] == [
        (1, "b", True, 0),
        (2, "a", False, 1),
    ]
    assert [(r.player, r.hints) for r in h.records if isinstance(r, GameResult)] == [
        ("a", 1),
        ("b", 0),
    ]
