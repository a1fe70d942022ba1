"""The replay page in Chromium: play, pause, scrub and step on a laptop and a phone; the
link from the results; a daily's replay before its day closes says when it opens."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from scorpion_dev.replays import write_daily, write_round
from scorpion_dev.server import ServerProcess

from .conftest import PageFactory
from .helpers import one_seat_race

pytestmark = pytest.mark.browser

PLAYERS = [("p_ada", "Ada"), ("p_bo", "Bo"), ("p_cy", "Cy")]
MOVES = 30


def clock_text(page: Page) -> str:
    return page.locator(".replay-clock").inner_text()


def first_column(page: Page, racer: int) -> list[str]:
    column = page.locator(f'.replay-racer[data-racer="{racer}"] .column').first
    return [c.get_attribute("data-key") or "" for c in column.locator(".card").all()]


def open_replay(page: Page, server: ServerProcess) -> None:
    page.goto(f"{server.url}/replay/room/roomx/1")  # the server's path: the page routes it
    expect(page.locator(".replay[data-ready]")).to_be_visible()
    assert page.url.endswith("#/replay/room/roomx/1")


def check_controls(page: Page, racer: int) -> None:
    """Step, scrub, play and pause on the board of ``racer`` (shown large)."""
    counter = page.locator(".replay-count")
    expect(counter).to_have_text(f"move 0 of {len(PLAYERS) * MOVES}")
    expect(page.locator('[data-action="back"]')).to_be_disabled()
    start = first_column(page, racer)
    moves = page.locator(f'.replay-racer[data-racer="{racer}"] .stat').nth(2)  # runs, score, moves
    # Step forward until this racer's board changes, then back: the start comes back.
    for _ in range(len(PLAYERS) * 3):
        page.click('[data-action="forward"]')
        if first_column(page, racer) != start or moves.inner_text().startswith("1"):
            break
    expect(counter).not_to_have_text(f"move 0 of {len(PLAYERS) * MOVES}")
    assert clock_text(page) != "0:00" or page.locator(".replay-count").inner_text() != ""
    steps = int(re.findall(r"move (\d+)", counter.inner_text())[0])
    for _ in range(steps):
        page.click('[data-action="back"]')
    expect(counter).to_have_text(f"move 0 of {len(PLAYERS) * MOVES}")
    assert first_column(page, racer) == start
    # The scrubber: to the end, every game given up; the cursor follows on the chart.
    cursor_x = page.locator(".replay-cursor").get_attribute("x1")
    page.locator(".replay-scrub").fill("100000")
    expect(counter).to_have_text(f"move {len(PLAYERS) * MOVES} of {len(PLAYERS) * MOVES}")
    expect(page.locator(".replay-status").first).to_contain_text("gave up")
    assert page.locator(".replay-cursor").get_attribute("x1") != cursor_x
    page.locator(".replay-scrub").fill("0")
    expect(counter).to_have_text(f"move 0 of {len(PLAYERS) * MOVES}")
    # Play at 16x: the clock runs; pause stops it.
    page.click('[data-speed="16"]')
    expect(page.locator('[data-speed="16"]')).to_have_attribute("aria-pressed", "true")
    page.click('[data-action="play"]')
    expect(page.locator('[data-action="play"]')).to_have_text("Pause")
    expect(counter).not_to_have_text(f"move 0 of {len(PLAYERS) * MOVES}")
    page.click('[data-action="play"]')
    expect(page.locator('[data-action="play"]')).to_have_text("Play")
    paused = counter.inner_text()
    page.wait_for_timeout(300)  # paused: nothing moves in the meantime
    assert counter.inner_text() == paused


def test_replay_on_a_laptop_and_a_phone(
    server: ServerProcess, new_page: PageFactory, screenshots: Path
) -> None:
    write_round(server.db, "roomx", PLAYERS, MOVES)  # type: ignore[arg-type]
    page = new_page(1366, 768)
    open_replay(page, server)
    assert page.locator(".replay-racer").count() == len(PLAYERS)  # side by side
    boxes = [page.locator(".replay-racer").nth(i).bounding_box() for i in range(len(PLAYERS))]
    assert len({round(b["y"]) for b in boxes if b}) == 1  # one row
    assert all(b and b["x"] + b["width"] <= 1366 for b in boxes)
    assert page.locator(".replay-racer button").count() == 0  # read-only boards
    check_controls(page, 0)
    page.locator(".replay-scrub").fill("12")
    page.screenshot(path=str(screenshots / "replay.png"))

    phone = new_page(390, 844, mobile=True)
    open_replay(phone, server)
    assert phone.locator(".replay-racer").count() == 1  # one large
    assert phone.locator(".replay-thumb").count() == len(PLAYERS) - 1
    phone.locator(".replay-thumb").nth(1).tap()  # Cy's board, enlarged
    expect(phone.locator(".replay-racer .replay-name")).to_contain_text("Cy")
    expect(phone.locator('.replay-racer[data-racer="2"]')).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    check_controls(phone, 2)
    phone.screenshot(path=str(screenshots / "replay-phone.png"))


def test_the_results_link_to_the_replay_and_an_early_daily_says_when(
    server: ServerProcess, new_page: PageFactory
) -> None:
    write_round(server.db, "roomx", PLAYERS, MOVES)  # type: ignore[arg-type]
    page = new_page(1366, 768)
    page.goto(f"{server.url}/#/replay/daily/2999-01-01/p_ada")
    expect(page.locator("[data-replay-error]")).to_contain_text("No replay here")
    # Today's daily: closed to everyone until the day closes; the page says when.
    today = httpx.get(f"{server.url}/api/daily").json()["date"]
    page.goto(f"{server.url}/#/replay/daily/{today}/p_ada")
    error = page.locator('[data-replay-error="day-not-closed"]')
    expect(error).to_contain_text("open when the day closes")
    page.goto(f"{server.url}/#/replay/room/roomx/9")
    expect(page.locator('[data-replay-error="unknown-replay"]')).to_be_visible()
    # Played out in a real room: the results offer the replay, which shows that game.
    one_seat_race(page, server.url, "Kay", deal=3)
    page.keyboard.press("d")  # deal the stock
    expect(page.locator(".race-main .stock-slot")).to_have_class(re.compile("dealt"))
    page.get_by_role("button", name="Give up").click()
    page.locator(".overlay").get_by_role("button", name="Give up").click()
    page.locator('[data-action="replay"]').click()
    expect(page.locator(".replay[data-ready]")).to_be_visible()
    expect(page.locator(".replay-count")).to_have_text("move 0 of 2")
    expect(page.locator(".replay-racer .replay-name")).to_contain_text("Kay")
    page.click('[data-action="forward"]')
    expect(page.locator(".replay-racer .stock-slot")).to_have_class(re.compile("dealt"))


def test_a_past_days_leaderboard_links_to_its_replays(
    server: ServerProcess, new_page: PageFactory
) -> None:
    past = (dt.datetime.now(dt.UTC).date() - dt.timedelta(days=2)).isoformat()
    write_daily(server.db, past, [("p_kim", "Kim"), ("p_lou", "Lou")], 12)  # type: ignore[arg-type]
    page = new_page(1366, 768)
    page.goto(f"{server.url}/#/daily/{past}")
    page.locator(".overlay input").fill("Viewer")  # the daily asks a name first
    page.locator(".overlay form button.primary").click()
    link = page.get_by_role("link", name="Replay of Lou's game")
    expect(link).to_be_visible()
    link.click()
    expect(page.locator(".replay[data-ready]")).to_be_visible()
    expect(page.locator(".replay-head h1")).to_have_text(f"Daily {past} · Lou")
    expect(page.locator(".replay-count")).to_have_text("move 0 of 12")
    page.locator(".replay-scrub").fill("100000")
    expect(page.locator(".replay-status")).to_contain_text("gave up")


def test_the_replay_page_passes_axe(server: ServerProcess, new_page: PageFactory) -> None:
    from .test_a11y import AXE, serious

    write_round(server.db, "roomx", PLAYERS, MOVES)  # type: ignore[arg-type]
    for width, height, mobile in ((1366, 768, False), (390, 844, True)):
        page = new_page(width, height, mobile, bypass_csp=True)  # lets the test inject axe
        assert AXE.is_file(), "npm ci --prefix tests/client/axe"
        open_replay(page, server)
        page.locator(".replay-scrub").fill("10")
        serious(page, f"replay {width}x{height}")
