"""Your player on another device, in two browser contexts: a one-time code shown on one and
typed on the other moves the player (its statistics follow); a recovery code brings it back
into a third, empty browser. No token or code ever appears in a URL."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scorpion_dev.server import ServerProcess

from .conftest import PageFactory

pytestmark = pytest.mark.browser

PLAYER = "(async () => (await import('/js/api.js')).player())()"


def own_player(page: Page, base: str, name: str) -> dict[str, str]:
    page.goto(base + "/")
    page.evaluate(f"(async () => (await import('/js/api.js')).ensurePlayer({name!r}))()")
    me: dict[str, str] = page.evaluate(PLAYER)
    return me


def test_a_code_moves_the_player_and_a_recovery_code_brings_it_back(
    server: ServerProcess, new_page: PageFactory
) -> None:
    laptop = new_page(1366, 800)
    ada = own_player(laptop, server.url, "Ada")
    phone = new_page(390, 844, True)
    own_player(phone, server.url, "Someone")
    urls: list[str] = []
    for page in (laptop, phone):
        page.on("request", lambda r: urls.append(r.url))

    laptop.goto(server.url + "/#/stats")
    laptop.get_by_role("link", name="Use on another device").click()
    expect(laptop.get_by_role("heading", name="Use on another device")).to_be_visible()
    laptop.get_by_role("button", name="Show a code").click()
    shown = laptop.locator("[data-code]")
    expect(shown).to_be_visible()
    code = shown.get_attribute("data-code") or ""
    expect(laptop.get_by_text("Expires in")).to_be_visible()

    phone.goto(server.url + "/#/devices")
    phone.get_by_label("Code from your other device, or your recovery code").fill(code.upper())
    phone.get_by_role("button", name="Use this code").click()
    phone.locator(".overlay").get_by_role("button", name="Switch").click()
    expect(phone.get_by_role("heading", name="Your statistics")).to_be_visible()
    expect(phone.locator("#who")).to_have_text("Ada")
    moved = phone.evaluate(PLAYER)
    assert moved["id"] == ada["id"]
    tokens = [p.evaluate("localStorage.getItem('scorpion.token')") for p in (laptop, phone)]
    assert tokens[0] and tokens[1] and tokens[0] != tokens[1]  # a token of its own

    # The same code a second time is refused, with a reason.
    phone.goto(server.url + "/#/devices")
    phone.get_by_label("Code from your other device, or your recovery code").fill(code)
    phone.get_by_role("button", name="Use this code").click()
    phone.locator(".overlay").get_by_role("button", name="Switch").click()
    expect(phone.locator(".error-text")).to_contain_text("unknown, used or expired")

    laptop.get_by_role("button", name="Make a recovery code").click()
    laptop.locator(".overlay").get_by_role("button", name="Make it").click()
    recovery = laptop.locator("[data-recovery]")
    expect(recovery).to_be_visible()
    written_down = recovery.get_attribute("data-recovery") or ""
    assert len(written_down.replace("-", "")) == 20

    fresh = new_page(390, 844, True)
    fresh.on("request", lambda r: urls.append(r.url))
    fresh.goto(server.url + "/#/devices")
    fresh.get_by_label("Code from your other device, or your recovery code").fill(written_down)
    fresh.get_by_label("This is my recovery code").check()
    fresh.get_by_role("button", name="Use this code").click()
    expect(fresh.locator("#who")).to_have_text("Ada")
    assert fresh.evaluate(PLAYER)["id"] == ada["id"]

    tokens.append(fresh.evaluate("localStorage.getItem('scorpion.token')"))
    for url in urls:
        assert code not in url and written_down not in url
        assert not any(t and t in url for t in tokens)


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)])
def test_your_devices_lists_them_and_signs_one_out(
    server: ServerProcess, new_page: PageFactory, screenshots: Path, size: tuple[int, int]
) -> None:
    laptop = new_page(*size)
    own_player(laptop, server.url, "Ada")
    code = laptop.evaluate("(async () => (await import('/js/api.js')).makeDeviceCode())()")["code"]
    phone = new_page(390, 844, True)
    phone.goto(server.url + "/")
    phone.evaluate(f"(async () => (await import('/js/api.js')).useCode({code!r}))()")

    laptop.goto(server.url + "/#/devices")
    devices = laptop.get_by_role("region", name="Your devices")
    rows = devices.get_by_role("listitem")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("this device")
    expect(rows.nth(0)).to_contain_text("player made here")
    expect(rows.nth(1)).to_contain_text("came with a one-time code")
    laptop.locator("#your-devices-h").scroll_into_view_if_needed()
    laptop.screenshot(path=str(screenshots / f"your-devices-{size[0]}.png"), full_page=True)

    rows.nth(1).get_by_role("button", name="Sign out").click()
    laptop.locator(".overlay").get_by_role("button", name="Sign out").click()
    expect(rows).to_have_count(1)
    expect(devices.get_by_role("button", name="Sign out everywhere else")).to_be_disabled()
    # The phone's token no longer works: its next request is refused and it forgets it.
    phone.goto(server.url + "/#/devices")
    expect(phone.get_by_text("This browser was signed out")).to_be_visible()
    assert phone.evaluate("localStorage.getItem('scorpion.token')") is None
