"""The rules page per preset (from GET /api/presets), its drawn examples, and the rules opened
over the board from the race and the lobby without leaving them."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from playwright.sync_api import expect

from scorpion_dev.server import ServerProcess

from .conftest import PageFactory
from .helpers import create_room, name_player


@pytest.mark.parametrize(("width", "height", "mobile"), [(1366, 800, False), (390, 844, True)])
def test_rules_page_per_preset(
    server: ServerProcess,
    new_page: PageFactory,
    screenshots: Path,
    width: int,
    height: int,
    mobile: bool,
) -> None:
    presets = httpx.get(server.url + "/api/presets").json()["presets"]
    page = new_page(width, height, mobile)
    page.goto(server.url + "/")
    page.get_by_role("link", name="Rules", exact=True).click()
    expect(page.get_by_role("heading", name="How to play Scorpion")).to_be_visible()
    tabs = page.get_by_role("navigation", name="Rules of each preset").get_by_role("link")
    expect(tabs).to_have_text([p["label"] for p in presets])
    for preset in presets:
        page.goto(f"{server.url}/#/rules/{preset['name']}")
        expect(page.get_by_role("heading", name=preset["label"], exact=True)).to_be_visible()
        items = page.locator(".rules-list li")
        expect(items).to_have_text(list(preset["rules"].values()))  # the referee's sentences
        expect(page.locator(".fair-results li")).to_have_count(2)  # clean/assisted, the day
        expect(page.locator(".rules-example")).to_have_count(4)
        stock = "The reserve (no stock)" if preset["name"] == "three-blind-mice" else "The deal"
        expect(page.locator(".rules-example h3").nth(2)).to_contain_text(stock)
        empty = page.locator(".rules-example").nth(3)
        any_card = preset["options"]["empty"] == "any"
        expect(empty).to_contain_text("any face-up card" if any_card else "only a King")
    page.goto(f"{server.url}/#/rules/classic")
    expect(page.locator(".rules-example")).to_have_count(4)
    size = "phone" if mobile else "desktop"
    page.screenshot(path=str(screenshots / f"rules-{size}.png"), full_page=not mobile)


def test_rules_from_the_practice_list_lobby_and_race(
    server: ServerProcess, new_page: PageFactory, screenshots: Path
) -> None:
    page = new_page(1366, 800)
    page.goto(server.url + "/#/practice")
    page.get_by_role("link", name="Rules of Wasp").click()
    expect(page.get_by_role("heading", name="Wasp", exact=True)).to_be_visible()

    # The lobby: the room's rules in a dialog; the lobby stays underneath.
    create_room(page, server.url, "Ada")
    page.get_by_role("button", name="How to play Classic").click()
    dialog = page.get_by_role("dialog", name="Rules: Classic")
    expect(dialog.locator(".rules-example")).to_have_count(4)
    dialog.get_by_role("button", name="Back to the game").click()
    expect(dialog).to_have_count(0)
    expect(page.locator("#share-link")).to_be_visible()

    # The race: "?" opens the rules over the board; the board and the clock carry on.
    race = new_page(390, 844, mobile=True)
    race.goto(server.url + "/#/practice/strict")
    name_player(race, "Solo")
    expect(race.locator(".race-main .card.up").first).to_be_visible(timeout=15_000)
    url = race.url
    help_button = race.get_by_role("button", name="Rules")
    help_button.click()
    dialog = race.get_by_role("dialog", name="Rules: Strict")
    expect(dialog.locator(".rules-list li").nth(4)).to_contain_text("lost the moment")
    race.screenshot(path=str(screenshots / "rules-in-race-phone.png"))
    assert race.url == url
    expect(race.locator(".race-main .board")).to_have_count(1)
    race.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(help_button).to_be_focused()
    expect(race.locator(".race-main .card.up").first).to_be_visible()
