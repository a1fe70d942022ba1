"""The drag aid and the keyboard use the legal moves the server sends with each view (the client
keeps no rule of its own): while a card is dragged, or picked up with Space, exactly the columns
the engine allows glow. Every face-up card of an opening, under three presets' rules."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scorpion.engine import Game, card_text
from scorpion_dev.server import ServerProcess

from .conftest import PageFactory
from .helpers import card, one_seat_race

pytestmark = pytest.mark.browser

CASES = [("classic", 1), ("relaxed", 1), ("wasp", 21)]

GLOWING = """() => [...document.querySelectorAll('.race-main .column')]
  .map((c, i) => c.classList.contains('drop-hint') ? i : -1).filter((i) => i >= 0)"""


def engine_targets(preset: str, deal: int) -> dict[str, list[int]]:
    fits: dict[str, list[int]] = {}
    game = Game.new(deal, preset)
    for column, down in zip(game.columns, game.down, strict=True):
        for c in column[down:]:
            fits[card_text(c)] = []
    for move in game.legal_moves():
        if move.card is not None and move.to is not None:
            fits[card_text(move.card)].append(move.to)
    return fits


def glow_while_dragging(page: Page, text: str) -> list[int]:
    box = card(page, text).bounding_box()
    assert box
    x, y = box["x"] + box["width"] / 2, box["y"] + 5
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 4, y + 12, steps=3)  # past the drag threshold, still over its column
    glowing: list[int] = page.evaluate(GLOWING)
    page.mouse.up()  # dropped on its own column: it slides back, nothing is sent
    return glowing


@pytest.mark.parametrize(("preset", "deal"), CASES)
def test_the_glow_is_the_servers_legal_moves(
    server: ServerProcess, new_page: PageFactory, preset: str, deal: int
) -> None:
    expected = engine_targets(preset, deal)
    assert sum(map(len, expected.values())) >= 2  # the opening has moves to show
    page = new_page()
    one_seat_race(page, server.url, preset=preset, deal=deal, time_limit=0)
    for text, columns in expected.items():
        assert sorted(glow_while_dragging(page, text)) == sorted(columns), (preset, text)
    expect(page.locator(".race-main [data-stat='moves'] b")).to_have_text("0")
    # The keyboard: Space picks a card up and lights the same columns; Esc puts it back.
    for text, columns in expected.items():
        if columns:
            card(page, text).focus()
            page.keyboard.press("Space")
            assert sorted(page.evaluate(GLOWING)) == sorted(columns), (preset, text)
            page.keyboard.press("Escape")
            assert page.evaluate(GLOWING) == []
