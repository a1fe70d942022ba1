"""The race at a glance (issue 14): the whole board fits the window on a desktop and a phone,
every face-up card's rank stays readable, and there is one race clock, always in view.

Deal 13 (classic): the 21 moves below build a column of 27 cards (3 face down, 24 face up).
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scorpion.engine import Game
from scorpion_dev.server import ServerProcess

from .conftest import PageFactory
from .helpers import one_seat_race, play_by_keys

pytestmark = pytest.mark.browser

DEAL = 13
LONG_LINE = ["2H>4", "7C>1", "9D>1", "deal", "6S>1", "5S>1", "KS>6", "TH>3", "5H>4", "4C>3",
             "8C>2", "AD>6", "JH>2", "4H>4", "KC>5", "QC>5", "QS>6", "JS>6", "5D>4", "5C>1",
             "9C>4"]  # fmt: skip

MEASURE = """async () => {
  await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)));
  const cols = [...document.querySelectorAll('.race-main .column')].map((col) => {
    const cards = [...col.querySelectorAll('.card')].sort((a, b) => a.offsetTop - b.offsetTop);
    const up = cards.filter((c) => c.classList.contains('up'));
    // How much of each covered face-up card shows, and how tall its rank is drawn.
    const top = (c) => c.getBoundingClientRect().top;
    const shown = up.slice(0, -1).map((c, i) => top(up[i + 1]) - top(c));
    const corner = up.map((c) => c.querySelector('.corner').getBoundingClientRect());
    const rankPx = up.map((c) => parseFloat(getComputedStyle(c.querySelector('.corner')).fontSize));
    return {
      count: cards.length,
      bottom: Math.max(...[col, ...cards].map((c) => c.getBoundingClientRect().bottom)),
      shown,
      cornerBottom: corner.slice(0, -1).map((r, i) => r.bottom - top(up[i])),
      rankPx,
    };
  });
  const scrollWidth = document.documentElement.scrollWidth;
  return {cols, scrollY, scrollWidth};
}"""


def check_fits(page: Page) -> dict[str, Any]:
    m: dict[str, Any] = page.evaluate(MEASURE)
    size = page.viewport_size
    assert size
    m.update(size)
    assert m["scrollY"] == 0
    for j, col in enumerate(m["cols"]):
        assert col["bottom"] <= m["height"], (j, col["bottom"], m["height"])
        for shown, corner in zip(col["shown"], col["cornerBottom"], strict=True):
            assert shown >= 11 and shown >= corner - 0.5, (j, shown, corner)
        assert all(px >= 11 for px in col["rankPx"]), (j, col["rankPx"])
    assert m["scrollWidth"] <= m["width"]
    return m


def clock_in_view(page: Page) -> None:
    clocks = page.locator("[role=timer]:visible")
    expect(clocks).to_have_count(1)
    expect(clocks).to_have_attribute("aria-label", "Race clock")
    expect(clocks).to_contain_text("left")
    box = clocks.bounding_box()
    height = page.viewport_size["height"]  # type: ignore[index]
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= height


def test_the_long_line_builds_a_27_card_column() -> None:
    game = Game.new(DEAL, "classic")
    for move in LONG_LINE:
        game.play(move)
    assert max(len(c) for c in game.columns) == 27


@pytest.mark.parametrize(
    ("width", "height", "mobile"), [(1366, 768, False), (1366, 800, False), (390, 844, True)]
)
def test_the_whole_board_fits_with_one_clock_in_view(
    server: ServerProcess, new_page: PageFactory, width: int, height: int, mobile: bool
) -> None:
    page = new_page(width, height, mobile=mobile)
    one_seat_race(page, server.url, preset="classic", deal=DEAL, time_limit=900)
    check_fits(page)
    clock_in_view(page)
    play_by_keys(page, LONG_LINE)
    m = check_fits(page)
    assert max(c["count"] for c in m["cols"]) == 27
    clock_in_view(page)
