"""Opening a room link: the room first (host, players, rules, phase), then a name and a choice
between a seat and watching; a full room offers only watching. Desktop and phone sizes."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scorpion_dev.server import ServerProcess

from .conftest import PageFactory
from .helpers import create_room

SIZES = {"desktop": (1366, 800, False), "phone": (390, 844, True)}


def visitor(new_page: PageFactory, size: str) -> Page:
    width, height, mobile = SIZES[size]
    return new_page(width, height, mobile)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_invite_shows_the_room_then_lets_a_visitor_watch(
    server: ServerProcess, new_page: PageFactory, screenshots: Path, size: str
) -> None:
    ada = new_page(1366, 800)
    link = create_room(ada, server.url, "Ada")
    expect(ada.locator(".players")).to_contain_text("Ada (you)")

    bo = visitor(new_page, size)
    bo.goto(link)
    dialog = bo.get_by_role("dialog")
    room = link.rsplit("/", 1)[1]
    heading = dialog.get_by_role("heading", name=f"You're invited to race room {room}")
    expect(heading).to_be_visible()
    expect(dialog.locator("dl")).to_contain_text("Ada")  # the host
    expect(dialog.locator("dl")).to_contain_text("Classic")
    expect(dialog.locator("dl")).to_contain_text("Waiting in the lobby")
    expect(dialog.get_by_role("list", name="Players in the room")).to_contain_text("Ada")
    expect(dialog).to_contain_text("1 of 10 seats taken")
    assert bo.evaluate("localStorage.getItem('scorpion.token')") is None  # no player yet
    box = dialog.locator("form").bounding_box()
    assert box and box["width"] <= SIZES[size][0]
    bo.screenshot(path=str(screenshots / f"invite-{size}.png"))

    # The rules of the room, from the invite, without leaving it.
    dialog.get_by_role("button", name="How to play").click()
    expect(bo.get_by_role("dialog", name="Rules: Classic")).to_be_visible()
    bo.keyboard.press("Escape")
    expect(bo.get_by_role("dialog", name="Rules: Classic")).to_have_count(0)

    dialog.get_by_label("Your name").fill("Bo")
    dialog.get_by_role("button", name="Watch", exact=True).click()
    expect(bo.locator(".players")).to_contain_text("Watching: Bo")
    expect(bo.get_by_role("button", name="Take a seat")).to_be_visible()
    expect(ada.locator(".players")).to_contain_text("Watching: Bo")
    expect(ada.locator(".players li", has_text="Bo")).to_have_count(1)  # a spectator, no seat


def test_a_full_room_offers_only_watching(server: ServerProcess, new_page: PageFactory) -> None:
    ada = new_page(1366, 800)
    ada.goto(server.url + "/")
    ada.locator("input[name=name]").fill("Ada")
    ada.locator("select[name=max_players]").select_option("2")
    ada.get_by_role("button", name="Create the room").click()
    link = ada.locator("#share-link").input_value()

    bo = visitor(new_page, "phone")
    bo.goto(link)
    bo.get_by_label("Your name").fill("Bo")
    bo.get_by_role("button", name="Let's play").click()
    expect(ada.locator(".players")).to_contain_text("Bo")

    cy = visitor(new_page, "desktop")
    cy.goto(link)
    dialog = cy.get_by_role("dialog")
    expect(dialog).to_contain_text("All 2 seats are taken")
    expect(dialog.get_by_role("button", name="Let's play")).to_have_count(0)
    dialog.get_by_label("Your name").fill("Cy")
    dialog.get_by_role("button", name="Watch the race").click()
    expect(cy.locator(".players")).to_contain_text("Watching: Cy")
    expect(cy.get_by_text("Every seat is taken")).to_be_visible()
    expect(cy.get_by_role("button", name="Take a seat")).to_have_count(0)


def test_a_name_that_looks_like_a_members_is_refused_and_changed(
    server: ServerProcess, new_page: PageFactory, screenshots: Path
) -> None:
    ada = new_page(1366, 800)
    link = create_room(ada, server.url, "Ada")
    twin = visitor(new_page, "phone")
    twin.goto(link)
    twin.get_by_role("dialog").get_by_label("Your name").fill("Ad\u0430")  # a Cyrillic а
    twin.get_by_role("dialog").get_by_role("button", name="Watch", exact=True).click()
    expect(twin.get_by_role("heading", name="Pick another name")).to_be_visible()
    expect(twin.locator("main, body").first).to_contain_text(
        "looks the same as another racer's name"
    )
    twin.screenshot(path=str(screenshots / "name-taken-phone.png"))
    twin.get_by_label("Your name in this room").fill("Ada B")
    twin.get_by_role("button", name="Join with this name").click()
    # The room's invite again, with the new name: a seat or watching, as before.
    dialog = twin.get_by_role("dialog")
    expect(dialog.get_by_label("Your name")).to_have_value("Ada B")
    dialog.get_by_role("button", name="Watch", exact=True).click()
    expect(ada.locator(".players")).to_contain_text("Watching: Ada B")
