"""Ranks from the server, long names, the results and the way back to them (issue 14): Ada on a
desktop and Bo on a phone, both with 24-character names of wide letters, race deal 1 (see
test_race.py) with hints on.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scorpion.engine import Game
from scorpion.engine.progress import ordered_cards
from scorpion_dev.server import ServerProcess

from .conftest import PageFactory
from .helpers import card, create_room, name_player, nothing_sideways, start_race, tap, window_width

pytestmark = pytest.mark.browser

ADA, BO = "W" * 24, "M" * 24

INSIDE = """([sel, width]) => [...document.querySelectorAll(sel)].map((row) => {
  const box = row.getBoundingClientRect();
  return box.right <= width && [...row.children].every((c) => {
    const r = c.getBoundingClientRect();
    return r.left >= box.left - 0.5 && r.right <= box.right + 0.5;
  });
})"""


def inside(page: Page, rows: str) -> bool:
    """Every row ends in the window and holds its children (tags, numbers) inside it."""
    return all(page.evaluate(INSIDE, [rows, window_width(page)]))


def racer_rows(page: Page) -> list[str]:
    """The racers panel, top to bottom: "rank name"."""
    rows = page.locator(".racers .racer")
    return [
        f"{r.locator('.rank').inner_text()} {r.locator('.name').inner_text()}" for r in rows.all()
    ]


def give_up(page: Page) -> None:
    page.get_by_role("button", name="Give up").click()
    page.locator(".overlay").get_by_role("button", name="Give up").click()


def test_ranks_long_names_results_and_the_way_back(
    server: ServerProcess, new_page: PageFactory
) -> None:
    ada = new_page(1366, 800)
    bo = new_page(390, 844, mobile=True)
    link = create_room(ada, server.url, ADA, deal=1, hints=True)
    bo.goto(link)
    name_player(bo, BO)
    for page in (ada, bo):
        expect(page.locator(".players li")).to_have_count(2)
        # Long names are cut short: the host and ready tags stay inside their rows.
        assert inside(page, ".players li"), page.url
        nothing_sideways(page)

    ada.locator("[data-action=ready]").click()
    bo.locator("[data-action=ready]").click()
    start_race(ada, BO)
    for page in (ada, bo):
        expect(card(page, "JH")).to_be_visible(timeout=15_000)
    # Nobody has moved: tied, both ranked 1 by the server.
    expect(ada.locator(".racers .racer .rank")).to_have_text(["1", "1"])

    # Ada plays the 2H onto the 3H (points): the server ranks her first, Bo second.
    game = Game.new(1, "classic")
    game.play("2H>6")
    tap(ada, "2H")
    expect(ada.locator(".race-main .column[data-col='5'] .card[data-card='2H']")).to_be_visible()
    expect(bo.locator(".racers .racer .rank")).to_have_text(["1", "2"])
    assert racer_rows(bo) == [f"1 {ADA}", f"2 {BO} (you)"]
    expect(bo.locator(".racers .racer").first).to_contain_text(f"{ordered_cards(game)}/52 in order")
    expect(bo.locator(".mini-strip .chip").first).to_contain_text("1")
    assert inside(bo, ".racers .racer")

    # A hint: help, so Ada's result is assisted and ranks after Bo's clean one.
    ada.keyboard.press("h")
    expect(ada.locator(".race-main .hint-src")).to_have_count(1)
    expect(bo.locator(".racers .racer .rank")).to_have_text(["1", "2"])
    assert racer_rows(bo) == [f"1 {BO} (you)", f"2 {ADA}"]
    expect(bo.locator(".racers .racer").nth(1).locator(".tag.assisted")).to_have_text("assisted")
    expect(bo.locator(".racers .racer .tag.assisted")).to_have_count(1)

    give_up(ada)
    give_up(bo)
    expect(ada.get_by_role("dialog", name="Results")).to_be_visible(timeout=15_000)
    expect(bo.get_by_role("dialog", name="Results")).to_be_visible(timeout=15_000)
    expect(ada.locator("#results-h")).to_have_text("You placed 2nd of 2")
    expect(bo.locator("#results-h")).to_have_text("You placed 1st of 2")
    expect(ada.locator(".results-table th")).to_have_text(
        ["#", "Racer", "Result", "Runs", "In order", "Score", "Moves", "Help"]
    )
    # A phone puts the result under the name and leaves the moves out.
    expect(bo.locator(".results-table th:visible")).to_have_text(
        ["#", "Racer", "Runs", "In order", "Score", "Help"]
    )
    expect(bo.locator(".results-table .under:visible").first).to_have_text("gave up")
    for page in (ada, bo):
        help_cells = page.locator(".results-table tbody td[data-help]")
        expect(help_cells).to_have_text(["Clean", "Assisted: 1 hint"])
        expect(page.locator("[data-note=assisted]")).to_be_visible()
        # Nobody removed a run: the chart shows the score alone, no flat runs lines.
        expect(page.locator("svg.chart .runs-line")).to_have_count(0)
        expect(page.locator("svg.chart")).to_contain_text("nobody removed a run")
    # On the phone every column left shows: no sideways scrolling, nothing cut.
    fits = bo.evaluate(
        """(width) => {
          const t = document.querySelector('.results-table');
          return t.getBoundingClientRect().right <= width
            && t.parentElement.scrollWidth <= t.parentElement.clientWidth;
        }""",
        window_width(bo),
    )
    assert fits

    # "Look at the board": the way back (Results, Rematch) shows at once, in view.
    for page in (ada, bo):
        page.get_by_role("button", name="Look at the board").click()
        expect(page.get_by_role("dialog", name="Results")).to_have_count(0)
        bar = page.get_by_role("region", name="Race over")
        expect(bar).to_be_in_viewport()
        expect(bar.get_by_role("button", name="Rematch")).to_be_visible()
    expect(bo.get_by_role("region", name="Race over")).to_contain_text("you placed 1st of 2")
    bo.get_by_role("button", name="Results", exact=True).click()
    expect(bo.get_by_role("dialog", name="Results")).to_be_visible()
    ada.get_by_role("region", name="Race over").get_by_role("button", name="Rematch").click()
    # Asking for the rematch is being ready for it; Bo keeps his results, told of it.
    expect(ada.locator("[data-action=ready]")).to_have_text("Not ready")
    expect(bo.get_by_role("dialog", name="Results")).to_be_visible()
    expect(bo.locator("[data-note=rematch]")).to_contain_text("asked for a rematch")
