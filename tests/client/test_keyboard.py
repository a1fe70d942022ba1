"""Keyboard play and screen-reader labels on a solo room of deal 1 (see test_race.py), and the
explanation of a complete run that stays under the `placed` rule (RULES.md rule 7)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scorpion.web.testing import ServerProcess

from .conftest import PageFactory
from .helpers import card, column_cards

pytestmark = pytest.mark.browser

SOLO_ROOM = """async () => {
  const api = await import('/js/api.js');
  await api.ensurePlayer('Kay');
  const r = await api.createRoom({preset: 'classic', deal: 1, max_players: 1, time_limit: 0,
                                  hints: true});
  sessionStorage.setItem('scorpion.autostart.' + r.room, '1');
  location.hash = '#/r/' + r.room;
}"""


def solo_deal_one(page: Page, base: str) -> None:
    page.goto(base + "/")
    page.evaluate(SOLO_ROOM)
    expect(card(page, "JH")).to_be_visible(timeout=15_000)


def test_keyboard_play_and_labels(server: ServerProcess, new_page: PageFactory) -> None:
    page = new_page()
    solo_deal_one(page, server.url)
    col1 = page.locator(".race-main .column[data-col='0']")
    expect(col1).to_have_attribute(
        "aria-label", "column 1, 3 cards face down, 4 face up, top card jack of hearts"
    )
    expect(card(page, "4H")).to_have_count(0)
    expect(card(page, "2H")).to_have_attribute("aria-label", "two of hearts")

    # Arrow keys move between cards; Enter sends the card where it fits (tap-to-move).
    card(page, "JH").focus()
    page.keyboard.press("ArrowUp")
    expect(card(page, "5C")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(".race-main .column[data-col='2'] .card[data-card='5C']")).to_be_visible()
    assert column_cards(page, 3)[-2:] == ["5C", "JH"]

    # Space picks a card up; a column number puts it down there.
    card(page, "2H").focus()
    page.keyboard.press("Space")
    expect(card(page, "2H")).to_have_class("card up suit-H selected")
    page.keyboard.press("6")
    expect(page.locator(".race-main .column[data-col='5'] .card[data-card='2H']")).to_be_visible()
    expect(page.locator(".race-main [data-stat='moves'] b")).to_have_text("2")

    # H asks for hints: the moves are highlighted and read out.
    page.keyboard.press("h")
    expect(page.locator(".race-main .hint-src").first).to_be_visible()
    expect(page.locator("#live-polite")).to_contain_text("Hint:")

    # U undoes.
    page.keyboard.press("u")
    expect(page.locator(".race-main .column[data-col='1'] .card[data-card='2H']")).to_be_visible()


SPADES = [f"{rank}S" for rank in "KQJT98765432A"]


def placed_view(up: list[str]) -> dict[str, object]:
    """Column 1: one face-down card, then ``up``; column 2 empty; column 3 the KH."""
    return {
        "columns": [{"down": 1, "up": up}, {"down": 0, "up": []}, {"down": 0, "up": ["KH"]}],
        "stock": 0,
        "reserve": [],
        "runs": [],
        "score": 0,
        "moves": 0,
        "turned": 0,
        "won": False,
        "lost": False,
        "can_undo": False,
    }


def test_a_covered_run_is_explained(server: ServerProcess, new_page: PageFactory) -> None:
    page = new_page()
    page.goto(server.url + "/")
    note = page.evaluate(
        """async ([view, uncovered]) => {
          const {createBoard} = await import('/js/board.js');
          const b = createBoard();
          document.getElementById('main').append(b.el);
          b.update(view, {rules: {runs: 'placed'}});
          const covered = b.el.querySelector('.board-note').textContent;
          b.update(uncovered, {rules: {runs: 'placed'}});
          const stays = b.el.querySelector('.board-note').textContent;
          b.update(uncovered, {rules: {runs: 'keep'}});
          return [covered, stays, b.el.querySelector('.board-note').hidden,
                  b.el.querySelectorAll('.covered-run').length];
        }""",
        [placed_view([*SPADES, "4D"]), placed_view(SPADES)],
    )
    covered, stays, hidden_when_kept, marked = note
    assert "spades run in column 1 is complete, but cards lie on it" in covered
    assert "only when its King is moved into an empty column" in covered
    assert "complete but stays" in stays and "Move its King into an empty column" in stays
    assert hidden_when_kept is True
    assert marked == 13
