"""The race clock: a short time limit runs out while the page counts down, and the results
say who ran out of time."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scorpion_dev.server import ServerProcess

from .conftest import PageFactory

pytestmark = pytest.mark.browser

SOLO_TIMED = """async () => {
  const api = await import('/js/api.js');
  await api.ensurePlayer('Tim');
  const r = await api.createRoom({preset: 'classic', max_players: 1, time_limit: 5});
  sessionStorage.setItem('scorpion.autostart.' + r.room, '1');
  location.hash = '#/r/' + r.room;
}"""


def test_time_runs_out(server: ServerProcess, new_page: PageFactory) -> None:
    page = new_page()
    page.goto(server.url + "/")
    page.evaluate(SOLO_TIMED)
    clock = page.get_by_role("timer", name="Race clock")
    expect(clock).to_have_text(re.compile(r"0:0[1-5] left"), timeout=15_000)
    expect(clock).to_have_class(re.compile(r"\blow\b"))  # under a minute: shown in red
    results = page.get_by_role("dialog", name="Results")
    expect(results).to_be_visible(timeout=20_000)
    expect(results.locator("tbody tr").first).to_contain_text("out of time")
    expect(page.get_by_role("button", name="Give up")).to_be_disabled()
