"""Auto (seed 004): the button and the `A` key each play one move of a winning line, announced;
Auto is offered only where it is allowed (its own room setting, issue 21), and on a lost game
it asks before giving up, like Give up, and does nothing on "Play on".

Deal 6 (classic) is won by the solver within a few dozen nodes, well inside Auto's budget;
deal 1 (classic) is proved lost at once.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scorpion_dev.server import ServerProcess

from .conftest import PageFactory
from .helpers import one_seat_race

pytestmark = pytest.mark.browser


def test_auto_plays_a_move_in_solo_practice(server: ServerProcess, new_page: PageFactory) -> None:
    page = new_page()
    one_seat_race(page, server.url, "Avi", preset="classic", deal=6, time_limit=0, auto=True)
    moves = page.locator(".race-main [data-stat='moves'] b")
    expect(moves).to_have_text("0")
    auto = page.get_by_role("button", name="Auto")
    expect(auto).to_be_visible()
    expect(auto).to_be_enabled()
    expect(page.get_by_role("button", name="Hint")).to_be_hidden()  # Auto alone: no hints
    auto.click()
    expect(moves).to_have_text("1")
    expect(page.locator("#live-polite")).to_contain_text("Auto played")
    expect(auto).to_be_enabled()  # the answer came: Auto can be pressed again
    page.keyboard.press("a")
    expect(moves).to_have_text("2")

    # Hints allowed, Auto not: Hint is offered, Auto is not.
    other = new_page()
    one_seat_race(other, server.url, "Bea", preset="classic", deal=6, time_limit=0, hints=True)
    expect(other.get_by_role("button", name="Undo")).to_be_visible()
    expect(other.get_by_role("button", name="Hint")).to_be_visible()
    expect(other.get_by_role("button", name="Auto")).to_be_hidden()


def lost_question(page: Page) -> None:
    """Press Auto until it finds the game lost (a new practice deal while it finds a line)."""
    dialog = page.get_by_role("dialog", name="Auto finds no way to win from here. Give up?")
    moves = page.locator(".race-main [data-stat='moves'] b")
    for _ in range(12):  # most classic deals are proved lost at once: 12 tries never all win
        page.get_by_role("button", name="Auto").click()
        played = moves.filter(has_not_text="0")
        expect(dialog.or_(played)).to_be_visible(timeout=15_000)
        if dialog.is_visible():
            return
        page.get_by_role("button", name="New deal").click()
        page.locator(".overlay").get_by_role("button", name="New deal").click()
        expect(moves).to_have_text("0")
    raise AssertionError("Auto found a line in twelve deals")


def test_auto_on_a_lost_practice_game_asks_and_waits(
    server: ServerProcess, new_page: PageFactory
) -> None:
    page = new_page()
    page.goto(server.url + "/")
    page.locator("input[name=name]").fill("Lou")
    page.get_by_role("button", name="Practice alone").click()
    expect(page.locator(".race-main .card.up").first).to_be_visible(timeout=15_000)
    board = page.locator(".race-main .board")
    lost_question(page)
    dealt = board.inner_html()
    # "Play on": nothing happens, the game goes on.
    page.locator(".overlay").get_by_role("button", name="Play on").click()
    expect(page.locator(".overlay")).to_have_count(0)
    assert board.inner_html() == dealt
    expect(page.get_by_role("button", name="Give up")).to_be_enabled()
    expect(page.locator("#live-assertive")).to_have_text("Auto finds no way to win from here.")
    # Asked again, "Give up" ends the game as the Give up button would.
    page.get_by_role("button", name="Auto").click()
    page.locator(".overlay").get_by_role("button", name="Give up").click()
    expect(page.get_by_role("button", name="Give up")).to_be_disabled()
