"""Solo practice starts at once; the client survives the server going away: a visible banner,
commands made meanwhile are kept and sent after the reconnect, and the game resumes."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorpion_dev.server import ServerProcess

from .conftest import PageFactory
from .helpers import name_player

pytestmark = pytest.mark.browser


def test_practice_survives_a_server_restart(
    server: ServerProcess, new_page: PageFactory, screenshots: Path
) -> None:
    page = new_page(390, 844, mobile=True)  # a phone in portrait
    page.goto(server.url + "/#/practice/classic")
    name_player(page, "Solo")
    expect(page.locator(".race-main .card.up").first).to_be_visible(timeout=15_000)
    page.wait_for_timeout(300)
    page.screenshot(path=str(screenshots / "phone.png"))
    stock = page.locator(".race-main .stock-slot .card.down")
    expect(stock).to_have_count(3)
    before = page.locator(".race-main .column .card.up").evaluate_all(
        "cards => cards.map(c => c.dataset.card)"
    )

    page.get_by_role("button", name="Deal", exact=True).click()
    expect(stock).to_have_count(0)
    expect(page.locator(".race-main [data-stat='moves'] b")).to_have_text("1")

    server.kill()
    banner = page.locator("#banner")
    expect(banner).to_be_visible(timeout=15_000)
    expect(banner).to_contain_text("Connection lost")

    # Undo while the server is down: kept, and sent once the socket is back.
    page.get_by_role("button", name="Undo").click()
    server.start()
    expect(stock).to_have_count(3, timeout=20_000)
    expect(banner).to_be_hidden(timeout=10_000)
    after = page.locator(".race-main .column .card.up").evaluate_all(
        "cards => cards.map(c => c.dataset.card)"
    )
    assert after == before

    # Practice goes on: give up, then a new deal starts at once.
    page.get_by_role("button", name="Give up").click()
    page.locator(".overlay").get_by_role("button", name="Give up").click()
    page.get_by_role("button", name="New deal").click()
    expect(stock).to_have_count(3, timeout=15_000)
    expect(page.locator(".race-main [data-stat='moves'] b")).to_have_text("0")
    expect(page.get_by_role("button", name="Give up")).to_be_enabled()
