"""Sharing in Chromium: the results' and the daily's Copy button puts the server's text on
the clipboard (or selects it where there is no clipboard), on a laptop and a phone; the
shared image, drawn by the server, rendered for docs/screenshots/share.png."""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
from contextlib import closing
from pathlib import Path

import httpx
import orjson
import pytest
from playwright.sync_api import Page, expect

from scorpion.engine import Game, apply_action
from scorpion.solver import solve
from scorpion_dev.server import ServerProcess

from .conftest import PageFactory
from .helpers import name_player, nothing_sideways, one_seat_race

pytestmark = pytest.mark.browser

# A card's name standing alone: not inside an id of the links (base64url: letters, digits,
# "_" and "-"; a player id "p_8DXY..." once failed this test).
CARD = re.compile(r"(?<![\w-])(10|[2-9AJQKT])\s?[SHDC♠♥♦♣](?![\w-])")
NO_CLIPBOARD = "Object.defineProperty(navigator, 'clipboard', { value: undefined });"


def give_up(page: Page) -> None:
    page.get_by_role("button", name="Give up").click()
    page.locator(".overlay").get_by_role("button", name="Give up").click()


def shared_text(page: Page) -> str:
    text = page.locator("[data-share=text]")
    expect(text).to_be_visible(timeout=15_000)
    value = text.input_value()
    assert not CARD.search(value), value
    return value


def test_copy_the_results_on_a_laptop(server: ServerProcess, new_page: PageFactory) -> None:
    page = new_page(1366, 768)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    one_seat_race(page, server.url, "Kay", deal=3)
    page.keyboard.press("d")  # deal the stock
    give_up(page)
    value = shared_text(page)
    lines = value.split("\n")
    assert lines[0].startswith("Scorpion Race · room ") and lines[0].endswith(" · round 1")
    assert lines[1].startswith("1st of 1 · gave up at ")
    assert re.fullmatch(r"/replay/room/[^/]+/1\?by=[^/]+", lines[-1].removeprefix(server.url))
    page.locator("[data-action=copy-share]").click()
    expect(page.locator("[data-share=status]")).to_have_text("Copied: paste it anywhere.")
    assert page.evaluate("navigator.clipboard.readText()") == value
    dialog = page.locator(".overlay .panel")
    box = page.locator("[data-share=panel]").bounding_box()
    assert box and box["x"] + box["width"] <= 1366
    assert dialog.evaluate("el => el.scrollWidth <= el.clientWidth")
    # The link opens the replay of this game.
    page.goto(lines[-1])
    expect(page.locator(".replay[data-ready]")).to_be_visible()
    expect(page.locator(".replay-racer .replay-name")).to_contain_text("Kay")


def test_copy_the_daily_on_a_phone_without_a_clipboard(
    server: ServerProcess, new_page: PageFactory
) -> None:
    page = new_page(390, 844, mobile=True)
    page.add_init_script(NO_CLIPBOARD)  # an old browser, or an insecure origin: select it
    page.goto(server.url + "/daily")
    name_player(page, "Lu")
    page.locator("[data-action=start-daily]").click()
    expect(page.locator(".race-main .card.up").first).to_be_visible()
    give_up(page)
    value = shared_text(page)
    today = httpx.get(server.url + "/api/daily").json()["date"]
    assert value.startswith(f"Scorpion Race · Daily {today}\n1st of 1 · gave up at ")
    assert value.split("\n")[-1].startswith(f"{server.url}/replay/daily/{today}/")
    page.locator("[data-action=copy-share]").tap()
    expect(page.locator("[data-share=status]")).to_have_text(
        re.compile(r"^(Copied: paste it anywhere\.|Selected: press Ctrl\+C)")
    )
    selected = page.locator("[data-share=text]").evaluate(
        "el => el.value.slice(el.selectionStart, el.selectionEnd)"
    )
    assert selected == value  # the whole text, ready to copy
    nothing_sideways(page)


def write_won_daily(db: Path, day: str, pace: float = 2.7, others: float = 400.0) -> str:
    """A past day's ranked win of deal 3 (the solver's line, a move every ``pace`` seconds or
    so) by a name with markup in it, ahead of Bo and Cy, who gave up at ``others`` seconds and
    a bit later; the winner's id."""
    line = solve(Game.new(3, "classic")).line
    game = Game.new(3, "classic")
    actions = []
    for i, move in enumerate(line):
        t = round(4.0 + i * pace + (i % 5) * pace / 7, 2)
        actions.append((apply_action(game, move, t), t))
    assert game.won
    elapsed = actions[-1][1]
    later = others + 100
    rows = [("p_win", "Ada <b>&</b> co", "won", elapsed, 4, game.score, actions),
            ("p_two", "Bo", "gave-up", others, 0, 0, [("give-up", others)]),
            ("p_three", "Cy", "gave-up", later, 0, 0, [("give-up", later)])]  # fmt: skip
    with closing(sqlite3.connect(db)) as conn, conn:
        for pid, name, result, t, runs, score, acts in rows:
            conn.execute(
                "INSERT INTO players (id, token_hash, name, created) VALUES (?, ?, ?, 0)",
                (pid, f"hash-{pid}".encode(), name),
            )
            gid = f"daily:{day}:1:{pid}"
            conn.execute(
                "INSERT INTO games (id, player_id, daily, ranked, preset, rules, deal, started, "
                "finished, result, elapsed, score, runs, moves, actions) VALUES (?, ?, ?, 1, "
                "'classic', '{\"preset\": \"classic\"}', '3', 1000.0, ?, ?, ?, ?, ?, ?, ?)",
                (gid, pid, day, 1000.0 + t, result, t, score, runs, len(acts),
                 orjson.dumps(acts).decode()),
            )  # fmt: skip
            conn.execute(
                "INSERT INTO daily_attempts (day, player_id, game_id) VALUES (?, ?, ?)",
                (day, pid, gid),
            )
    return "p_win"


def test_the_shared_image(server: ServerProcess, new_page: PageFactory, screenshots: Path) -> None:
    past = (dt.datetime.now(dt.UTC).date() - dt.timedelta(days=3)).isoformat()
    winner = write_won_daily(server.db, past)  # type: ignore[arg-type]
    share = httpx.get(f"{server.url}/api/share/daily/{past}/{winner}").json()
    place, numbers = share["text"].split("\n")[1:3]
    assert re.fullmatch(r"1st of 3 · won in \d+:\d\d", place), place
    assert re.fullmatch(r"4/4 runs · score -?\d+", numbers), numbers
    assert share["strip"].endswith("🟩") and share["strip"].startswith("⬜")
    page = new_page(600, 315)
    page.goto(share["image"])
    svg = page.locator("svg")
    expect(svg).to_contain_text("Ada <b>&</b> co")  # the name as text, not markup
    assert page.locator("svg b").count() == 0
    expect(svg).to_contain_text(f"Scorpion Race · Daily {past}")
    assert page.locator("svg rect").count() == 11  # the background and the ten squares
    page.screenshot(path=str(screenshots / "share.png"))


def test_the_share_panel_passes_axe(server: ServerProcess, new_page: PageFactory) -> None:
    from .test_a11y import serious

    page = new_page(390, 844, mobile=True, bypass_csp=True)  # lets the test inject axe
    one_seat_race(page, server.url, "Axe", deal=3)
    give_up(page)
    shared_text(page)
    serious(page, "results with the share panel")
