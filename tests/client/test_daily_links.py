"""One browser, two players: the browser's device id (made once, sent in bodies, never in a
URL) links them, so the second is told before pressing Play that its daily attempt will be
unranked; the leaderboard marks new players, with a legend. Desktop and phone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scorpion_dev.server import ServerProcess

from .conftest import PageFactory
from .helpers import name_player, nothing_sideways
from .test_a11y import serious

pytestmark = pytest.mark.browser

LINKED = "Another player on this device has played today's ranked attempt: yours will be unranked."
NEW = "new player: account younger than a day"


def give_up(page: Page) -> None:
    page.get_by_role("button", name="Give up").click()
    page.locator(".overlay").get_by_role("button", name="Give up").click()


def test_a_second_player_in_one_browser_is_told_and_new_players_are_marked(
    server: ServerProcess, new_page: PageFactory, screenshots: Path
) -> None:
    page = new_page(1366, 768, bypass_csp=True)  # axe is injected
    urls: list[str] = []
    bodies: list[dict[str, object]] = []
    page.on("request", lambda r: urls.append(r.url))
    page.on(
        "request",
        lambda r: (
            bodies.append(json.loads(r.post_data or "{}"))
            if r.method == "POST" and r.url.endswith("/api/players")
            else None
        ),
    )
    page.goto(server.url + "/#/daily")
    name_player(page, "Ada")
    expect(page.locator("p.lead")).to_contain_text("Your first attempt today is ranked.")
    expect(page.locator("[data-daily=linked]")).to_have_count(0)
    page.locator("[data-action=start-daily]").click()
    expect(page.locator(".race-main .card.up").first).to_be_visible()
    give_up(page)
    # Ada's account is minutes old: her row is marked, and the legend says what it means.
    row = page.locator(".leaderboard tbody tr").filter(has_text="Ada")
    expect(row.locator("abbr.new-player")).to_have_text("new", timeout=15_000)
    expect(row.locator("abbr.new-player")).to_have_attribute("title", NEW)
    expect(page.locator("[data-leaderboard=legend]")).to_have_text(f"new = {NEW}")
    serious(page, "daily, a new player's row")
    page.locator(".leaderboard").locator("..").screenshot(
        path=str(screenshots / "daily-new-player.png")
    )
    device = page.evaluate("localStorage.getItem('scorpion.device')")
    assert isinstance(device, str) and len(device) == 32 and int(device, 16) >= 0

    # The same browser makes a second player (its token forgotten, its storage kept).
    page.evaluate(
        "localStorage.removeItem('scorpion.token'); localStorage.removeItem('scorpion.player')"
    )
    page.reload()
    name_player(page, "Bo")
    note = page.locator("[data-daily=linked]")
    expect(note).to_have_text(LINKED)
    start = page.locator("[data-action=start-daily]")
    expect(start).to_have_text("Play (unranked)")
    expect(page.locator("p.lead")).to_contain_text("Your attempt today is unranked.")
    note_box, start_box = note.bounding_box(), start.bounding_box()
    assert note_box and start_box and note_box["y"] < start_box["y"]  # read before the button
    nothing_sideways(page)
    serious(page, "daily, told it is unranked")
    page.screenshot(path=str(screenshots / "daily-linked.png"))
    phone = page.context.new_page()  # the same storage, on a phone-sized window
    phone.set_viewport_size({"width": 390, "height": 844})
    phone.goto(server.url + "/#/daily")
    expect(phone.locator("[data-daily=linked]")).to_have_text(LINKED)
    expect(phone.locator("[data-daily=linked]")).to_be_in_viewport()
    nothing_sideways(phone)
    phone.screenshot(path=str(screenshots / "daily-linked-phone.png"))
    phone.close()

    start.click()
    expect(page.locator("p.lead")).to_contain_text("This is an unranked attempt.")
    give_up(page)
    expect(page.locator("[data-result=place]")).to_contain_text("unranked")
    expect(page.locator(".leaderboard tbody tr")).to_have_count(1)  # Ada's only
    # Both players were made with the browser's one device id, in the body; never in a URL.
    assert [b.get("device_id") for b in bodies] == [device, device]
    assert not [u for u in urls if device in u]
    assert page.evaluate("localStorage.getItem('scorpion.device')") == device
