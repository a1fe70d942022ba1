"""The statistics page's rating leaderboard in Chromium: a rule set's players with 10 rated
races or more, best first, names as text; another rule set picked; nobody listed yet."""

from __future__ import annotations

import sqlite3
import time
from contextlib import closing
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import expect

from scorpion_dev.server import ServerProcess

from .conftest import PageFactory
from .helpers import nothing_sideways

pytestmark = pytest.mark.browser


def rated_player(server: ServerProcess, name: str, mu: float, races: int) -> None:
    """A player with ``races`` rated Classic races, written behind the server's back."""
    made = httpx.post(server.url + "/api/players", json={"name": name}, timeout=30).json()
    with closing(sqlite3.connect(server.db)) as conn, conn:  # type: ignore[arg-type]
        conn.execute(
            "INSERT INTO ratings (player_id, preset, mu, sigma, races, updated) "
            "VALUES (?, 'classic', ?, 2.0, ?, ?)",
            (made["player"]["id"], mu, races, time.time()),
        )


def test_the_rating_leaderboard_of_a_rule_set(
    server: ServerProcess, new_page: PageFactory, screenshots: Path
) -> None:
    rated_player(server, "<b>Ada</b>", 30.0, 12)  # a name is text, never markup
    rated_player(server, "Bo", 28.0, 10)
    rated_player(server, "Cy", 40.0, 9)  # 9 rated races: not listed yet
    page = new_page(390, 844, mobile=True)
    page.goto(server.url + "/#/stats")
    board = page.locator("[data-ratings=board]")
    rows = board.locator("tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("<b>Ada</b>")  # shown as typed
    expect(rows.nth(0).locator("td").nth(2)).to_have_text("1960")  # 1000 + 40 * (30 - 3 * 2)
    expect(rows.nth(1)).to_contain_text("Bo")
    nothing_sideways(page)
    board.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "rating-leaderboard-390.png"))
    page.get_by_label("Rules of the leaderboard").select_option("easy")
    expect(board.locator("[data-ratings=empty]")).to_have_text(
        "Nobody has 10 rated Easy races yet: race anyone now to be the first."
    )
