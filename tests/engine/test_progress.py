"""Cards in their final same-suit order: the progress measure the racers' bars show."""

from __future__ import annotations

import random

from scorpion.engine import Game
from scorpion.engine.progress import ordered_cards

from .helpers import SEED_000, game_of

RUN_CLUBS = "KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC"


def test_seed_deal_counts_only_pairs_already_in_suit() -> None:
    # Seed 000: only TH on JH (column 1) lies on its own suit one higher; no King at a bottom.
    assert ordered_cards(Game.from_text(SEED_000)) == 1


def test_a_card_put_on_its_suit_counts_and_counts_no_more_when_it_leaves() -> None:
    game = game_of(["| 5H", "| 4H 3C", "| 8D", "| 6D", "| 7D", "| 9S", "| 9H"])
    before = ordered_cards(game)
    game.play("4H>1")
    assert ordered_cards(game) == before + 1
    game.undo()
    assert ordered_cards(game) == before


def test_a_king_counts_at_the_bottom_only_when_nothing_is_face_down_under_it() -> None:
    # The cards not named lie face down under column 7.
    open_king = game_of(["| KD QD", "| 2C", "| 8D", "| 6D", "| 7D", "| 9S", "| 9H"], filler=6)
    covered_king = game_of(["4C | KD QD", "| 2C", "| 8D", "| 6D", "| 7D", "| 9S", "| 9H"], filler=6)
    assert ordered_cards(open_king) - ordered_cards(covered_king) == 1


def test_removed_runs_count_thirteen_and_a_won_game_counts_52() -> None:
    game = game_of([f"| {RUN_CLUBS}", "|", "|", "|", "|", "|", "|"], runs="S H D")
    assert ordered_cards(game) == 52


def test_always_between_0_and_52_in_random_games() -> None:
    rng = random.Random(5)
    for deal in range(1, 30):
        game = Game.new(deal, "classic")
        for _ in range(60):
            assert 0 <= ordered_cards(game) <= 52
            moves = game.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))
