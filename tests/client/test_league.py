"""A league among friends in the browser: the host makes the room a league from the create
form; after a round both racers see the week's table and all time's in the results and in
the lobby of the rematch (docs/screenshots/league-*.png)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scorpion_dev.server import ServerProcess

from .conftest import PageFactory
from .helpers import create_room, name_player, nothing_sideways, start_race

pytestmark = pytest.mark.browser


def give_up(page: Page) -> None:
    page.get_by_role("button", name="Give up").click()
    page.locator(".overlay").get_by_role("button", name="Give up").click()


def test_a_league_room_shows_its_tables_in_the_results_and_the_lobby(
    server: ServerProcess, new_page: PageFactory, screenshots: Path
) -> None:
    ada = new_page(1366, 768)
    bo = new_page(390, 844, mobile=True)
    link = create_room(ada, server.url, "Ada", league=True)  # a deal nobody chose
    bo.goto(link)
    # The invitation says so before Bo sits down: a league (and whether it is rated).
    expect(bo.locator("[data-invite=league]")).to_have_text(
        "yes: points per round, kept week after week"
    )
    expect(bo.locator("[data-invite=rated]")).to_have_count(0)
    name_player(bo, "Bo")
    for page in (ada, bo):
        expect(page.locator(".settings-list [data-setting=league]")).to_have_text(
            "yes: points per round, kept week after week"
        )
        expect(page.locator("[data-league=week-empty]")).to_have_text("No round finished yet.")
    expect(ada.locator("[data-action=league]")).to_have_text("End the league")
    expect(bo.locator("[data-action=league]")).to_have_count(0)  # the host's only
    ada.locator("[data-action=ready]").click()
    bo.locator("[data-action=ready]").click()
    start_race(ada, "Bo")
    for page in (ada, bo):
        expect(page.locator(".race-main .card.up").first).to_be_visible(timeout=15_000)
    # Each deals the stock, a move (a round scores only when two racers made one,
    # docs/rules.md), then both give up on the same board: tied first, 10 points each.
    for page in (ada, bo):
        page.get_by_role("button", name="Deal", exact=True).click()
        expect(page.locator(".racers .racer", has_text="(you)")).to_contain_text("1 move")
    give_up(ada)
    give_up(bo)
    for page in (ada, bo):
        dialog = page.get_by_role("dialog", name="Results")
        expect(dialog).to_be_visible(timeout=15_000)
        week = dialog.locator("table[data-league=week] tbody tr")
        expect(week).to_have_count(2, timeout=15_000)
        expect(week.nth(0)).to_contain_text("Ada")  # equal points and wins: by name
        expect(week.nth(0).locator("td").nth(2)).to_have_text("10")
        expect(week.nth(1).locator("td").nth(2)).to_have_text("10")
        expect(dialog.locator("table[data-league=all] tbody tr")).to_have_count(2)
    ada.get_by_role("dialog", name="Results").locator(".league").scroll_into_view_if_needed()
    ada.screenshot(path=str(screenshots / "league-results.png"))
    bo.get_by_role("dialog", name="Results").locator(".league").scroll_into_view_if_needed()
    bo.screenshot(path=str(screenshots / "league-results-390.png"))
    nothing_sideways(bo)
    ada.get_by_role("dialog", name="Results").locator("[data-action=rematch]").click()
    expect(ada.locator("table[data-league=all] tbody tr")).to_have_count(2, timeout=15_000)
    ada.screenshot(path=str(screenshots / "league-lobby.png"))
