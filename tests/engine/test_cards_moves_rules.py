"""Cards, move text and rules: small units with exact answers."""

from __future__ import annotations

import pytest

from scorpion.engine import PRESETS, Move, NotationError, Rules, get_rules, parse_card
from scorpion.engine.cards import DECK, card_name, card_text, make_card, rank_of, suit_of


def test_every_card_prints_and_parses_back() -> None:
    assert [parse_card(card_text(c)) for c in DECK] == list(DECK)
    assert {card_text(c) for c in DECK} == {r + s for r in "A23456789TJQK" for s in "SHDC"}
    assert make_card(13, 3) == parse_card("KC") and rank_of(parse_card("TD")) == 10
    assert suit_of(parse_card("2H")) == 1 and card_name(parse_card("AS")) == "ace of spades"


@pytest.mark.parametrize("bad", ["", "1S", "KX", "10", "AAS", "??"])
def test_bad_cards(bad: str) -> None:
    with pytest.raises(NotationError, match="unknown card"):
        parse_card(bad)


@pytest.mark.parametrize("text", ["4H>7", "TS>1", "KC>10", "deal", "QD"])
def test_move_text_both_ways(text: str) -> None:
    assert str(Move.parse(text)) == text
    assert eval(repr(Move.parse(text)), {"Move": Move}) == Move.parse(text)


@pytest.mark.parametrize("bad", ["", ">7", "4H>", "4H>0", "4H>x", "4X>1", "deals"])
def test_bad_move_text(bad: str) -> None:
    with pytest.raises(NotationError, match="bad move"):
        Move.parse(bad)


def test_every_printed_move_parses_to_the_move_the_long_way_gives() -> None:
    # Printed moves come from a table parsed once; spaces and lower case take the long way.
    moves = [Move(None), *(Move(card, to) for card in DECK for to in (None, *range(10)))]
    for move in moves:
        text = str(move)
        assert Move.parse(text) == Move.parse(f" {text.lower()} ") == move


def test_presets_match_the_rules_table() -> None:
    table = {
        "classic": ("same-suit", "kings", "placed", "never", 100, "points"),
        "relaxed": ("any-suit", "kings", "placed", "never", 100, "points"),
        "easy": ("same-suit", "any", "any", "never", None, "timed"),
        "normal": ("same-suit", "any", "any", "never", None, "timed"),
        "hard": ("same-suit", "kings", "any", "never", None, "timed"),
        "strict": ("same-suit", "kings", "any", "detect", None, "cards"),
    }
    for name, row in table.items():
        r = PRESETS[name]
        assert (r.build, r.empty, r.runs, r.loss, r.undo, r.scoring) == row
    assert PRESETS["easy"].deals == "winnable" and PRESETS["wasp"].empty == "any"
    assert PRESETS["traditional"].runs == "keep"


def test_rule_errors_are_clear() -> None:
    with pytest.raises(ValueError, match="rule build must be one of"):
        Rules(build="up")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown preset 'spider'"):
        get_rules("spider")
    assert Rules().with_options(undo="off").undo == 0
    assert Rules().with_options(undo="unlimited").undo_text == "unlimited"
