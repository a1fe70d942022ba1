"""The history page in Chromium: records, the daily calendar with its streak (the same as
the daily page's), your games with their replays; on a laptop and a phone."""

from __future__ import annotations

import datetime as dt
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scorpion_dev.server import ServerProcess

from .conftest import PageFactory
from .helpers import nothing_sideways, one_seat_race
from .test_a11y import serious

pytestmark = pytest.mark.browser


def give_up(page: Page) -> None:
    page.get_by_role("button", name="Give up").click()
    page.locator(".overlay").get_by_role("button", name="Give up").click()


def past_win(db: Path, player: str, day: str, elapsed: float) -> None:
    """A clean ranked daily won on a past day (begun at noon UTC), written behind the
    server's back."""
    noon = dt.datetime.fromisoformat(day + "T12:00:00+00:00").timestamp()
    with closing(sqlite3.connect(db)) as conn, conn:
        conn.execute(
            "INSERT INTO games (id, player_id, daily, ranked, preset, rules, deal, started, "
            "finished, result, elapsed, revealed) VALUES (?, ?, ?, 1, 'classic', "
            "'{\"preset\": \"classic\"}', '9', ?, ?, 'won', ?, 1)",
            (f"daily:{day}:1:{player}", player, day, noon, noon + elapsed, elapsed),
        )


def test_history_page(server: ServerProcess, new_page: PageFactory, screenshots: Path) -> None:
    page = new_page(1366, 768, bypass_csp=True)  # lets the test inject axe
    one_seat_race(page, server.url, "Hana", deal=3)  # a race round, given up
    give_up(page)
    expect(page.locator('[data-action="replay"]')).to_be_visible()
    page.goto(server.url + "/#/daily")  # today's ranked daily, given up
    page.locator("[data-action=start-daily]").click()
    expect(page.locator(".race-main .card.up").first).to_be_visible()
    give_up(page)
    expect(page.locator("[data-result=place]")).to_contain_text("rank 1 of 1")
    player = page.evaluate("JSON.parse(localStorage.getItem('scorpion.player')).id")
    yesterday = (dt.datetime.now(dt.UTC).date() - dt.timedelta(days=1)).isoformat()
    past_win(server.db, player, yesterday, 131.0)  # type: ignore[arg-type]
    # The daily page's streak says what it counts: one day (yesterday's win).
    page.reload()
    streak = page.locator("[data-streak=counts]")
    expect(streak).to_contain_text("Ranked dailies won, days in a row")
    expect(page.locator(".stat-card").first).to_contain_text("1")

    page.goto(server.url + "/#/stats")
    page.get_by_role("link", name="Your history").click()
    expect(page.get_by_role("heading", name="Your history")).to_be_visible()
    record = page.locator("[data-preset=classic]")
    expect(record.locator("[data-record=best]")).to_have_text("2:11")  # the clean daily win
    expect(record.locator("[data-record=rate]")).to_have_text("33%")  # 1 won of 3 finished
    expect(record.locator(".recent-chart rect")).to_have_count(3)
    expect(page.locator("[data-streak=daily]")).to_contain_text("Streak 1 (best 1)")
    today = dt.datetime.now(dt.UTC).date().isoformat()
    if today[:7] != yesterday[:7]:  # the calendar opens on this month
        page.get_by_role("button", name="Previous month").click()
    cell = page.locator(f'.calendar [data-date="{yesterday}"]')
    expect(cell).to_have_class("day won")
    expect(cell).to_contain_text(f"{yesterday}: won in 2:11, rank 1 of 1")  # its name
    rows = page.locator(".history-table tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_contain_text("opens")  # today's daily: once the day closes
    expect(rows.nth(1)).to_contain_text("Race, round 1")
    serious(page, "history")
    page.screenshot(path=str(screenshots / "history.png"), full_page=True)
    rows.nth(1).get_by_role("link", name="Watch the replay of Race, round 1").click()
    expect(page.locator(".replay[data-ready]")).to_be_visible()
    expect(page.locator(".replay-racer .replay-name")).to_contain_text("Hana")

    phone = new_page(390, 844, mobile=True)
    phone.goto(server.url + "/#/history")  # a new browser with no player yet
    expect(phone.locator(".history")).to_contain_text("Play a game first")
    # The same player on the phone (its token, as "Use on another device" would give one).
    saved = page.evaluate(
        "[localStorage.getItem('scorpion.token'), localStorage.getItem('scorpion.player')]"
    )
    phone.evaluate(
        "([token, player]) => { localStorage.setItem('scorpion.token', token);"
        " localStorage.setItem('scorpion.player', player); }",
        saved,
    )
    phone.reload()
    expect(phone.locator(".history-table tbody tr")).to_have_count(3)
    expect(phone.locator("[data-preset=classic] [data-record=best]")).to_have_text("2:11")
    nothing_sideways(phone)
    phone.screenshot(path=str(screenshots / "history-phone.png"), full_page=True)
