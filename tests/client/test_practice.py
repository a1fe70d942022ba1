"""Practice as its own page: dealt at once (no invite, countdown or race clock), undo, hint,
a new deal, never ranked but counted in the statistics; the game in hand comes back on reload."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from scorpion_dev.server import ServerProcess

from .conftest import PageFactory
from .helpers import name_player

pytestmark = pytest.mark.browser


def board_text(page: Page) -> list[str]:
    cards = page.locator(".race-main .card.up")
    return [c.get_attribute("data-card") or "" for c in cards.all()]


@pytest.mark.parametrize("size", [(1366, 800, False), (390, 844, True)], ids=["desktop", "phone"])
def test_practice_is_its_own_page(
    server: ServerProcess, new_page: PageFactory, screenshots: Path, size: tuple[int, int, bool]
) -> None:
    width, height, mobile = size
    page = new_page(width, height, mobile)
    page.goto(server.url + "/#/practice/hard")
    name_player(page, "Pat")
    expect(page.get_by_role("heading", name="Practice · Hard")).to_be_visible()
    expect(page.locator(".race-main .card.up").first).to_be_visible()
    # None of a race: no share link, countdown, race clock, ranking; the Race tab is not current.
    assert page.locator("#share-link").count() == 0
    expect(page.get_by_text("Race clock")).to_have_count(0)
    expect(page.locator(".nav a[href='#/practice']")).to_have_attribute("aria-current", "page")
    expect(page.locator(".nav a[href='#/']")).not_to_have_attribute("aria-current", "page")
    for name in ("Undo", "Hint", "Auto", "New deal"):
        expect(page.get_by_role("button", name=name, exact=True)).to_be_visible()
    page.screenshot(path=str(screenshots / f"practice-{'phone' if mobile else 'desktop'}.png"))

    # The stock dealt, then undone: the board is back as dealt.
    dealt = board_text(page)
    moves = page.locator(".race-main [data-stat='moves'] b")
    stock = page.locator(".race-main .stock-slot .card.down")
    expect(stock).to_have_count(3)
    page.get_by_role("button", name="Deal", exact=True).click()
    expect(moves).to_have_text("1")
    page.reload()  # the game in hand comes back (same board, the stock dealt)
    expect(moves).to_have_text("1")
    expect(stock).to_have_count(0)
    page.get_by_role("button", name="Undo").click()
    expect(stock).to_have_count(3)
    assert board_text(page) == dealt
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#live-polite")).to_contain_text("Hint", timeout=15_000)

    # A new deal of a begun game asks first, and that game counts as given up.
    page.get_by_role("button", name="Deal", exact=True).click()
    expect(stock).to_have_count(0)
    page.get_by_role("button", name="New deal").click()
    page.locator(".overlay").get_by_role("button", name="New deal").click()
    expect(moves).to_have_text("0")
    player_id = page.evaluate("(async () => (await import('/js/api.js')).player().id)()")
    stats = httpx.get(f"{server.url}/api/players/{player_id}/stats", timeout=30).json()["stats"]
    hard = next(s for s in stats if s["preset"] == "hard")
    # It had a hint: an assisted game, counted apart from the clean ones.
    assert (hard["assisted_started"], hard["lost"], hard["won"]) == (1, 0, 0)
    games = page.evaluate("(async () => (await import('/js/api.js')).myGames())()")["games"]
    assert all(not g.get("ranked") for g in games)
