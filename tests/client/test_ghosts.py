"""Ghosts in Chromium, on a fake clock (Playwright's page.clock): on a past day's daily the
day's best and a player picked from the leaderboard race beside you at their recorded
times; the ghost race is unranked and leaves the leaderboard as it was."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from scorpion_dev.server import ServerProcess

from .conftest import PageFactory
from .helpers import name_player, nothing_sideways
from .test_share import give_up, write_won_daily

pytestmark = pytest.mark.browser


def expected(ghost: dict[str, Any], t: float) -> tuple[int, int]:
    """The recorded (runs, score) at ``t`` seconds: the last point at or before it."""
    runs, score = 0, ghost["timeline"][0][2]
    for at, r, s in ghost["timeline"]:
        if at > t:
            break
        runs, score = r, s
    return runs, score


def seconds(text: str) -> int:
    parts = [int(p) for p in text.split(":")]
    return parts[-1] + 60 * parts[-2] + (3600 * parts[0] if len(parts) == 3 else 0)


def shown(page: Page, player: str) -> tuple[int, int]:
    row = page.locator(f'.ghosts [data-ghost="{player}"]')
    runs = int(row.locator("[data-ghost-runs]").inner_text().split("/")[0])
    return runs, int(row.locator("[data-ghost-score]").inner_text())


def check_at(page: Page, ghost: dict[str, Any]) -> None:
    """The ghost shows what it had recorded at the time on your clock (within its second)."""
    t = seconds(page.locator(".race-main [role=timer]").inner_text())  # whole seconds
    within = [t] + [at for at, _, _ in ghost["timeline"] if t <= at < t + 1]
    assert shown(page, ghost["player"]) in {expected(ghost, at) for at in within}


def test_ghosts_run_at_their_recorded_times(
    server: ServerProcess, new_page: PageFactory, tmp_path: Path
) -> None:
    past = (dt.datetime.now(dt.UTC).date() - dt.timedelta(days=3)).isoformat()
    # A fast win (a move every 0.3 s or so) and Bo's give-up at 30 s: the fake clock moves in
    # small steps (a large jump would outrun the socket's heartbeat and reconnect it).
    winner = write_won_daily(server.db, past, pace=0.3, others=30.0)  # type: ignore[arg-type]
    best = httpx.get(f"{server.url}/api/ghosts/daily/{past}/{winner}").json()
    second = httpx.get(f"{server.url}/api/ghosts/daily/{past}/p_two").json()
    before = httpx.get(f"{server.url}/api/daily/{past}/leaderboard").json()
    for width, height, mobile in ((1366, 768, False), (390, 844, True)):
        page = new_page(width, height, mobile=mobile)
        page.clock.install()  # the page's clock is ours: time moves when the test says
        page.goto(f"{server.url}/#/daily/{past}")
        name_player(page, f"Gus{width}")
        panel = page.locator("[data-ghosts=panel]")
        expect(panel).to_be_visible()
        panel.locator("[data-ghost=best]").click()
        expect(panel.locator(f'[data-ghost="{winner}"]')).to_contain_text("(ghost)")
        panel.locator("[data-ghost=pick]").select_option("p_two")  # a friend, by name
        expect(panel.locator('[data-ghost="p_two"]')).to_contain_text("Bo (ghost)")
        assert shown(page, winner) == expected(best, 0)  # waiting for your start
        page.locator("[data-action=start-daily]").click()
        expect(page.locator(".race-main .card.up").first).to_be_visible()
        page.clock.pause_at(page.evaluate("Date.now()") / 1000 + 0.5)  # seconds
        timer = page.locator(".race-main [role=timer]")
        # Step the clock to past Bo's give-up (30 s), checking both ghosts at every step. The
        # server's `playing` events re-set the clock's offset to the real one: the ghosts
        # follow your clock as shown, so each step compares them with the timer.
        seen = []
        for _ in range(60):
            page.clock.run_for(1500)
            check_at(page, best)
            check_at(page, second)
            seen.append(seconds(timer.inner_text()))
            if seen[-1] > 31:
                break
        assert seen[0] <= 5 and len(seen) >= 15  # the clock went by 1.5 s steps, from the start
        # Mid-way the ghosts were neither at their start nor at their end.
        assert any(0 < shown_at < best["elapsed"] for shown_at in seen)
        row = panel.locator(f'[data-ghost="{winner}"]')
        expect(row).to_contain_text(re.compile(r"4/4 runs.*finished \d+:\d\d"))
        assert shown(page, winner) == (4, best["score"])
        expect(panel.locator('[data-ghost="p_two"]')).to_contain_text("gave up")
        nothing_sideways(page)
        page.screenshot(path=str(tmp_path / f"ghosts-{width}.png"), full_page=True)
        page.clock.resume()
        give_up(page)
        expect(page.get_by_role("heading", name="Your result")).to_be_visible()
    # Two ghost races later, the day's leaderboard is as it was.
    assert httpx.get(f"{server.url}/api/daily/{past}/leaderboard").json() == before


def test_the_ghosts_pass_axe(server: ServerProcess, new_page: PageFactory) -> None:
    from .test_a11y import serious

    past = (dt.datetime.now(dt.UTC).date() - dt.timedelta(days=2)).isoformat()
    write_won_daily(server.db, past, pace=0.3, others=30.0)  # type: ignore[arg-type]
    for width, height, mobile in ((1366, 768, False), (390, 844, True)):
        page = new_page(width, height, mobile, bypass_csp=True)  # lets the test inject axe
        page.goto(f"{server.url}/#/daily/{past}")
        name_player(page, f"Axe{width}")
        page.locator("[data-ghost=best]").click()
        page.locator("[data-ghost=pick]").select_option("p_three")
        expect(page.locator(".ghosts .racer.ghost")).to_have_count(2)
        serious(page, f"ghosts {width}x{height}")


def test_todays_ghosts_come_after_your_ranked_attempt(
    server: ServerProcess, new_page: PageFactory
) -> None:
    page = new_page(1366, 768)
    page.goto(f"{server.url}/#/daily")
    name_player(page, "Hal")
    expect(page.get_by_role("heading", name="Leaderboard")).to_be_visible()
    panel = page.locator("[data-ghosts=panel]")
    expect(panel).to_be_hidden()  # your ranked attempt is still to come
    page.locator("[data-action=start-daily]").click()
    expect(page.locator(".race-main .card.up").first).to_be_visible()
    expect(panel).to_be_hidden()  # ... and now under way: no ghost helps it
    give_up(page)
    expect(panel).to_be_visible()
    panel.locator("[data-ghost=mine]").click()
    expect(panel.locator(".racer.ghost")).to_contain_text("Hal (ghost)")
    expect(panel.locator(".racer.ghost")).to_contain_text("gave up")  # at your own time
