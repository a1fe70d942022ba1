"""The drag aid (columns glow where the dragged card fits) agrees with the engine's legal moves,
for every face-up card of many positions under each preset's build and empty-column rules."""

from __future__ import annotations

import random

import pytest

from scorpion.engine import PRESETS, Game, card_text
from support.server import ServerProcess

from .conftest import PageFactory

pytestmark = pytest.mark.browser

PRESETS_CHECKED = ["classic", "relaxed", "wasp", "hard", "three-blind-mice"]


def positions(preset: str, count: int) -> list[tuple[dict[str, object], dict[str, list[int]]]]:
    """(view, {card: sorted 0-based columns it may move to}) along random games."""
    rng = random.Random(preset)
    out: list[tuple[dict[str, object], dict[str, list[int]]]] = []
    for deal in range(1, 1 + count):
        game = Game.new(deal, preset)
        for _ in range(12):
            legal = game.legal_moves()
            fits: dict[str, list[int]] = {}
            for move in legal:
                if move.card is not None and move.to is not None:
                    fits.setdefault(card_text(move.card), []).append(move.to)
            out.append((game.view(), {card: sorted(cols) for card, cols in fits.items()}))
            moves = [m for m in legal if m.card is not None]
            if not moves or game.over:
                break
            game.play(rng.choice(moves))
    return out


def test_drag_aid_matches_the_engine(server: ServerProcess, new_page: PageFactory) -> None:
    page = new_page()
    page.goto(server.url + "/")
    checked = 0
    for preset in PRESETS_CHECKED:
        rules = PRESETS[preset]
        cases = positions(preset, 6)
        got = page.evaluate(
            """async ([cases, rules]) => {
              const {fittingColumns} = await import('/js/board.js');
              return cases.map(([view]) => {
                const cards = [...view.columns.flatMap((c) => c.up), ...(view.reserve || [])];
                return Object.fromEntries(cards.map((t) => [t, fittingColumns(view, t, rules)]));
              });
            }""",
            [cases, {"build": rules.build, "empty": rules.empty}],
        )
        for (view, expected), client in zip(cases, got, strict=True):
            for card, columns in client.items():
                assert sorted(columns) == expected.get(card, []), (preset, card, view)
                checked += 1
    assert checked > 1000
