"""The host's controls in the lobby: remove a seated player (who then watches), lock the room
(a newcomer's invite offers only watching), hand over the host role; anyone reports a name."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scorpion_dev.server import ServerProcess, scorpion_reports

from .conftest import PageFactory
from .helpers import create_room, name_player

pytestmark = pytest.mark.browser


def test_host_removes_locks_and_hands_over(server: ServerProcess, new_page: PageFactory) -> None:
    ada = new_page(1366, 800)
    link = create_room(ada, server.url, "Ada")
    bo = new_page(390, 844, True)
    bo.goto(link)
    name_player(bo, "Bo")
    expect(ada.locator(".players")).to_contain_text("Bo")
    expect(bo.get_by_role("button", name="I'm ready")).to_be_visible()
    # Only the host sees Remove and Make host; Bo may report Ada's name.
    expect(bo.get_by_role("button", name="Remove Ada from the seats")).to_have_count(0)
    expect(bo.get_by_role("button", name="Report name: Ada")).to_be_visible()

    ada.get_by_role("button", name="Remove Bo from the seats").click()
    ada.locator(".overlay").get_by_role("button", name="Remove").click()
    expect(bo.locator(".players")).to_contain_text("Watching: Bo (you)")
    expect(bo.get_by_role("button", name="Take a seat")).to_be_visible()
    bo.get_by_role("button", name="Take a seat").click()
    expect(bo.locator("#toast")).to_contain_text("removed you")

    ada.get_by_role("button", name="Lock the room").click()
    expect(ada.get_by_role("button", name="Unlock the room")).to_be_visible()
    expect(bo.locator("[data-locked]")).to_be_visible()
    cy = new_page(1366, 800)
    cy.goto(link)
    dialog = cy.get_by_role("dialog")
    expect(dialog).to_contain_text("locked")
    expect(dialog.get_by_role("button", name="Let's play")).to_have_count(0)
    dialog.get_by_label("Your name").fill("Cy")
    dialog.get_by_role("button", name="Watch the race").click()
    expect(cy.locator(".players")).to_contain_text("Watching: Cy (you)")
    ada.get_by_role("button", name="Unlock the room").click()
    cy.get_by_role("button", name="Take a seat").click()
    expect(ada.locator(".players")).to_contain_text("Cy")

    ada.get_by_role("button", name="Make host: Cy").click()
    ada.locator(".overlay").get_by_role("button", name="Make host").click()
    expect(cy.get_by_role("button", name="Start the race")).to_be_visible()
    expect(ada.get_by_role("button", name="Start the race")).to_have_count(0)
    expect(cy.get_by_role("button", name="Remove Ada from the seats")).to_be_visible()

    cy.get_by_role("button", name="Report name: Bo").click()
    cy.locator(".overlay").get_by_role("button", name="Report").click()
    expect(cy.locator("#toast")).to_contain_text("Reported")
    out = scorpion_reports(server.db)
    assert '"Bo"' in out
