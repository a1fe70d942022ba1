"""Open rooms in Chromium (issue 26): a host lists the room from its lobby; a stranger sees it
on the home page (rule set, host, racers, state) and joins it from there."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorpion_dev.server import ServerProcess

from .conftest import PageFactory
from .helpers import create_room, name_player, nothing_sideways

pytestmark = pytest.mark.browser


def test_a_listed_room_is_on_the_home_page_and_anyone_joins(
    server: ServerProcess, new_page: PageFactory, screenshots: Path
) -> None:
    ada = new_page(1366, 768)
    link = create_room(ada, server.url, "Ada", preset="easy")
    room = link.rsplit("/", 1)[1]
    expect(ada.locator(".players li", has_text="Ada (you)")).to_be_visible()
    ada.locator("[data-action=list]").click()
    expect(ada.locator("[data-action=list]")).to_have_text("Take off the open rooms")
    expect(ada.locator("[data-listed=true]")).to_be_visible()

    bo = new_page(390, 844, mobile=True)
    bo.goto(server.url + "/")
    line = bo.locator(f"[data-list=open-rooms] li[data-room='{room}']")
    expect(line).to_contain_text("Easy · Ada's room · 1/10 racers · waiting in the lobby")
    nothing_sideways(bo)
    line.scroll_into_view_if_needed()
    bo.screenshot(path=str(screenshots / "open-rooms-phone.png"))
    line.get_by_role("link", name="Join").click()
    name_player(bo, "Bo")
    expect(ada.locator(".players li", has_text="Bo")).to_be_visible()
    expect(bo.locator(".players li", has_text="Bo (you)")).to_be_visible()
    # Taken off the list: the home page no longer shows it.
    ada.locator("[data-action=list]").click()
    expect(ada.locator("[data-action=list]")).to_have_text("List publicly")
    bo.goto(server.url + "/")
    expect(bo.locator("[data-list=open-rooms]")).to_contain_text("No open room right now")
