"""The daily challenge page: play today's deal, give up, see yourself on the leaderboard."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import expect

from support.server import ServerProcess

from .conftest import PageFactory
from .helpers import name_player

pytestmark = pytest.mark.browser


def test_daily_play_and_leaderboard(server: ServerProcess, new_page: PageFactory) -> None:
    summary = httpx.get(server.url + "/api/daily", timeout=30).json()
    assert summary["leaderboard"] == []

    page = new_page()
    page.goto(server.url + "/daily")  # the server serves the client at /daily too
    name_player(page, "Di")
    expect(page.get_by_role("heading", name="Leaderboard")).to_be_visible()
    expect(page.locator(".leaderboard, section p.muted").first).to_be_visible()

    page.locator("[data-action=start-daily]").click()
    expect(page.locator(".race-main .card.up").first).to_be_visible()
    assert page.locator(".race-main .column .card.down").count() == 12  # 3 in columns 1-4
    assert page.locator(".race-main .stock-slot .card.down").count() == 3

    page.get_by_role("button", name="Give up").click()
    page.locator(".overlay").get_by_role("button", name="Give up").click()
    board = page.locator(".leaderboard")
    expect(board).to_contain_text("Di", timeout=15_000)
    expect(page.get_by_role("heading", name="Your result")).to_be_visible()

    # Someone else opening the daily sees the same leaderboard.
    other = new_page()
    other.goto(server.url + "/#/daily")
    name_player(other, "Ed")
    expect(other.locator(".leaderboard")).to_contain_text("Di")

    # Di sees Ed playing it now.
    other.locator("[data-action=start-daily]").click()
    expect(other.locator(".race-main .card.up").first).to_be_visible()
    expect(page.get_by_role("heading", name="Playing now").locator("..")).to_contain_text("Ed")
