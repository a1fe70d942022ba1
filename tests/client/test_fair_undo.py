"""Fair undo (issue 21) on screen: after a move that showed a card, Undo is off with a short
line by it saying why; an undo sent anyway (the U key) is refused and explained there too.
Practice keeps full undo."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scorpion_dev.server import ServerProcess

from .conftest import PageFactory
from .helpers import one_seat_race

pytestmark = pytest.mark.browser

LINE = "Undo can't take back a move that showed a card"


def test_the_undo_refusal_is_said_by_the_undo_button(
    server: ServerProcess, new_page: PageFactory
) -> None:
    page = new_page()
    one_seat_race(page, server.url, "Fay", preset="classic", deal=4, time_limit=0)
    undo = page.get_by_role("button", name="Undo")
    note = page.locator(".hud .undo-note")
    stock = page.locator(".race-main .stock-slot .card.down")
    expect(stock).to_have_count(3)
    page.get_by_role("button", name="Deal", exact=True).click()
    expect(stock).to_have_count(0)
    # Told ahead: Undo is off, and the line by it says why.
    expect(undo).to_be_disabled()
    expect(note).to_have_text(LINE)
    # Sent anyway with the U key: refused where it happens, the board unchanged.
    page.evaluate("document.querySelector('.hud .undo-note').textContent = ''")
    page.keyboard.press("u")
    expect(note).to_have_text(LINE)
    expect(page.locator("#live-assertive")).to_have_text(LINE)
    expect(stock).to_have_count(0)
    expect(page.locator(".race-main [data-stat='moves'] b")).to_have_text("1")


def test_practice_keeps_full_undo(server: ServerProcess, new_page: PageFactory) -> None:
    page = new_page()
    page.goto(server.url + "/")
    page.locator("input[name=name]").fill("Gus")
    page.get_by_role("button", name="Practice alone").click()
    stock = page.locator(".race-main .stock-slot .card.down")
    expect(stock).to_have_count(3, timeout=15_000)
    page.get_by_role("button", name="Deal", exact=True).click()
    expect(stock).to_have_count(0)
    expect(page.locator(".hud .undo-note")).to_be_hidden()
    page.get_by_role("button", name="Undo").click()
    expect(stock).to_have_count(3)
