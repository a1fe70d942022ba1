"""A whole race to a win: Ada plays deal 3's winning line (found by the solver, replayed by the
engine) with the keyboard while Bo races and Cy follows her board; runs leave for the
foundations, Ada wins, the results rank her first. The docs' screenshots come from here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scorpion.engine import Game
from scorpion.solver.solve import solve
from scorpion_dev.server import ServerProcess

from .conftest import PageFactory
from .helpers import card, create_room, name_player, start_race, tap

pytestmark = pytest.mark.browser

DEAL = 3


def winning_line() -> list[str]:
    solution = solve(Game.new(DEAL, "classic"), max_nodes=500_000)
    assert solution.verdict == "won"
    return solution.line


def play_by_keyboard(page: Page, move: str) -> None:
    """A move the way a keyboard player makes it: focus the card, press the column's number."""
    if move == "deal":
        page.keyboard.press("d")
        return
    text, column = move.split(">")
    card(page, text).focus()
    page.keyboard.press(column)


def test_a_race_to_a_win(server: ServerProcess, new_page: PageFactory, screenshots: Path) -> None:
    line = winning_line()
    ada = new_page(1366, 768)  # the docs' pictures at a common laptop size
    bo = new_page()
    link = create_room(ada, server.url, "Ada", deal=DEAL)
    bo.goto(link)
    name_player(bo, "Bo")
    ada.locator("[data-action=ready]").click()
    bo.locator("[data-action=ready]").click()
    start_race(ada, "Bo")
    expect(ada.locator(".race-main .card.up").first).to_be_visible(timeout=15_000)

    cy = new_page(1366, 768)
    cy.goto(link)
    name_player(cy, "Cy")
    cy.locator("button.racer", has_text="Ada").click()
    expect(cy.locator(".race-main .card.up").first).to_be_visible()

    moves = ada.locator(".race-main [data-stat='moves'] b")
    runs = ada.locator(".race-main [data-stat='runs'] b")
    bo_moves = iter(line[:6])  # Bo plays the same deal, more slowly
    shot_taken = False
    for i, move in enumerate(line):
        play_by_keyboard(ada, move)
        expect(moves).to_have_text(str(i + 1))
        if i % 8 == 4 and (bo_move := next(bo_moves, None)):
            if bo_move == "deal":
                bo.get_by_role("button", name="Deal", exact=True).click()
            else:
                tap(bo, bo_move.split(">")[0])
        if not shot_taken and runs.inner_text() == "1/4":
            expect(ada.locator(".foundations .card")).to_have_count(1)
            expect(cy.locator(".racers")).to_contain_text("1/4 runs")
            expect(bo.locator(".racers")).to_contain_text("1/4 runs")
            expect(ada.locator("#live-polite")).not_to_be_empty()
            ada.wait_for_timeout(1200)  # let the run fly home before the picture
            ada.screenshot(path=str(screenshots / "race.png"))
            cy.screenshot(path=str(screenshots / "spectator.png"))
            shot_taken = True
    assert shot_taken
    expect(runs).to_have_text("4/4")
    expect(ada.locator(".race-main .board.won")).to_be_visible()
    expect(ada.locator("#live-assertive")).to_contain_text("You won")
    expect(bo.locator("#live-polite")).to_contain_text(re.compile("Ada (finished|removed)"))

    bo.get_by_role("button", name="Give up").click()
    bo.locator(".overlay").get_by_role("button", name="Give up").click()
    for page in (ada, bo, cy):
        results = page.get_by_role("dialog", name="Results")
        expect(results).to_be_visible(timeout=15_000)
        first = results.locator("tbody tr").first
        expect(first).to_contain_text("Ada")
        expect(first).to_contain_text("won in")
    ada.wait_for_timeout(300)
    ada.screenshot(path=str(screenshots / "results.png"))
    for name in ("race.png", "spectator.png", "results.png"):
        assert (screenshots / name).stat().st_size > 20_000
