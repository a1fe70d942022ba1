"""Auto (seed 004) in solo practice: the button and the `A` key each play one move of a winning
line, announced; Auto is not offered where hints are off.

Deal 6 (classic) is won by the solver within a few dozen nodes, well inside Auto's budget.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from support.server import ServerProcess

from .conftest import PageFactory

pytestmark = pytest.mark.browser

SOLO_ROOM = """async (hints) => {
  const api = await import('/js/api.js');
  await api.ensurePlayer('Avi');
  const r = await api.createRoom({preset: 'classic', deal: 6, max_players: 1, time_limit: 0,
                                  hints});
  sessionStorage.setItem('scorpion.autostart.' + r.room, '1');
  location.hash = '#/r/' + r.room;
}"""


def solo(page: Page, base: str, hints: bool) -> None:
    page.goto(base + "/")
    page.evaluate(SOLO_ROOM, hints)
    expect(page.locator(".race-main .card.up").first).to_be_visible(timeout=15_000)


def test_auto_plays_a_move_in_solo_practice(server: ServerProcess, new_page: PageFactory) -> None:
    page = new_page()
    solo(page, server.url, hints=True)
    moves = page.locator(".race-main [data-stat='moves'] b")
    expect(moves).to_have_text("0")
    auto = page.get_by_role("button", name="Auto")
    expect(auto).to_be_visible()
    expect(auto).to_be_enabled()
    auto.click()
    expect(moves).to_have_text("1")
    expect(page.locator("#live-polite")).to_contain_text("Auto played")
    expect(auto).to_be_enabled()  # the answer came: Auto can be pressed again
    page.keyboard.press("a")
    expect(moves).to_have_text("2")

    # Where hints are off, neither Hint nor Auto is offered.
    other = new_page()
    solo(other, server.url, hints=False)
    expect(other.get_by_role("button", name="Undo")).to_be_visible()
    expect(other.get_by_role("button", name="Hint")).to_be_hidden()
    expect(other.get_by_role("button", name="Auto")).to_be_hidden()
