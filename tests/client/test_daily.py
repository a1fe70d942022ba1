"""The daily challenge page: play today's deal, give up, see yourself on the leaderboard with the
server's rank at once (no reload), on a desktop with a long name and on a phone (issue 14)."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Page, expect

from support.server import ServerProcess

from .conftest import PageFactory
from .helpers import name_player, nothing_sideways

pytestmark = pytest.mark.browser

DI = "W" * 24


def fits_the_window(page: Page) -> None:
    """Nothing stretches the page sideways; every column of the board ends in the window."""
    nothing_sideways(page)
    bottoms = page.evaluate(
        """() => [...document.querySelectorAll('.race-main .column')].map((c) =>
             Math.max(...[c, ...c.querySelectorAll('.card')].map((x) =>
                                                      x.getBoundingClientRect().bottom)))"""
    )
    assert bottoms and max(bottoms) <= page.viewport_size["height"]  # type: ignore[index]


def give_up(page: Page) -> None:
    page.get_by_role("button", name="Give up").click()
    page.locator(".overlay").get_by_role("button", name="Give up").click()


def test_daily_play_and_leaderboard(server: ServerProcess, new_page: PageFactory) -> None:
    summary = httpx.get(server.url + "/api/daily", timeout=30).json()
    assert summary["leaderboard"] == []

    page = new_page(1366, 768)
    page.goto(server.url + "/daily")  # the server serves the client at /daily too
    name_player(page, DI)
    expect(page.get_by_role("heading", name="Leaderboard")).to_be_visible()
    expect(page.locator(".leaderboard, section p.muted").first).to_be_visible()
    expect(page.locator("p.lead")).to_contain_text("Your first attempt today is ranked.")

    page.locator("[data-action=start-daily]").click()
    expect(page.locator(".race-main .card.up").first).to_be_visible()
    assert page.locator(".race-main .column .card.down").count() == 12  # 3 in columns 1-4
    assert page.locator(".race-main .stock-slot .card.down").count() == 3
    expect(page.locator("[role=timer]:visible")).to_have_count(1)  # one clock: your time
    expect(page.locator("p.lead")).to_contain_text("This attempt is ranked")
    fits_the_window(page)

    give_up(page)
    board = page.locator(".leaderboard")
    expect(board).to_contain_text(DI[:5], timeout=15_000)
    expect(page.get_by_role("heading", name="Your result")).to_be_visible()
    # The rank is the server's, right away; no "undefined" anywhere.
    expect(page.locator("[data-result=place]")).to_contain_text("rank 1 of 1")
    expect(board.locator("tbody tr")).to_have_count(1)
    expect(board.locator("tbody tr td").first).to_have_text("1")
    expect(page.locator("main")).not_to_contain_text("undefined")
    expect(page.locator("p.lead")).to_contain_text("Your ranked attempt is done")
    fits_the_window(page)

    # Someone else on a phone sees the same leaderboard.
    other = new_page(390, 844, mobile=True)
    other.goto(server.url + "/#/daily")
    name_player(other, "Ed")
    expect(other.locator(".leaderboard")).to_contain_text(DI[:5])

    # Di sees Ed playing it now.
    other.locator("[data-action=start-daily]").click()
    expect(other.locator(".race-main .card.up").first).to_be_visible()
    expect(page.get_by_role("heading", name="Playing now").locator("..")).to_contain_text("Ed")
    fits_the_window(other)
    expect(other.get_by_role("button", name="Give up")).to_be_in_viewport()

    # Ed finishes: both leaderboards list him with the server's rank, without a reload.
    give_up(other)
    ranks = {
        e["name"]: e["rank"]
        for e in httpx.get(server.url + "/api/daily", timeout=30).json()["leaderboard"]
    }
    assert set(ranks) == {DI, "Ed"}
    for p in (page, other):
        rows = p.locator(".leaderboard tbody tr")
        expect(rows).to_have_count(2)
        expect(p.locator("main")).not_to_contain_text("undefined")
    expect(other.locator("[data-result=place]")).to_contain_text(f"rank {ranks['Ed']} of 2")
    nothing_sideways(other)
