"""Game records: JSON and text both ways; replay gives back the same game."""

from __future__ import annotations

import random

import pytest

from scorpion.engine import Game, GameRecord, NotationError, Rules

from .helpers import SEED_000


def played_game(deal: int, preset: str, seed: int, steps: int = 40) -> Game:
    rng, game, clock = random.Random(seed), Game.new(deal, preset), 0.0
    for _ in range(steps):
        clock += rng.uniform(0.5, 20)
        moves = game.legal_moves()
        if not moves or game.over:
            break
        if game.can_undo and rng.random() < 0.2:
            game.undo(elapsed=clock)
        else:
            game.play(rng.choice(moves), elapsed=clock)
    return game


@pytest.mark.parametrize("preset", ["classic", "normal", "strict", "wasp", "three-blind-mice"])
def test_replay_gives_back_the_same_game(preset: str) -> None:
    game = played_game(4, preset, seed=1)
    record = GameRecord.from_game(game)
    again = record.replay()
    assert (again.text(), again.score, again.moves_made) == (
        game.text(),
        game.score,
        game.moves_made,
    )
    assert GameRecord.from_json(record.to_json()) == record
    assert GameRecord.parse(record.text()) == record


def test_custom_rules_and_a_start_position_round_trip() -> None:
    rules = Rules(build="any-suit", empty="any", undo=None, scoring="timed")
    game = Game.from_text(SEED_000, rules)
    game.play("4H>7", elapsed=3.0)
    game.give_up(elapsed=9.5)
    record = GameRecord.from_game(game, start=SEED_000)
    text = record.text()
    assert '[Result "gave-up"]' in text and "[Rules " in text and "[Start " in text
    assert GameRecord.parse(text) == record
    assert GameRecord.from_json(record.to_json()).replay().gave_up


def test_replay_upto_a_move() -> None:
    game = played_game(6, "classic", seed=2)
    record = GameRecord.from_game(game)
    assert record.replay(upto=0).text() == Game.new(6).text()


@pytest.mark.parametrize(
    "text",
    [
        '[Deal "x"]\n[Preset "classic"]\n',
        '[Deal "1"]\n[Preset "classic"]\n\n1. 5C>3 2. {x}',
        "Deal 1",
    ],
)
def test_bad_record_text(text: str) -> None:
    with pytest.raises(NotationError):
        GameRecord.parse(text)


def test_bad_record_json() -> None:
    for bad in ("[1]", "{", '{"deal": 1}'):
        with pytest.raises(NotationError):
            GameRecord.from_json(bad)
