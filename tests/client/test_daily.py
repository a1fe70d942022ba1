"""The daily challenge page: play today's deal, give up, see yourself on the leaderboard with the
server's rank at once (no reload), on a desktop with a long name and on a phone (issue 14); "playing
now" and the leaderboard kept current by the daily's aggregated events, never by polling HTTP."""

from __future__ import annotations

import datetime as dt
import json

import httpx
import pytest
from playwright.sync_api import Page, expect
from websockets.sync.client import connect

from scorpion.race.daily_feed import TOP_ROWS
from scorpion_dev.server import ServerProcess

from .conftest import PageFactory
from .helpers import name_player, nothing_sideways

pytestmark = pytest.mark.browser

DI = "W" * 24


def today() -> str:
    return dt.datetime.now(dt.UTC).date().isoformat()


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
    assert summary["leaderboard"] == {"size": 0, "top": []}

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

    # Di sees Ed playing it now: a ``playing`` event, not a request (counted from here on).
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url) if "/api/daily" in r.url else None)
    other.locator("[data-action=start-daily]").click()
    expect(other.locator(".race-main .card.up").first).to_be_visible()
    now_playing = page.get_by_role("heading", name="Playing now").locator("..")
    expect(now_playing).to_contain_text("Ed", timeout=15_000)
    expect(now_playing.locator("[data-playing=count]")).to_have_text("1 other player")
    fits_the_window(other)
    expect(other.get_by_role("button", name="Give up")).to_be_in_viewport()

    # Ed finishes: both leaderboards list him with the server's rank, without a reload.
    give_up(other)
    top = httpx.get(server.url + "/api/daily", timeout=30).json()["leaderboard"]["top"]
    ranks = {e["name"]: e["rank"] for e in top}
    assert set(ranks) == {DI, "Ed"}
    for p in (page, other):
        rows = p.locator(".leaderboard tbody tr")
        expect(rows).to_have_count(2, timeout=15_000)
        for name, rank in ranks.items():
            row = rows.filter(has_text=name[:5])
            expect(row.locator("td").first).to_have_text(str(rank))
        expect(p.locator("main")).not_to_contain_text("undefined")
    expect(other.locator("[data-result=place]")).to_contain_text(f"rank {ranks['Ed']} of 2")
    expect(now_playing.locator("[data-playing=count]")).to_have_text("Nobody else right now.")
    assert requests == []  # the events carried it all: no leaderboard fetch after others finish
    nothing_sideways(other)


def finish_over_a_socket(server: ServerProcess, name: str) -> None:
    """Another player, with no browser: starts today's daily and gives up at once."""
    player = httpx.post(server.url + "/api/players", json={"name": name}, timeout=30).json()
    with connect(server.ws_url, open_timeout=30) as ws:
        ws.send(json.dumps({"type": "hello", "token": player["token"], "daily": today()}))
        for seq, kind in enumerate(["start", "give-up"], start=1):
            ws.send(json.dumps({"type": kind, "seq": seq}))
            while (frame := json.loads(ws.recv(timeout=30))).get("seq") != seq:
                pass
            assert frame["type"] == "applied", frame


def test_your_row_below_the_top_and_its_rank_kept_current(
    server: ServerProcess, new_page: PageFactory
) -> None:
    page = new_page(1366, 900)
    page.goto(server.url + "/daily")
    name_player(page, "Flo")
    page.locator("[data-action=start-daily]").click()
    expect(page.locator(".race-main .card.up").first).to_be_visible()
    page.keyboard.press("d")  # a move more than the others below: they rank above her
    expect(page.locator(".race-main [data-stat='moves'] b")).to_have_text("1")
    give_up(page)
    expect(page.locator("[data-result=place]")).to_contain_text("rank 1 of 1")
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url) if "/api/daily" in r.url else None)
    for n in range(TOP_ROWS):
        finish_over_a_socket(server, f"Gus {n}")
    # The server's `rank` frame moves her result; her row shows below the top 10.
    place = page.locator("[data-result=place]")
    expect(place).to_contain_text(f"rank {TOP_ROWS + 1} of {TOP_ROWS + 1}", timeout=15_000)
    rows = page.locator(".leaderboard tbody tr")
    expect(rows).to_have_count(TOP_ROWS + 2)  # the top, a gap, her row
    expect(rows.last).to_contain_text("Flo")
    expect(rows.last.locator("td").first).to_have_text(str(TOP_ROWS + 1))
    size = page.locator("[data-leaderboard=size]")
    expect(size).to_have_text(f"{TOP_ROWS + 1} on the leaderboard")
    assert requests == []
