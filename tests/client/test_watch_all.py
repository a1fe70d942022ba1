"""A spectator watches every racer's board at once (issue 22, "Watch everyone live"): side by
side on a laptop, one large and the others small on a phone, each masked exactly as a followed
board, live as the racers move; a click enlarges one; the room says how many watch."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scorpion_dev.server import ServerProcess

from .conftest import PageFactory
from .helpers import card, create_room, name_player, start_race, tap

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("width", "height", "mobile"), [(1366, 768, False), (390, 844, True)])
def test_a_spectator_watches_every_board_live(
    server: ServerProcess, new_page: PageFactory, width: int, height: int, mobile: bool
) -> None:
    ada, bo = new_page(), new_page()
    link = create_room(ada, server.url, "Ada", deal=1)
    bo.goto(link)
    name_player(bo, "Bo")
    expect(ada.locator(".players li")).to_have_count(2)
    ada.locator("[data-action=ready]").click()
    bo.locator("[data-action=ready]").click()
    start_race(ada, "Bo")
    for page in (ada, bo):
        expect(card(page, "JH")).to_be_visible(timeout=15_000)

    cy = new_page(width, height, mobile)
    cy.goto(link)
    name_player(cy, "Cy")  # mid-race: a late arrival watches
    expect(cy.locator("[data-watching=count]")).to_have_text("1 person watching")
    expect(ada.locator("[data-watching=count]")).to_have_text("1 person watching")
    cy.locator("[data-action=watch-all]").click()
    watch = cy.locator(".watch-all")
    expect(watch).to_be_visible()
    boards = watch.locator(".replay-racer")
    if mobile:  # one large, the other small above it
        expect(boards).to_have_count(1)
        expect(watch.locator(".replay-thumb")).to_have_count(1)
    else:
        expect(boards).to_have_count(2)
        expect(watch.locator(".replay-racer .replay-name")).to_have_text(["Ada", "Bo"])
    # The boards as the racers have them (the server masks what is face down anywhere).
    first = boards.first
    expect(first.locator(".card.up[data-card='JH']")).to_be_visible()

    # Ada moves the 2H onto the 3H: her board changes live for Cy.
    tap(ada, "2H")
    ada_board = watch.locator(".replay-racer[data-racer]", has_text="Ada").first
    expect(ada_board.locator(".column[data-col='5'] .card[data-card='2H']")).to_be_visible()

    if not mobile:
        # A click enlarges Bo's board: it alone is large, Ada's is small above it.
        watch.locator(".replay-racer").nth(1).get_by_role("button", name="Enlarge").click()
        expect(boards).to_have_count(1)
        expect(boards.first.locator(".replay-name")).to_contain_text("Bo")
        expect(watch.locator(".replay-thumb")).to_have_count(1)
    else:
        watch.locator(".replay-thumb").click()  # the phone's strip: Bo's board large now
        expect(boards.first.locator(".replay-name")).to_contain_text("Bo")

    cy.locator("[data-action=unwatch-all]").click()
    expect(watch).to_have_count(0)
    expect(cy.locator("[data-action=watch-all]")).to_be_visible()
