"""Keyboard play and screen-reader labels on a solo room of deal 1 (see test_race.py), and the
explanation of a complete run that stays under the `placed` rule (docs/rules.md)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scorpion_dev.server import ServerProcess

from .conftest import PageFactory
from .helpers import card, column_cards, tap

pytestmark = pytest.mark.browser

SOLO_ROOM = """async () => {
  const api = await import('/js/api.js');
  await api.ensurePlayer('Kay');
  const r = await api.createRoom({preset: 'classic', deal: 1, max_players: 1, time_limit: 0,
                                  hints: true, undo: 'full'});
  sessionStorage.setItem('scorpion.autostart.' + r.room, '1');
  location.hash = '#/r/' + r.room;
}"""


def touch_drag(page: Page, text: str, column: int) -> None:
    """Drag with a finger (Chrome DevTools touch events): pointer events of type touch."""
    src = card(page, text).bounding_box()
    dst = page.locator(f".race-main .column[data-col='{column - 1}']").bounding_box()
    assert src and dst
    cdp = page.context.new_cdp_session(page)
    x0, y0 = src["x"] + src["width"] / 2, src["y"] + 6
    x1, y1 = dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] - 10
    cdp.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]}
    )
    for step in range(1, 11):
        point = {"x": x0 + (x1 - x0) * step / 10, "y": y0 + (y1 - y0) * step / 10}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def shown_hint(page: Page) -> tuple[str, str]:
    """The one hint on the board: (card to move, target column), drawn in distinct colours."""
    src = page.locator(".race-main .card.hint-src")
    dst = page.locator(".race-main .hint-dst")
    expect(src).to_have_count(1)
    expect(dst).to_have_count(1)
    shadow = "el => getComputedStyle(el).boxShadow"
    assert src.evaluate(shadow) != dst.evaluate(shadow)
    return src.get_attribute("data-card") or "", dst.get_attribute("data-col") or ""


def solo_deal_one(page: Page, base: str) -> None:
    page.goto(base + "/")
    page.evaluate(SOLO_ROOM)
    expect(card(page, "JH")).to_be_visible(timeout=15_000)


def test_keyboard_play_and_labels(server: ServerProcess, new_page: PageFactory) -> None:
    page = new_page()
    solo_deal_one(page, server.url)
    col1 = page.locator(".race-main .column[data-col='0']")
    expect(col1).to_have_attribute(
        "aria-label", "column 1, 3 cards face down, 4 face up, top card jack of hearts"
    )
    expect(card(page, "4H")).to_have_count(0)
    expect(card(page, "2H")).to_have_attribute("aria-label", "2♥, two of hearts, column 2")

    # Arrow keys move between cards; Enter sends the card where it fits (tap-to-move).
    card(page, "JH").focus()
    page.keyboard.press("ArrowUp")
    expect(card(page, "5C")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(".race-main .column[data-col='2'] .card[data-card='5C']")).to_be_visible()
    assert column_cards(page, 3)[-2:] == ["5C", "JH"]

    # Space picks a card up; a column number puts it down there.
    card(page, "2H").focus()
    page.keyboard.press("Space")
    expect(card(page, "2H")).to_have_class("card up suit-H selected")
    page.keyboard.press("6")
    expect(page.locator(".race-main .column[data-col='5'] .card[data-card='2H']")).to_be_visible()
    expect(page.locator(".race-main [data-stat='moves'] b")).to_have_text("2")

    # H shows one hint at a time: the card to move and where it goes, in two colours; H again
    # shows the next one.
    page.keyboard.press("h")
    expect(page.locator("#live-polite")).to_contain_text("Hint 1 of")
    first = shown_hint(page)
    count = int(re.findall(r"Hint 1 of (\d+)", page.locator("#live-polite").inner_text())[0])
    assert count >= 2
    page.keyboard.press("h")
    expect(page.locator("#live-polite")).to_contain_text(f"Hint 2 of {count}")
    assert shown_hint(page) != first

    # U undoes.
    page.keyboard.press("u")
    expect(page.locator(".race-main .column[data-col='1'] .card[data-card='2H']")).to_be_visible()


def test_touch_drag_and_tap_on_a_phone(server: ServerProcess, new_page: PageFactory) -> None:
    page = new_page(390, 844, mobile=True)
    solo_deal_one(page, server.url)
    touch_drag(page, "5C", 3)
    expect(page.locator(".race-main .column[data-col='2'] .card[data-card='JH']")).to_be_visible()
    assert column_cards(page, 1) == ["8D", "8H"]
    card(page, "2H").tap(position={"x": 8, "y": 6})
    expect(page.locator(".race-main .column[data-col='5'] .card[data-card='2H']")).to_be_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390  # nothing sticks out sideways in portrait


def test_tap_card_then_column_and_reduced_motion(
    server: ServerProcess, new_page: PageFactory
) -> None:
    page = new_page()
    page.emulate_media(reduced_motion="reduce")
    solo_deal_one(page, server.url)
    # Taps pick cards up (the seed 004 way): the setting under "How to play, keys and table".
    page.get_by_text("How to play, keys and table").click()
    page.get_by_label("A tap sends the card where it fits").uncheck()
    page.get_by_label("Four suit colours").uncheck()  # red and black, remembered
    expect(page.locator("body")).to_have_class(re.compile(r"\btwo-color\b"))
    tap(page, "5C")
    expect(card(page, "5C")).to_have_class(re.compile(r"\bselected\b"))
    expect(card(page, "JH")).to_have_class(re.compile(r"\bselected\b"))  # it rides along
    tap(page, "6C")  # a card of column 3: put the 5C (and the JH) there
    expect(page.locator(".race-main .column[data-col='2'] .card[data-card='JH']")).to_be_visible()
    assert column_cards(page, 3)[-3:] == ["6C", "5C", "JH"]
    assert page.evaluate("document.getAnimations().length") == 0  # nothing moves by itself

    # Tapping the picked-up card again puts it back.
    tap(page, "2H")
    tap(page, "2H")
    expect(card(page, "2H")).not_to_have_class(re.compile(r"\bselected\b"))
    expect(page.locator(".race-main [data-stat='moves'] b")).to_have_text("1")


SPADES = [f"{rank}S" for rank in "KQJT98765432A"]


def placed_view(up: list[str]) -> dict[str, object]:
    """Column 1: one face-down card, then ``up``; column 2 empty; column 3 the KH."""
    return {
        "columns": [{"down": 1, "up": up}, {"down": 0, "up": []}, {"down": 0, "up": ["KH"]}],
        "stock": 0,
        "reserve": [],
        "runs": [],
        "score": 0,
        "moves": 0,
        "turned": 0,
        "won": False,
        "lost": False,
        "can_undo": False,
    }


def test_a_covered_run_is_explained(server: ServerProcess, new_page: PageFactory) -> None:
    page = new_page()
    page.goto(server.url + "/")
    note = page.evaluate(
        """async ([view, uncovered]) => {
          const {createBoard} = await import('/js/board.js');
          const b = createBoard();
          document.getElementById('main').append(b.el);
          b.update(view, {rules: {runs: 'placed'}});
          const covered = b.el.querySelector('.board-note').textContent;
          b.update(uncovered, {rules: {runs: 'placed'}});
          const stays = b.el.querySelector('.board-note').textContent;
          b.update(uncovered, {rules: {runs: 'keep'}});
          return [covered, stays, b.el.querySelector('.board-note').hidden,
                  b.el.querySelectorAll('.covered-run').length];
        }""",
        [placed_view([*SPADES, "4D"]), placed_view(SPADES)],
    )
    covered, stays, hidden_when_kept, marked = note
    assert "spades run in column 1 is complete, but cards lie on it" in covered
    assert "only when its King is moved into an empty column" in covered
    assert "complete but stays" in stays and "Move its King into an empty column" in stays
    assert hidden_when_kept is True
    assert marked == 13
