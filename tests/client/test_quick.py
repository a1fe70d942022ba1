"""The quick race in Chromium (issue 26): "Race anyone now" on the home page, the queue panel
(how many wait, how long, leave), four strangers called into one fair room, and the button
again after the results. Ada on a laptop, Bo on a phone, Cy and Di on laptops."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, Route, expect

from scorpion_dev.server import ServerProcess

from .conftest import PageFactory
from .helpers import name_player, nothing_sideways

pytestmark = pytest.mark.browser


def queue_from_home(page: Page, base: str, name: str, preset: str = "classic") -> None:
    page.goto(base + "/")
    page.locator("input[name=name]").fill(name)
    page.locator("select[name=quick_preset]").select_option(preset)
    page.get_by_role("button", name="Race anyone now").click()
    expect(page.locator(".quick-panel")).to_be_visible()


def queue_by_link(page: Page, base: str, name: str) -> None:
    """Open the queue's link as a new player (the fourth is called into a room at once)."""
    page.goto(base + "/#/quick/classic")
    name_player(page, name)


def give_up(page: Page) -> None:
    page.get_by_role("button", name="Give up").click()
    page.locator(".overlay").get_by_role("button", name="Give up").click()


def test_race_anyone_now_queue_and_room(
    server: ServerProcess, new_page: PageFactory, screenshots: Path
) -> None:
    ada = new_page(1366, 768)
    ada.goto(server.url + "/")
    expect(ada.get_by_role("heading", name="Race anyone now")).to_be_visible()
    ada.screenshot(path=str(screenshots / "quick-home.png"))
    queue_from_home(ada, server.url, "Ada")
    waiting = ada.locator("[data-quick=waiting]")
    expect(waiting).to_have_text("You are the only one waiting for now.")
    expect(ada.locator("[data-quick=waited]")).to_contain_text("You have waited")
    expect(ada.locator("[data-quick=how]")).to_contain_text("as soon as 4 are here")
    # Leaving the queue: back home, and out of it (the server says so).
    ada.get_by_role("button", name="Leave the queue").click()
    expect(ada.get_by_role("heading", name="Race anyone now")).to_be_visible()
    status = ada.evaluate(
        """() => fetch("/api/quick", {headers: {Authorization:
             `Bearer ${localStorage.getItem("scorpion.token")}`}}).then((r) => r.json())"""
    )
    assert status == {"queued": False}
    queue_from_home(ada, server.url, "Ada")

    bo = new_page(390, 844, mobile=True)
    queue_by_link(bo, server.url, "Bo")
    expect(bo.locator(".quick-panel")).to_be_visible()
    expect(waiting).to_have_text("2 players waiting, you included.")
    expect(bo.locator("[data-quick=waiting]")).to_have_text("2 players waiting, you included.")
    nothing_sideways(bo)
    ada.screenshot(path=str(screenshots / "quick-queue.png"))
    bo.screenshot(path=str(screenshots / "quick-queue-phone.png"))

    cy, di = new_page(1366, 768), new_page(1366, 768)
    queue_by_link(cy, server.url, "Cy")
    expect(waiting).to_have_text("3 players waiting, you included.")
    queue_by_link(di, server.url, "Di")  # the fourth: a room forms at once
    pages = (ada, bo, cy, di)
    for page in pages:  # everyone is called into the same room, seated, and the race starts
        expect(page.locator(".race-main")).to_be_visible(timeout=30_000)
    rooms = {page.url.split("#/r/")[1] for page in pages}
    assert len(rooms) == 1
    expect(bo.get_by_role("button", name="Hint")).to_have_count(0)  # fair rules: no hints
    bo.screenshot(path=str(screenshots / "quick-race-phone.png"))
    for page in pages:
        give_up(page)
    results = ada.get_by_role("dialog", name="Results")
    expect(results).to_be_visible()
    # The rating change, once the server rated the race (all gave up: tied last).
    mine = results.locator("[data-rating=mine]")
    expect(mine).to_contain_text("Your provisional rating (1 rated race): 1000 → ", timeout=20_000)
    expect(results.locator("th", has_text="Rating")).to_be_visible()
    expect(results.locator("td[data-rating]")).to_have_count(4)
    expect(results.locator("td[data-rating] small")).to_have_text(["provisional"] * 4)
    again = results.locator("[data-action=quick]")
    expect(again).to_have_text("Race anyone now")
    ada.screenshot(path=str(screenshots / "quick-results.png"))
    again.click()  # after the result: the same rules' queue again
    expect(ada.locator(".quick-panel h1")).to_have_text("Finding racers: Classic")
    expect(waiting).to_have_text("You are the only one waiting for now.")
    # The history keeps the rating per rule set with its chart.
    ada.goto(server.url + "/#/history")
    section = ada.locator("[data-history=ratings]")
    expect(section.locator("[data-rating=now]")).to_contain_text("(provisional) after 1 rated race")
    points = section.locator("svg.rating-chart polyline").get_attribute("points")
    assert points is not None and len(points.split()) == 2  # before, then after its one race
    section.scroll_into_view_if_needed()
    ada.screenshot(path=str(screenshots / "quick-rating-history.png"))


def test_practise_while_waiting_and_be_called_into_the_room(
    server: ServerProcess, new_page: PageFactory, screenshots: Path
) -> None:
    """Ada practises while she waits; three strangers join the queue (over HTTP); she is
    called (a notice with a button) and goes into the room the queue formed."""
    ada = new_page(390, 844, mobile=True)
    queue_from_home(ada, server.url, "Ada")
    ada.locator("[data-action=practise-waiting]").click()
    expect(ada.locator(".race-main .card.up").first).to_be_visible(timeout=15_000)  # practice
    notice = ada.locator("[data-queue=watch]")
    expect(notice).to_contain_text("Waiting for a Classic race: nobody else yet")
    ada.screenshot(path=str(screenshots / "quick-practise-waiting-390.png"))
    tokens = []
    for name in ("Bo", "Cy", "Di"):
        made = httpx.post(server.url + "/api/players", json={"name": name}, timeout=30).json()
        tokens.append(made["token"])
    for token in tokens:  # the fourth forms the room at once
        answer = httpx.post(
            server.url + "/api/quick",
            json={"preset": "classic"},
            headers={"Authorization": f"Bearer {token}"},
            timeout=30,
        ).json()
    room = answer["room"]
    assert room
    expect(notice).to_contain_text("Racers found!", timeout=15_000)
    expect(notice.locator("[data-action=go-race]")).to_have_attribute("href", f"#/r/{room}")
    ada.screenshot(path=str(screenshots / "quick-practise-called-390.png"))
    notice.locator("[data-action=go-race]").click()
    expect(ada.locator("[data-queue=watch]")).to_have_count(0)
    assert ada.evaluate("() => location.hash") == f"#/r/{room}"
    nothing_sideways(ada)


def test_practise_before_the_join_is_answered_still_waits_in_the_queue(
    server: ServerProcess, new_page: PageFactory
) -> None:
    """A slow join (held here): Practise while waiting pressed before its answer still keeps
    the place, as the watcher asks where Ada stands only once the join is answered."""
    ada = new_page(1366, 768)
    held: list[Route] = []
    ada.route(  # the join (a POST) held; the asks where Ada stands go on
        "**/api/quick",
        lambda route: held.append(route) if route.request.method == "POST" else route.continue_(),
    )
    ada.goto(server.url + "/")
    ada.locator("input[name=name]").fill("Ada")
    ada.get_by_role("button", name="Race anyone now").click()
    expect(ada.locator("[data-quick=waiting]")).to_have_text("Joining the queue…")
    ada.locator("[data-action=practise-waiting]").click()
    expect(ada.locator(".race-main .card.up").first).to_be_visible(timeout=15_000)
    assert len(held) == 1
    held[0].continue_()
    notice = ada.locator("[data-queue=watch]")
    expect(notice).to_contain_text("Waiting for a Classic race: nobody else yet")
    expect(notice).not_to_contain_text("no longer", timeout=3_000)


def test_going_elsewhere_while_practising_leaves_the_queue(
    server: ServerProcess, new_page: PageFactory, screenshots: Path
) -> None:
    ada = new_page(1366, 768)
    queue_from_home(ada, server.url, "Ada")
    ada.locator("[data-action=practise-waiting]").click()
    expect(ada.locator(".race-main .card.up").first).to_be_visible(timeout=15_000)
    expect(ada.locator("[data-queue=watch]")).to_contain_text("Waiting for a Classic race")
    ada.screenshot(path=str(screenshots / "quick-practise-waiting.png"))
    ada.goto(server.url + "/#/stats")  # elsewhere: out of the queue (the server says so)
    expect(ada.locator("[data-queue=watch]")).to_have_count(0)
    # The leave is a request of its own: wait until the server answers "not queued".
    ada.wait_for_function(
        """async () => (await fetch("/api/quick", {headers: {Authorization:
             `Bearer ${localStorage.getItem("scorpion.token")}`}}).then((r) => r.json()))
             .queued === false"""
    )
