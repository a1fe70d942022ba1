"""The create form's undo, hints and Auto settings (issue 21), and the lobby showing them
plainly to everyone before the start."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorpion_dev.server import ServerProcess

from .conftest import PageFactory
from .helpers import create_room, name_player

pytestmark = pytest.mark.browser

FAIR_LINE = (
    "Undo any move except one that showed a card (a card turned face up, or the stock dealt):"
    " no peeking."
)


def test_the_create_form_shows_undo_hints_and_auto_apart(
    server: ServerProcess, new_page: PageFactory, screenshots: Path
) -> None:
    page = new_page(1366, 768)
    page.goto(server.url + "/")
    undo = page.get_by_role("combobox", name="Undo")
    expect(undo).to_have_value("fair")  # the default
    assert undo.locator("option").all_inner_texts() == ["Fair undo", "Full undo", "No undo"]
    expect(page.locator("#undo-explained")).to_have_text(FAIR_LINE)
    hints = page.get_by_label("Hints allowed")
    auto = page.get_by_label("Auto allowed: Auto plays moves for you")
    expect(hints).not_to_be_checked()
    expect(auto).not_to_be_checked()
    page.locator("input[name=name]").fill("Ada")
    page.screenshot(path=str(screenshots / "create-form.png"))
    undo.select_option("full")
    expect(page.locator("#undo-explained")).to_have_text(
        "Undo any move, even one that showed a card."
    )
    undo.select_option("off")
    expect(page.locator("#undo-explained")).to_have_text("Every move stands.")


def test_the_lobby_shows_the_settings_to_everyone(
    server: ServerProcess, new_page: PageFactory, screenshots: Path
) -> None:
    host = new_page(1366, 768)
    link = create_room(host, server.url, "Ada", auto=True)
    friend = new_page(390, 844, mobile=True)
    friend.goto(link)
    name_player(friend, "Bo")
    for page in (host, friend):
        settings = page.locator(".settings-list")
        expect(settings.locator("[data-setting=undo]")).to_have_text("Fair undo")
        expect(settings.locator("[data-setting=undo-line]")).to_have_text(FAIR_LINE)
        expect(settings.locator("[data-setting=hints]")).to_have_text("off")
        expect(settings.locator("[data-setting=auto]")).to_have_text(
            "allowed: Auto plays moves for you"
        )
    host.screenshot(path=str(screenshots / "lobby-settings.png"))

    other = new_page()
    create_room(other, server.url, "Cy", undo="full", hints=True)
    settings = other.locator(".settings-list")
    expect(settings.locator("[data-setting=undo]")).to_have_text("Full undo")
    expect(settings.locator("[data-setting=hints]")).to_have_text("allowed")
    expect(settings.locator("[data-setting=auto]")).to_have_text("off")
    expect(settings.locator("[data-setting=help-line]")).to_contain_text("ranks after the clean")


def test_a_room_is_unrated_unless_its_host_rates_it(
    server: ServerProcess, new_page: PageFactory, screenshots: Path
) -> None:
    host = new_page(1366, 768)
    host.goto(server.url + "/")
    expect(
        host.get_by_label("Rated: each round moves the racers' ratings for these rules")
    ).not_to_be_checked()
    link = create_room(host, server.url, "Ada")
    friend = new_page(390, 844, mobile=True)
    friend.goto(link)
    name_player(friend, "Bo")
    for page in (host, friend):
        expect(page.locator(".settings-list [data-setting=rated]")).to_have_text("no")
    expect(friend.locator("[data-action=rating]")).to_have_count(0)  # the host's only
    host.locator("[data-action=rating]").click()
    for page in (host, friend):
        expect(page.locator(".settings-list [data-setting=rated]")).to_have_text(
            "yes: each round moves the ratings (clean results only)"
        )
    expect(host.locator("[data-action=rating]")).to_have_text("Make the room unrated")
    host.screenshot(path=str(screenshots / "rated-room-host.png"))
    friend.locator(".settings-list [data-setting=rated]").scroll_into_view_if_needed()
    friend.screenshot(path=str(screenshots / "rated-room-390.png"))
    rated = create_room(host, server.url, "Ada", rated=True)  # rated from the create form
    host.goto(rated)
    expect(host.locator(".settings-list [data-setting=rated]")).to_contain_text("yes")
