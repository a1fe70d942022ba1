"""A tab in the background says what happened (issue 14): the tab title tells that a friend
joined and that the countdown started, with a beep when the sound is on; looking at the tab
again restores the title. Chromium never hides a headless page, so the page is told it is
hidden (document.hidden) and the Web Audio oscillators started are counted."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scorpion_dev.server import ServerProcess

from .conftest import PageFactory
from .helpers import create_room, name_player, start_race

pytestmark = pytest.mark.browser

AWAY = """
window.__hidden = false;
Object.defineProperty(document, 'hidden', {get: () => window.__hidden});
Object.defineProperty(document, 'visibilityState',
  {get: () => (window.__hidden ? 'hidden' : 'visible')});
window.__beeps = 0;
// Every title the page sets, in order (a short-lived one is checked without racing it).
window.__titles = [];
const title = Object.getOwnPropertyDescriptor(Document.prototype, 'title');
Object.defineProperty(document, 'title', {
  get() { return title.get.call(this); },
  set(value) { window.__titles.push(value); title.set.call(this, value); },
});
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) {
  window.__beeps += 1;
  return start.apply(this, args);
};
"""


def set_hidden(page: Page, hidden: bool) -> None:
    page.evaluate(
        "(h) => { window.__hidden = h; document.dispatchEvent(new Event('visibilitychange')); }",
        hidden,
    )


@pytest.mark.parametrize(("width", "height", "mobile"), [(1366, 800, False), (390, 844, True)])
def test_the_tab_title_says_who_joined_and_that_the_race_starts(
    server: ServerProcess, new_page: PageFactory, width: int, height: int, mobile: bool
) -> None:
    ada = new_page(width, height, mobile=mobile)
    ada.add_init_script(AWAY)
    link = create_room(ada, server.url, "Ada")
    expect(ada).to_have_title(re.compile(r"^Race \w+ · Scorpion Race$"))
    title = ada.title()
    ada.get_by_label("A sound when the race starts").check()
    ada.locator("[data-action=ready]").click()
    set_hidden(ada, True)

    bo = new_page()
    bo.goto(link)
    name_player(bo, "Bo")
    expect(ada).to_have_title("Bo joined · Scorpion Race")
    beeps = ada.evaluate("window.__beeps")
    assert beeps >= 1
    bo.locator("[data-action=ready]").click()

    # Ada is away: Bo cannot start (only the creator may), so Ada's tab starts it unseen.
    start_race(ada, "Bo")
    expect(ada).to_have_title("Go! The race has started · Scorpion Race", timeout=10_000)
    titles = ada.evaluate("window.__titles")
    assert titles[-2:] == [
        "The race is starting! · Scorpion Race",
        "Go! The race has started · Scorpion Race",
    ]
    assert ada.evaluate("window.__beeps") >= beeps + 2

    set_hidden(ada, False)
    expect(ada).to_have_title(title)
    # Seen, nothing changes the title.
    bo.get_by_role("button", name="Give up").click()
    bo.locator(".overlay").get_by_role("button", name="Give up").click()
    expect(ada.locator(".racers")).to_contain_text("gave up")
    expect(ada).to_have_title(title)
